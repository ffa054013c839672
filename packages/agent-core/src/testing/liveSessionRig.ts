/**
 * A real session service for tests: a temp HERMES_HOME, the real runtime and SQLite store, and the
 * scripted model server as the model. `close()` stops it all; the folder goes when the test ends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startModelServer, type ModelServer, type Script } from '../../../../scripts/model-server/index.ts';
import type { AgentEvent } from '../agent/events.ts';
import type { ModelFlags } from '../config/resolveModel.ts';
import { SessionService } from '../liveSession/sessionService.ts';
import type { SessionInfo } from '../contract/sessionInfo.ts';
import { silentLogger } from '../logging/logger.ts';
import { HermesRuntime } from '../runtime.ts';
import { homeWith } from './tempHome.ts';

export interface LiveSessionRig {
  home: string;
  runtime: HermesRuntime;
  server: ModelServer;
  service: SessionService;
  events: AgentEvent[];
  /** The payloads of the `session.info` events so far, oldest first. */
  infos(): SessionInfo[];
  /** Opens another service on the same runtime (a second session). */
  open(overrides?: ModelFlags): SessionService;
  close(): Promise<void>;
}

export async function liveSessionRig(options: { script?: Script; config?: string; overrides?: ModelFlags } = {}): Promise<LiveSessionRig> {
  const server = await startModelServer(options.script ?? { loop: true, turns: [{ text: 'ok' }] });
  const home = homeWith(options.config ? { 'config.yaml': options.config } : {}, 'live-session');
  const runtime = new HermesRuntime({
    home,
    env: {},
    logger: silentLogger,
    flags: { provider: 'custom', baseUrl: server.baseUrl, model: 'scripted-model' },
  });
  const events: AgentEvent[] = [];
  const facts = { version: '0.0.0-test', demo: false, pluginCount: () => 0, toolsets: () => runtime.tools.byToolset(), configProblems: () => [] };
  const open = (overrides = options.overrides) =>
    SessionService.open(runtime, facts, { cwd: home, emit: (event) => events.push(event), ...(overrides ? { overrides } : {}) });
  const service = open();
  const rig: LiveSessionRig = {
    home,
    runtime,
    server,
    service,
    events,
    infos: () => events.flatMap((e) => (e.type === 'session.info' ? [e.payload] : [])),
    open,
    close: async () => {
      await service.close().catch(() => undefined);
      runtime.close();
      await server.close();
    },
  };
  return rig;
}

/** The text of config.yaml in the rig's home. */
export function configText(rig: Pick<LiveSessionRig, 'home'>): string {
  return fs.readFileSync(path.join(rig.home, 'config.yaml'), 'utf8');
}
