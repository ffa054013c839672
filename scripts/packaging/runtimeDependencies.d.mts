// Types for runtimeDependencies.mjs, which scripts/packaging/pack.mjs runs under plain node.
import type { Metafile } from 'esbuild';

export declare function packageNameOf(specifier: string): string;
export declare function runtimeDependencies(metafiles: Metafile[], root: string): { dependencies: Record<string, string>; optional: Record<string, string> };
