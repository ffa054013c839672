/** Vitest setup file (runs in every test file): temp dirs and children made outside a test go after the file's tests. */
import { afterAll } from 'vitest';
import { installFileHook, runFileCleanups } from './tempDirs.ts';

installFileHook();
afterAll(runFileCleanups);
