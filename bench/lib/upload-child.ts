// Posts files in a process of its own (import.bench.ts starts it): in the bench's process, sending
// 10 MB bodies would run on the event loop the bench measures as the server's, and count the
// client's work as the server's stalls. Arguments: the URL, then a JSON file listing the requests
// ({ headers, file }: the file holds the body). It reads every body, prints "ready", and posts them
// one after another once a line arrives on stdin, so that its start (a process, TypeScript compiled,
// files read) falls before the window the bench measures. Then it prints each answer's status and,
// for the first, its body, as one JSON line.
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';

const [url, manifest] = process.argv.slice(2);
const listed = JSON.parse(await readFile(manifest!, 'utf8')) as { headers: Record<string, string>; file: string }[];
const requests = await Promise.all(listed.map(async ({ headers, file }) => ({ headers, body: await readFile(file) })));
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
process.stdout.write('ready\n');
await lines.next();

const statuses: number[] = [];
let firstBody: unknown = null;
const started = performance.now();
for (const { headers, body } of requests) {
  const response = await fetch(url!, { method: 'POST', headers, body });
  statuses.push(response.status);
  const text = await response.text();
  if (statuses.length === 1) firstBody = JSON.parse(text) as unknown;
}
process.stdout.write(`${JSON.stringify({ statuses, firstBody, ms: performance.now() - started })}\n`);
process.exit(0);
