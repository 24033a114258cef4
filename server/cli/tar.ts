// A small tar (POSIX ustar, with a pax record for names longer than 100 bytes) for the backup
// archive: any `tar -tf` lists it and `tar -xf` unpacks it. Only regular files, streamed in
// both directions, so a database of gigabytes never sits in memory.
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';

const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mtime: number, type: '0' | 'x'): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o644, 8), 100);
  block.write(octal(0, 8), 108); // uid
  block.write(octal(0, 8), 116); // gid
  block.write(octal(size, 12), 124);
  block.write(octal(Math.floor(mtime / 1000), 12), 136);
  block.write('        ', 148); // the checksum counts its own field as spaces
  block.write(type, 156);
  block.write('ustar\0', 257);
  block.write('00', 263);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148);
  return block;
}

/** A pax "path" record: its length counts its own digits. */
function paxPath(name: string): Buffer {
  const rest = ` path=${name}\n`;
  const bytes = Buffer.byteLength(rest);
  let length = bytes + String(bytes).length;
  if (String(length).length !== String(bytes).length) length = bytes + String(length).length;
  return Buffer.from(`${length}${rest}`);
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

export interface TarWriter {
  /** Appends the file at `source` under `name` (forward slashes); resolves once it is written. */
  addFile(name: string, source: string): Promise<void>;
  /** Writes the end of the archive and flushes it to disk. */
  finish(): Promise<void>;
}

async function write(out: WriteStream, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

export function createTar(file: string): TarWriter {
  // A backup holds the whole database: readable by its owner only.
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const failed = once(out, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => undefined);
  return {
    async addFile(name, source) {
      // Opened before anything is written: a file removed meanwhile fails here, leaving the archive whole.
      const input = await open(source, 'r');
      try {
        const info = await input.stat();
        if (Buffer.byteLength(name) > 100) {
          const record = paxPath(name);
          await write(out, header('PaxHeader', record.length, info.mtimeMs, 'x'));
          await write(out, Buffer.concat([record, padding(record.length)]));
        }
        await write(out, header(name, info.size, info.mtimeMs, '0'));
        // Exactly the size announced in the header, even if the file grows meanwhile.
        const chunk = Buffer.alloc(1 << 20);
        for (let done = 0; done < info.size; ) {
          const { bytesRead } = await input.read(chunk, 0, Math.min(chunk.length, info.size - done), done);
          if (bytesRead === 0) throw new Error(`${source} shrank while being archived`);
          await write(out, Buffer.from(chunk.subarray(0, bytesRead)));
          done += bytesRead;
        }
        await write(out, padding(info.size));
      } finally {
        await input.close();
      }
    },
    async finish() {
      out.end(Buffer.alloc(BLOCK * 2));
      await Promise.race([once(out, 'finish'), failed]);
      const handle = await open(file, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
  };
}

function field(block: Buffer, start: number, length: number): string {
  const text = block.toString('utf8', start, start + length);
  const end = text.indexOf('\0');
  return end === -1 ? text : text.slice(0, end);
}

export class TarFormatError extends Error {}

/**
 * Every regular file of the archive, as (name, a function copying it to a path). Names are
 * checked by the caller; this only refuses what is not a tar.
 */
export async function* readTar(
  file: string,
): AsyncGenerator<{ name: string; size: number; extractTo(target: string): Promise<void> }> {
  const handle = await open(file, 'r');
  try {
    const block = Buffer.alloc(BLOCK);
    let offset = 0;
    let longName: string | undefined;
    for (;;) {
      const { bytesRead } = await handle.read(block, 0, BLOCK, offset);
      if (bytesRead < BLOCK) throw new TarFormatError('el archivo está incompleto');
      if (block.every((byte) => byte === 0)) return;
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
      if (sum !== parseInt(field(block, 148, 8).trim(), 8)) throw new TarFormatError('no es un archivo tar de Corto');
      const size = parseInt(field(block, 124, 12).trim() || '0', 8);
      const type = field(block, 156, 1) || '0';
      const prefix = field(block, 345, 155);
      const start = offset + BLOCK;
      offset = start + size + padding(size).length;
      if (type === 'x') {
        const record = Buffer.alloc(size);
        await handle.read(record, 0, size, start);
        longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(record.toString('utf8'))?.[1];
        continue;
      }
      const name = longName ?? (prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100));
      longName = undefined;
      if (type !== '0') continue; // folders and anything else: only files are restored
      yield {
        name,
        size,
        async extractTo(target) {
          await mkdir(path.dirname(target), { recursive: true });
          const out = await open(target, 'wx', 0o600);
          try {
            const chunk = Buffer.alloc(1 << 20);
            for (let done = 0; done < size; ) {
              const { bytesRead: got } = await handle.read(chunk, 0, Math.min(chunk.length, size - done), start + done);
              if (got === 0) throw new TarFormatError('el archivo está incompleto');
              await out.write(chunk, 0, got);
              done += got;
            }
            await out.sync();
          } finally {
            await out.close();
          }
        },
      };
    }
  } finally {
    await handle.close();
  }
}
