import type { Visit } from './enrich';

// Queued visits packed into shared memory instead of one object (and three strings) each. A visit
// waits a flush or two, long enough for objects to be promoted to V8's old generation, where they
// piled up until a full collection: tens of MB on the main thread under load. Packed, they cost the
// heap nothing, and the writer's thread reads the same memory as it is, without a copy.

const LIMITED = 1;
const SCAN = 2;
const HAS_USER_AGENT = 4;
const HAS_REFERRER = 8;
const HAS_DESTINATION = 16;
const STRINGS_PER_VISIT = 3; // ip, User-Agent, referrer
const TEXT_BYTES_PER_VISIT = 256; // the first guess; the text grows when visits bring longer strings

/** A batch as it crosses to the writer's thread: shared memory, and two numbers copied. */
export interface PackedVisits {
  count: number;
  capacity: number;
  /** urlId and at (float64 each), then the strings' ends (uint32, three per visit), then flags. */
  fixed: SharedArrayBuffer;
  /** The strings, UTF-8, one after another. */
  text: SharedArrayBuffer;
  /**
   * Visit.destinationId (float64, like urlId), read only where a visit's flag says it has one.
   * Made on the first such visit: a batch of plain links' visits never has it.
   */
  destinations?: SharedArrayBuffer;
}

function views(capacity: number, fixed: SharedArrayBuffer, text: SharedArrayBuffer) {
  return {
    urlIds: new Float64Array(fixed, 0, capacity),
    at: new Float64Array(fixed, 8 * capacity, capacity),
    ends: new Uint32Array(fixed, 16 * capacity, STRINGS_PER_VISIT * capacity),
    flags: new Uint8Array(fixed, (16 + 4 * STRINGS_PER_VISIT) * capacity, capacity),
    text: Buffer.from(text),
  };
}

const fixedBytes = (capacity: number) => (16 + 4 * STRINGS_PER_VISIT + 1) * capacity;

/** Up to `capacity` visits, appended in order; reused once written (see VisitBatchPool). */
export class VisitBatch {
  count = 0;
  private textUsed = 0;
  private readonly fixed: SharedArrayBuffer;
  private textMemory: SharedArrayBuffer;
  private view: ReturnType<typeof views>;
  private destinations: Float64Array | undefined;

  constructor(readonly capacity: number) {
    this.fixed = new SharedArrayBuffer(fixedBytes(capacity));
    this.textMemory = new SharedArrayBuffer(TEXT_BYTES_PER_VISIT * capacity);
    this.view = views(capacity, this.fixed, this.textMemory);
  }

  get full(): boolean {
    return this.count === this.capacity;
  }

  /** When the first visit still here was made (ms since the epoch), if any. */
  get oldestAt(): number | undefined {
    return this.count > 0 ? this.view.at[0] : undefined;
  }

  /** Adds a visit at the end; the caller checks `full` first. */
  append(visit: Visit): void {
    const { urlIds, at, ends, flags } = this.view;
    const i = this.count;
    urlIds[i] = visit.urlId;
    at[i] = visit.at;
    const end = STRINGS_PER_VISIT * i;
    ends[end] = this.write(visit.ip);
    ends[end + 1] = visit.userAgent === undefined ? this.textUsed : this.write(visit.userAgent);
    ends[end + 2] = visit.referrer === undefined ? this.textUsed : this.write(visit.referrer);
    flags[i] =
      (visit.limited ? LIMITED : 0) |
      (visit.scan ? SCAN : 0) |
      (visit.userAgent === undefined ? 0 : HAS_USER_AGENT) |
      (visit.referrer === undefined ? 0 : HAS_REFERRER) |
      (visit.destinationId === undefined ? 0 : HAS_DESTINATION);
    if (visit.destinationId !== undefined) {
      this.destinations ??= new Float64Array(new SharedArrayBuffer(8 * this.capacity));
      this.destinations[i] = visit.destinationId;
    }
    this.count = i + 1;
  }

  /** The visits from `start` up to `end`, as a batch of their own (a batch the database refused, halved). */
  slice(start: number, end: number): VisitBatch {
    const part = new VisitBatch(Math.max(1, end - start));
    for (const visit of unpackVisits(this.packed(), start, end)) part.append(visit);
    return part;
  }

  visits(): Visit[] {
    return unpackVisits(this.packed());
  }

  /** The visits of the links `wanted` picks, as objects; the others stay packed (a scan of their ids). */
  visitsOf(wanted: (urlId: number) => boolean): Visit[] {
    const picked: Visit[] = [];
    const { urlIds } = this.view;
    for (let i = 0; i < this.count; i++) if (wanted(urlIds[i]!)) picked.push(unpackVisits(this.packed(), i, i + 1)[0]!);
    return picked;
  }

  packed(): PackedVisits {
    const packed: PackedVisits = { count: this.count, capacity: this.capacity, fixed: this.fixed, text: this.textMemory };
    if (this.destinations) packed.destinations = this.destinations.buffer as SharedArrayBuffer;
    return packed;
  }

  /** Empties it for reuse: its memory is kept (and so are the text grown for long strings and the destinations). */
  clear(): void {
    this.count = 0;
    this.textUsed = 0;
  }

  private write(value: string): number {
    // UTF-8 takes at most three bytes per UTF-16 unit.
    if (this.textUsed + 3 * value.length > this.textMemory.byteLength) this.growText(this.textUsed + 3 * value.length);
    this.textUsed += this.view.text.write(value, this.textUsed, 'utf8');
    return this.textUsed;
  }

  private growText(needed: number): void {
    const grown = new SharedArrayBuffer(Math.max(needed, 2 * this.textMemory.byteLength));
    new Uint8Array(grown).set(new Uint8Array(this.textMemory, 0, this.textUsed));
    this.textMemory = grown;
    this.view = views(this.capacity, this.fixed, grown);
  }
}

/**
 * The visits of a packed batch (those from `first` up to `end`), as objects again: on the writer's
 * thread just before enriching them, or for a part of a batch the database refused.
 */
export function unpackVisits({ count, capacity, fixed, text, destinations }: PackedVisits, first = 0, end = count): Visit[] {
  const { urlIds, at, ends, flags, text: bytes } = views(capacity, fixed, text);
  const destinationIds = destinations && new Float64Array(destinations, 0, capacity);
  const visits: Visit[] = new Array(end - first);
  let ended = STRINGS_PER_VISIT * first;
  // Each string starts where the one before it ended.
  let start = ended > 0 ? ends[ended - 1]! : 0;
  const next = () => {
    const stringEnd = ends[ended++]!;
    const value = bytes.toString('utf8', start, stringEnd);
    start = stringEnd;
    return value;
  };
  for (let i = first; i < end; i++) {
    const flag = flags[i]!;
    const ip = next();
    const userAgent = next();
    const referrer = next();
    const visit: Visit = {
      urlId: urlIds[i]!,
      at: at[i]!,
      ip,
      userAgent: flag & HAS_USER_AGENT ? userAgent : undefined,
      referrer: flag & HAS_REFERRER ? referrer : undefined,
    };
    if (flag & LIMITED) visit.limited = true;
    if (flag & SCAN) visit.scan = true;
    if (flag & HAS_DESTINATION) visit.destinationId = destinationIds![i]!;
    visits[i - first] = visit;
  }
  return visits;
}

/**
 * Batches written go back here to be filled again: a batch's memory lives for the whole run
 * instead of a new one every few thousand redirects, each freed only when V8 gets round to it.
 */
export class VisitBatchPool {
  private free: VisitBatch[] = [];

  constructor(
    private readonly capacity: number,
    private readonly kept: number,
  ) {}

  take(): VisitBatch {
    return this.free.pop() ?? new VisitBatch(this.capacity);
  }

  give(batch: VisitBatch): void {
    if (batch.capacity !== this.capacity || this.free.length >= this.kept) return;
    batch.clear();
    this.free.push(batch);
  }
}
