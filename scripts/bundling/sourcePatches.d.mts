// Types for sourcePatches.mjs, which scripts/build.mjs runs under plain node.
import type { Plugin } from 'esbuild';

export interface SourceEdit {
  find: string;
  replace: string;
  count: number;
}
export declare function sourcePatch(name: string, filter: RegExp, edits: SourceEdit[], applies?: (file: string) => boolean): Plugin;
export declare const stringWidthLazyEmoji: Plugin;
export declare const yogaSync: Plugin[];
export declare const inkWithoutDevtools: Plugin;
