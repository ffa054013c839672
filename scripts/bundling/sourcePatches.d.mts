// Types for sourcePatches.mjs, which scripts/build.mjs runs under plain node.
import type { Loader, Plugin } from 'esbuild';

export interface SourceEdit {
  find: string;
  replace: string;
  count: number;
}
export declare function sourcePatch(name: string, filter: RegExp, edits: SourceEdit[], applies?: (file: string) => boolean, loader?: Loader): Plugin;
export declare const yogaWithoutFetch: Plugin;
export declare const stringWidthLazyEmoji: Plugin;
