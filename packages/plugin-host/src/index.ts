/**
 * hermes plugin host: discovery (user, project, npm), plugin.yaml manifests, PluginContext, hooks and
 * middleware (shared PLUGINS.md). `PluginHost.port` is agent-core's ExtensionPort.
 */
export { PluginHost } from './pluginHost.ts';
export type { BlockedLoad, LoadWatch, PluginHostOptions, PluginInfo } from './pluginHostTypes.ts';
export { PluginContext, normalizeCommandName, type HostCallbacks, type PluginToolSpec } from './context/pluginContext.ts';
export type { PluginCliCommand, PluginCommand, PluginSkill } from './context/registrations.ts';
export { discoverPlugins, projectPluginsEnabled, PYTHON_PLUGIN, type DiscoveredPlugin, type PluginSource } from './discovery/discover.ts';
export { gateVerdict } from './discovery/gate.ts';
export { describeMissingEnv } from './discovery/requiredEnv.ts';
export { ManifestError, parseManifest, type PluginManifest } from './discovery/manifest.ts';
export { applyRequestChain, runExecutionChain } from './dispatch/middleware.ts';
export { FailureLog } from './dispatch/failureLog.ts';
export { blamePlugins, watchPluginCalls, type CallWatcher, type PluginCall } from './containment/pluginScope.ts';
export { refuseProcessControlFromPlugins } from './containment/processGuards.ts';
