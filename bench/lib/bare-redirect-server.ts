// The ceiling: node:http answering every request with the same 302, nothing else.
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 0);
const server = createServer((_request, response) => {
  response.writeHead(302, { location: 'https://example.com/a/very/long/path?x=1', 'cache-control': 'no-store' });
  response.end();
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
