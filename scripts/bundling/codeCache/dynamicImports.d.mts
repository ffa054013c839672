// Types for dynamicImports.mjs, which scripts/build.mjs runs under plain node.
import type { Plugin } from 'esbuild';

export declare const DYNAMIC_IMPORT: string;
export declare const pluginImportRouted: Plugin;
export declare function routeDynamicImports(source: string): Promise<string>;
