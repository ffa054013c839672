/**
 * hermes plugin host: discovery (user, project, npm), plugin.yaml manifests, PluginContext, hooks and
 * middleware (see shared PLUGINS.md). It implements agent-core's extension port; the loader arrives
 * with the plugin-host issue (#6). Until then the backend runs with no plugins.
 */
export const PLUGIN_MANIFEST_FILE = 'plugin.yaml';
