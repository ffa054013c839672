// Types for builtinNamespaces.mjs, which scripts/build.mjs runs under plain node.
export declare const BUILTIN_NAMESPACE: string;
export declare function shareBuiltinNamespaces(source: string): string;
