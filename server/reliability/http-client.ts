import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method: string;
  /** Sent exactly as written: no normalising of '..', '%' or unicode. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One request over a real socket to 127.0.0.1, byte for byte as given (fetch would tidy the path
 * and the headers). A server that cuts the connection rejects, which a test reports as a failure.
 */
export function send(port: number, { method, path, headers = {}, body }: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path, headers: { connection: 'close', ...headers }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
