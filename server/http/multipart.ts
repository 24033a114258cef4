import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/**
 * @fastify/multipart, registered without its request.formData(), which Corto never calls. The
 * plugin offers that method when globalThis.FormData exists, and merely asking makes Node load its
 * fetch implementation (undici): about 13 ms of every start. Node's lazy FormData is hidden while
 * the plugin registers, then put back as it was, still unloaded.
 */
export async function registerMultipart(app: FastifyInstance, options: Parameters<typeof fastifyMultipart>[1]): Promise<void> {
  const formData = Object.getOwnPropertyDescriptor(globalThis, 'FormData');
  Object.defineProperty(globalThis, 'FormData', { value: undefined, configurable: true, writable: true });
  try {
    await app.register(fastifyMultipart, options);
  } finally {
    if (formData) Object.defineProperty(globalThis, 'FormData', formData);
    else delete (globalThis as { FormData?: unknown }).FormData;
  }
}
