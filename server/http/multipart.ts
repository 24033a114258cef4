import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import { named } from './plugin-name';

type MultipartOptions = Parameters<typeof fastifyMultipart>[1];

/**
 * @fastify/multipart, registered without its request.formData(), which Corto never calls. The
 * plugin offers that method when globalThis.FormData exists, and merely asking makes Node load its
 * fetch implementation (undici): about 13 ms of every start. Node's lazy FormData is hidden while
 * the plugin's function runs and put back, still unloaded, before it returns: the plugin sets
 * itself up synchronously, so no other code can run in between and miss FormData.
 */
const multipartWithoutFormData: FastifyPluginCallback<MultipartOptions> = (app, options, done) => {
  const formData = Object.getOwnPropertyDescriptor(globalThis, 'FormData');
  Object.defineProperty(globalThis, 'FormData', { value: undefined, configurable: true, writable: true });
  try {
    (fastifyMultipart as unknown as FastifyPluginCallback<MultipartOptions>)(app, options, done);
  } finally {
    if (formData) Object.defineProperty(globalThis, 'FormData', formData);
    else delete (globalThis as { FormData?: unknown }).FormData;
  }
};
// In the scope that registers it, as fastify-plugin makes the plugin itself: its content-type
// parser and decorators serve that scope's routes.
Object.assign(multipartWithoutFormData, { [Symbol.for('skip-override')]: true });

export async function registerMultipart(app: FastifyInstance, options: MultipartOptions): Promise<void> {
  await app.register(named('multipartWithoutFormData', multipartWithoutFormData), options);
}
