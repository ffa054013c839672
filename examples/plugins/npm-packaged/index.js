// A plugin shipped as an npm package. No plugin.yaml: the manifest is the "hermes": {"plugin": …}
// field of package.json (name, version, description, requires_env …; `main` is the entry).
// Install it with `npm install --prefix ~/.hermes hermes-plugin-npm-example` (it lands in
// $HERMES_HOME/node_modules/). Nothing is imported before the plugin passes the enable rules.

export function register(ctx) {
  ctx.registerTool({
    name: 'npm_example_time',
    toolset: 'npm-example',
    schema: { name: 'npm_example_time', description: 'Returns the current time as ISO 8601.', parameters: { type: 'object', properties: {} } },
    handler: () => new Date().toISOString(),
  });
  ctx.registerCommand('npm-example', () => `npm-packaged plugin, loaded as "${ctx.name}"`, 'Shows that the npm plugin is loaded');
}
