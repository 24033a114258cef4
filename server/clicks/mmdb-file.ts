// An IP database in MaxMind's MMDB format, looked up from the file instead of from memory.
//
// maxmind.open() reads the whole file into a Buffer: DB-IP's city files are 63 MB (IPv4) and
// 71 MB (IPv6), so 130 MB of every server's memory went to them. A lookup only ever touches one
// path down the search tree (at most 32 or 128 nodes of 6 to 8 bytes) and one record, so here the
// file is read by 4 kB pages through a small cache (the tree's top levels stay in it): a few MB
// of memory, the rest left to the kernel's page cache, shared and reclaimable. The format is
// MaxMind DB 2.0 (https://maxmind.github.io/MaxMind-DB/), read as mmdb-lib (behind maxmind) reads
// it: the tests compare both readers' answers address by address.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import ipaddr from 'ipaddr.js';

const PAGE = 4096;
const METADATA_MARKER = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex'); // \xAB\xCD\xEFMaxMind.com
const METADATA_MAX = 128 * 1024;
const DATA_SECTION_SEPARATOR = 16;

/**
 * A file read by pages into a direct-mapped cache: page i lives in slot i % slots, replaced by
 * the next page that maps there. No bookkeeping on a hit, which is what nearly every read is.
 */
class PagedFile {
  private readonly tags: Int32Array;
  private readonly slots: Array<Buffer | undefined>;
  /** Pages read from the file so far. */
  misses = 0;
  constructor(
    private readonly fd: number,
    readonly size: number,
    slots: number,
  ) {
    this.tags = new Int32Array(slots).fill(-1);
    this.slots = new Array<Buffer | undefined>(slots);
  }

  private page(index: number): Buffer {
    const slot = index % this.tags.length;
    if (this.tags[slot] === index) return this.slots[slot]!;
    const reused = this.slots[slot];
    const page = reused?.length === PAGE ? reused : Buffer.allocUnsafeSlow(PAGE);
    const read = readSync(this.fd, page, 0, PAGE, index * PAGE);
    this.misses += 1;
    const whole = read < PAGE ? Buffer.from(page.subarray(0, read)) : page;
    this.slots[slot] = whole;
    this.tags[slot] = index;
    return whole;
  }

  byte(offset: number): number {
    const value = this.page(Math.floor(offset / PAGE))[offset % PAGE];
    if (value === undefined) throw new Error(`IP database: offset ${offset} is past the end of the file`);
    return value;
  }

  /** `length` bytes from `offset` (a view into a page when they sit in one, a copy otherwise). */
  bytes(offset: number, length: number): Buffer {
    const first = Math.floor(offset / PAGE);
    const start = offset % PAGE;
    if (start + length <= PAGE) {
      const page = this.page(first);
      if (start + length > page.length) throw new Error(`IP database: offset ${offset} is past the end of the file`);
      return page.subarray(start, start + length);
    }
    const out = Buffer.allocUnsafe(length);
    for (let done = 0; done < length; ) {
      const at = offset + done;
      const page = this.page(Math.floor(at / PAGE));
      const from = at % PAGE;
      const take = Math.min(length - done, page.length - from);
      if (take <= 0) throw new Error(`IP database: offset ${at} is past the end of the file`);
      page.copy(out, done, from, from + take);
      done += take;
    }
    return out;
  }

  uint(offset: number, length: number): number {
    const start = offset % PAGE;
    if (start + length <= PAGE) {
      const page = this.page(Math.floor(offset / PAGE));
      if (start + length <= page.length) {
        let value = 0;
        for (let i = 0; i < length; i++) value = value * 256 + page[start + i]!;
        return value;
      }
    }
    let value = 0;
    for (let i = 0; i < length; i++) value = value * 256 + this.byte(offset + i);
    return value;
  }
}

type Value = string | number | bigint | boolean | Buffer | Value[] | { [key: string]: Value } | null;

const POINTER_BASE = [0, 2048, 526336, 0];

/** The MMDB data section's decoder; `base` is where pointers count from. */
function decoder(file: PagedFile, base: number) {
  const decode = (at: number): [Value, number] => {
    const control = file.byte(at++);
    let type = control >> 5;
    if (type === 1) {
      // A pointer: to a value elsewhere (shared strings, shared records); never to another pointer.
      const size = (control >> 3) & 3;
      const packed = size === 3 ? file.uint(at, 4) : (control & 7) * 2 ** (8 * (size + 1)) + file.uint(at, size + 1);
      const [value] = decode(base + POINTER_BASE[size]! + packed);
      return [value, at + size + 1];
    }
    if (type === 0) type = 7 + file.byte(at++);
    let size = control & 0x1f;
    if (size === 29) size = 29 + file.byte(at++);
    else if (size === 30) {
      size = 285 + file.uint(at, 2);
      at += 2;
    } else if (size === 31) {
      size = 65821 + file.uint(at, 3);
      at += 3;
    }
    switch (type) {
      case 2: // UTF-8 string
        return [file.bytes(at, size).toString('utf8'), at + size];
      case 3: // double
        return [file.bytes(at, 8).readDoubleBE(0), at + 8];
      case 4: // bytes
        return [Buffer.from(file.bytes(at, size)), at + size];
      case 5: // uint16
      case 6: // uint32
        return [file.uint(at, size), at + size];
      case 7: {
        // map
        const map: Record<string, Value> = {};
        for (let i = 0; i < size; i++) {
          const [key, afterKey] = decode(at);
          const [value, afterValue] = decode(afterKey);
          map[String(key)] = value;
          at = afterValue;
        }
        return [map, at];
      }
      case 8: // int32
        return [size < 4 ? file.uint(at, size) : file.bytes(at, 4).readInt32BE(0), at + size];
      case 9: // uint64
      case 10: {
        // uint128
        let value = 0n;
        for (let i = 0; i < size; i++) value = (value << 8n) | BigInt(file.byte(at + i));
        return [value, at + size];
      }
      case 11: {
        // array
        const array: Value[] = [];
        for (let i = 0; i < size; i++) {
          const [value, after] = decode(at);
          array.push(value);
          at = after;
        }
        return [array, at];
      }
      case 14: // boolean: the size is the value
        return [size !== 0, at];
      case 15: // float
        return [file.bytes(at, 4).readFloatBE(0), at + 4];
    }
    throw new Error(`IP database: unknown type ${type} at offset ${at}`);
  };
  return decode;
}

export interface MmdbFile {
  /** The record for `ip` (an IPv4 or IPv6 address), or null when the database has none. */
  get(ip: string): Record<string, Value> | null;
  close(): void;
}

/**
 * Opens `path` for lookups; only its metadata is read now. It keeps at most `maxPages` pages of
 * 4 kB and `maxRecords` decoded records (many addresses share one: a city's). 512 pages (2 MB) look
 * up random addresses over the whole IPv4 space as fast as 2048 did (10.6-13.5 µs of CPU each
 * either way, measured over 180,000 lookups): the tree's top levels fit in either, and below
 * them a random walk misses both.
 */
export function openMmdbFile(path: string, { maxPages = 512, maxRecords = 10_000 } = {}): MmdbFile {
  const fd = openSync(path, 'r');
  try {
    const file = new PagedFile(fd, fstatSync(fd).size, maxPages);
    const tailStart = Math.max(0, file.size - METADATA_MAX);
    const tail = Buffer.from(file.bytes(tailStart, file.size - tailStart));
    const marker = tail.lastIndexOf(METADATA_MARKER);
    if (marker === -1) throw new Error(`${path} is not a MaxMind DB file`);
    const [metadata] = decoder(file, 0)(tailStart + marker + METADATA_MARKER.length) as [Record<string, number>, number];
    const nodeCount = metadata.node_count!;
    const recordSize = metadata.record_size!;
    const ipVersion = metadata.ip_version!;
    if (![24, 28, 32].includes(recordSize)) throw new Error(`${path}: record size ${recordSize} is not supported`);
    const nodeBytes = recordSize / 4;
    const treeSize = nodeBytes * nodeCount;
    const decode = decoder(file, treeSize + DATA_SECTION_SEPARATOR);
    const records = new Map<number, Record<string, Value>>();
    const recordAt = (offset: number): Record<string, Value> => {
      let value = records.get(offset);
      if (value) {
        records.delete(offset);
      } else {
        value = decode(offset)[0] as Record<string, Value>;
        if (records.size >= maxRecords) records.delete(records.keys().next().value!);
      }
      records.set(offset, value);
      return value;
    };

    const record = (node: number, right: boolean): number => {
      const at = node * nodeBytes;
      if (recordSize === 24) return file.uint(right ? at + 3 : at, 3);
      if (recordSize === 32) return file.uint(right ? at + 4 : at, 4);
      // 28 bits: 3 bytes each, and the middle byte's high (left) or low (right) half in front.
      const middle = file.byte(at + 3);
      return right ? (middle & 0x0f) * 2 ** 24 + file.uint(at + 4, 3) : (middle >> 4) * 2 ** 24 + file.uint(at, 3);
    };

    // IPv4 addresses in an IPv6 tree sit under ::/96: walk the 96 zero bits once.
    let ipv4Start = 0;
    if (ipVersion === 6) for (let i = 0; i < 96 && ipv4Start < nodeCount; i++) ipv4Start = record(ipv4Start, false);

    return {
      get(ip) {
        const bytes = ipaddr.parse(ip).toByteArray();
        if (bytes.length === 16 && ipVersion === 4) return null;
        let node = bytes.length === 4 ? ipv4Start : 0;
        for (let depth = 0; depth < bytes.length * 8 && node < nodeCount; depth++) {
          node = record(node, ((bytes[depth >> 3]! >> (7 - (depth & 7))) & 1) === 1);
        }
        if (node <= nodeCount) return null; // nodeCount itself: no record for this address
        return recordAt(node - nodeCount + treeSize);
      },
      close: () => closeSync(fd),
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
