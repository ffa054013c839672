/**
 * Imported first by main.ts: ES modules evaluate in import order, so the guard is in place before
 * any other module (or a dependency's top-level code) can write to stdout.
 */
import { installStdoutGuard } from './stdoutGuard.ts';

export const protocolStdout = installStdoutGuard();
