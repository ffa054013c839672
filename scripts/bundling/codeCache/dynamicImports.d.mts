// Types for dynamicImports.mjs, which scripts/build.mjs runs under plain node.
export declare const DYNAMIC_IMPORT: string;
export declare function routeDynamicImports(source: string): Promise<string>;
