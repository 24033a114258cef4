// A minimal Fastify app with one GET /:code answering a fixed 302: what the framework itself costs.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/:code', (_request, reply) => {
  reply.code(302).header('location', 'https://example.com/a/very/long/path?x=1').header('cache-control', 'no-store').send();
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log('listening');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
