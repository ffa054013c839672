/** The hermes version reported in `gateway.ready` and `session.info`. */
export const HERMES_VERSION = '0.1.0';
