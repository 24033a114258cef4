import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * app.inject for an answer that may be an endless stream (the live feed): a 200 is read up to its
 * first chunk and let go, anything else whole. The result reads as an ordinary injected answer.
 */
export async function injectUntilFirstChunk(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  const response = await app.inject({ ...options, payloadAsStream: true });
  const stream = response.stream();
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve) => {
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (response.statusCode === 200) resolve();
    });
    stream.on('end', () => resolve());
    stream.on('error', () => resolve());
  });
  stream.destroy();
  const body = Buffer.concat(chunks).toString('utf8');
  return { statusCode: response.statusCode, headers: response.headers, body, payload: body, json: () => JSON.parse(body) as unknown } as unknown as LightMyRequestResponse;
}
