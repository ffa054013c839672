import { CLIENT_PROTOCOL_ENV, HERMES_VERSION, PROTOCOL_VERSION, protocolMismatch } from '../protocol/index.ts';

/**
 * Why this backend cannot serve the client that started it, from the protocol the client states in
 * `HERMES_CLIENT_PROTOCOL`; undefined when it matches or nothing is stated (docs/wire.md, Handshake).
 */
export function clientProtocolProblem(stated: string | undefined): string | undefined {
  if (stated === undefined || stated.trim() === '') return undefined;
  if (!/^\d+$/.test(stated.trim())) return `${CLIENT_PROTOCOL_ENV} must be a protocol number such as ${PROTOCOL_VERSION}, got ${JSON.stringify(stated)}`;
  if (Number(stated) === PROTOCOL_VERSION) return undefined;
  return protocolMismatch({ version: HERMES_VERSION, protocol: PROTOCOL_VERSION }, { protocol: Number(stated) });
}
