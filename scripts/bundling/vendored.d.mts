// Types for vendored.mjs, which scripts/build.mjs runs under plain node.
import type { Plugin } from 'esbuild';

export declare function vendoredExternal(packages: Record<string, string>): Plugin;
export declare function vendorSpecifier(file: string): string;
