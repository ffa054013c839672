// Types for build.mjs, which runs under plain node; tests import `buildTargets` to build a variant.
import type { BuildOptions, BuildResult } from 'esbuild';

export interface BuiltTarget {
  name: string;
  outdir: string;
  result: BuildResult;
}
export declare function buildTargets(words?: string[], extra?: BuildOptions, outdirs?: (outdir: string) => string): Promise<BuiltTarget[]>;
