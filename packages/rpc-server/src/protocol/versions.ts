/**
 * Versions: the wire's (`PROTOCOL_VERSION`, in `gateway.ready`) and the package's (`HERMES_VERSION`),
 * and the check that a client and a backend speak the same protocol. Two installs of hermes can
 * coexist (a global one, a checkout): a `hermes` that starts another install's `hermes-rpc` is
 * refused by name instead of failing later on a method or shape that differs.
 */
import { HERMES_VERSION } from '../version.ts';

export { HERMES_VERSION };

/** Bumped when a change to the wire would break a client or backend of the previous one. */
export const PROTOCOL_VERSION = 1;

/**
 * The environment variable in which a client that spawns the backend states its protocol. Optional:
 * a client that states nothing is served, and checks `gateway.ready.protocol` itself. An environment
 * variable rather than an option, so a backend from before this check starts anyway (it would refuse
 * an option it does not know) and the client's own check on `gateway.ready` names the mismatch.
 */
export const CLIENT_PROTOCOL_ENV = 'HERMES_CLIENT_PROTOCOL';

/** `hermes 0.1.0 (protocol 1)`: what `--version` prints. */
export function versionLine(program: string): string {
  return `${program} ${HERMES_VERSION} (protocol ${PROTOCOL_VERSION})`;
}

/** The message both sides give on a mismatch: both versions, and the fix. */
export function protocolMismatch(backend: { version?: string; protocol: number | string }, client: { version?: string; protocol: number | string }): string {
  const named = (program: string, side: { version?: string; protocol: number | string }) => `${program}${side.version ? ` ${side.version}` : ''} speaks protocol ${side.protocol}`;
  return `${named('hermes-rpc', backend)} but ${named('hermes', client)}: reinstall so hermes and hermes-rpc match (both come from one hermes-agent package; HERMES_RPC_ENTRY, when set, must name that package's hermes-rpc)`;
}
