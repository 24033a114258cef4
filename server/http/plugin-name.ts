const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * `plugin`, carrying the name Fastify knows it by (its boot tree, its errors). Without one, Fastify
 * looks for the plugin among the exports of every module loaded (require.cache) at each
 * register(): some forty registrations a build. The bundled server loads few modules that way, but
 * a test app, built among thousands, paid 40-80 ms for it.
 */
export function named<Plugin extends object>(name: string, plugin: Plugin): Plugin {
  Object.defineProperty(plugin, DISPLAY_NAME, { value: name, configurable: true });
  return plugin;
}
