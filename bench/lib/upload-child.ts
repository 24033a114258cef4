// Posts files in a process of its own (import.bench.ts starts it): in the bench's process, sending
// 10 MB bodies would run on the event loop the bench measures as the server's, and count the
// client's work as the server's stalls. Arguments: the URL, then a JSON file listing the requests
// ({ headers, file }: the file holds the body), posted one after another. Prints each answer's
// status and, for the first, its body, as one JSON line.
import { readFile } from 'node:fs/promises';

const [url, manifest] = process.argv.slice(2);
const requests = JSON.parse(await readFile(manifest!, 'utf8')) as { headers: Record<string, string>; file: string }[];
const statuses: number[] = [];
let firstBody: unknown = null;
const started = performance.now();
for (const { headers, file } of requests) {
  const response = await fetch(url!, { method: 'POST', headers, body: await readFile(file) });
  statuses.push(response.status);
  const text = await response.text();
  if (statuses.length === 1) firstBody = JSON.parse(text) as unknown;
}
process.stdout.write(JSON.stringify({ statuses, firstBody, ms: performance.now() - started }));
