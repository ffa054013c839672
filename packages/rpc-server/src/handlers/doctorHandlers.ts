import { doctorChecks } from '../doctor/doctorChecks.ts';
import type { HandlerContext, HandlerTable } from './context.ts';

/** Bound on each wait of `doctor.check` (MCP servers connecting, the model's answer) when the client gives none. */
const DEFAULT_STEP_TIMEOUT_MS = 15_000;

/** `doctor.check`: the backend's rows of `hermes doctor` (doctor/doctorChecks.ts). */
export function doctorHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'doctor.check': async (params) => ({
      checks: await doctorChecks(
        { runtime: ctx.runtime, plugins: ctx.plugins.list(), pluginsLoaded: ctx.plugins.importsPlugins },
        { online: params.online ?? false, timeoutMs: params.timeout_ms ?? DEFAULT_STEP_TIMEOUT_MS },
      ),
    }),
  };
}
