import type { MemoryId } from '../memory/types';
import type { CandidateRow } from './candidateRows';

/** Values by rowid, as a resident store keeps one per memory. */
export interface RowidMap<V> {
  get(rowid: number): V | undefined;
  set(rowid: number, value: V): void;
  delete(rowid: number): void;
  clear(): void;
}

/** Rowids above this go to a Map: columns that long would be mostly holes. */
const MAX_DENSE_ROWID = 1 << 24;
/** A column's first length; it doubles as rowids grow. */
const FIRST_CAPACITY = 1024;
/** Pools are packed again once this much of them is left over from changed rows, and more than is in use. */
const GARBAGE_MIN = 1 << 16;
const EMPTY: readonly string[] = Object.freeze([]);
/** The per-row columns, each as long as `capacity`. */
const COLUMNS = ['kind', 'pin', 'status', 'importance', 'updatedAt', 'soleFile', 'soleFolder', 'listStart', 'fileCount', 'symbolCount', 'idStart', 'idLength'] as const;

type Column = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/** A column of another length, with the values of the old one that fit. */
function resized<T extends Column>(column: T, length: number): T {
  const next = new (column.constructor as new (length: number) => T)(length);
  next.set(column.subarray(0, Math.min(length, column.length)) as ArrayLike<number> as never);
  return next;
}

function isMostlyGarbage(used: number, garbage: number): boolean {
  return garbage > GARBAGE_MIN && garbage > used - garbage;
}

/** Codes for the few values of a column (kinds, pins, statuses): 1 and up, 0 is no row. */
class Codes<T extends string> {
  private readonly values: T[] = [];
  private readonly codes = new Map<string, number>();

  /** The value's code, or 0 when a byte cannot hold another. */
  code(value: T): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      if (this.values.length >= 255) return 0;
      this.values.push(value);
      this.codes.set(value, (code = this.values.length));
    }
    return code;
  }

  value(code: number): T {
    return this.values[code - 1]!;
  }
}

/** A number for each path and symbol, and the string again from it. */
class StringIds {
  private readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      this.strings.push(value);
      this.ids.set(value, (id = this.strings.length - 1));
    }
    return id;
  }

  string(id: number): string {
    return this.strings[id]!;
  }
}

/**
 * A row as the columns held it when asked for. Its tags and id are read from the pools when first
 * used (scoring reads a tag list for few candidates, the id for the ten it keeps): the pools are
 * only ever appended to, or replaced whole, so what this row points at never changes.
 */
class PackedRow implements CandidateRow {
  private filesRead: readonly string[] | undefined;
  private symbolsRead: readonly string[] | undefined;
  private idRead: MemoryId | undefined;

  constructor(
    readonly rowid: number,
    readonly kind: CandidateRow['kind'],
    readonly pin: CandidateRow['pin'],
    readonly status: CandidateRow['status'],
    readonly importance: number,
    readonly updatedAt: number,
    readonly anchor: CandidateRow['anchor'],
    readonly glob: string | null,
    readonly soleFile: number,
    readonly soleFolder: number,
    private readonly strings: StringIds,
    private readonly lists: Int32Array,
    private readonly listStart: number,
    private readonly fileCount: number,
    private readonly symbolCount: number,
    private readonly ids: Buffer,
    private readonly idStart: number,
    private readonly idLength: number,
  ) {}

  get id(): MemoryId {
    return (this.idRead ??= this.ids.toString('latin1', this.idStart, this.idStart + this.idLength) as MemoryId);
  }

  get files(): readonly string[] {
    return (this.filesRead ??= this.list(this.listStart, this.fileCount));
  }

  get symbols(): readonly string[] {
    return (this.symbolsRead ??= this.list(this.listStart + this.fileCount, this.symbolCount));
  }

  private list(start: number, count: number): readonly string[] {
    if (count === 0) return EMPTY;
    const list = new Array<string>(count);
    for (let i = 0; i < count; i++) list[i] = this.strings.string(this.lists[start + i]!);
    return list;
  }
}

/** A memory id of at most 255 ASCII characters (every id Engram writes), which a byte per character holds. */
function packableId(id: string): boolean {
  if (id.length > 255) return false;
  for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) > 127) return false;
  return true;
}

/**
 * Every memory's scoring row in typed columns indexed by rowid, for the memory server of a store
 * it keeps whole: ~70 bytes a memory outside the JS heap (~115 with the columns' room to grow),
 * where objects took ~330 bytes inside it (~31 MB of the server's RSS at 100,000 memories, and
 * work for every full collection). A row is given out as a PackedRow, its strings shared.
 *
 * Rows these columns cannot hold (a rowid past MAX_DENSE_ROWID, a 256th kind, a long or
 * non-ASCII id, more than 65,535 files or symbols) are kept as they are given.
 */
export class PackedCandidateRows implements RowidMap<CandidateRow> {
  private capacity = 0;
  private kind = new Uint8Array(0);
  private pin = new Uint8Array(0);
  private status = new Uint8Array(0);
  private importance = new Float64Array(0);
  private updatedAt = new Float64Array(0);
  private soleFile = new Int32Array(0);
  private soleFolder = new Int32Array(0);
  /** Where the row's files and then its symbols start in `lists`, and how many of each. */
  private listStart = new Uint32Array(0);
  private fileCount = new Uint16Array(0);
  private symbolCount = new Uint16Array(0);
  private idStart = new Uint32Array(0);
  private idLength = new Uint8Array(0);

  private lists = new Int32Array(FIRST_CAPACITY);
  private listsUsed = 0;
  private listsGarbage = 0;
  private ids = Buffer.alloc(FIRST_CAPACITY * 32);
  private idsUsed = 0;
  private idsGarbage = 0;

  private kinds = new Codes<CandidateRow['kind']>();
  private pins = new Codes<CandidateRow['pin']>();
  private statuses = new Codes<CandidateRow['status']>();
  private strings = new StringIds();
  private readonly anchors = new Map<number, NonNullable<CandidateRow['anchor']>>();
  private readonly globs = new Map<number, string>();
  private readonly unpacked = new Map<number, CandidateRow>();

  get(rowid: number): CandidateRow | undefined {
    // Never read past the end: V8 deoptimizes on such reads.
    if (rowid >= 0 && rowid < this.capacity) {
      const kind = this.kind[rowid]!;
      if (kind !== 0) return this.row(rowid, kind);
    }
    return this.unpacked.size ? this.unpacked.get(rowid) : undefined;
  }

  set(rowid: number, row: CandidateRow): void {
    this.delete(rowid);
    const kind = this.kinds.code(row.kind);
    const pin = this.pins.code(row.pin);
    const status = this.statuses.code(row.status);
    const fits = Number.isInteger(rowid) && rowid >= 0 && rowid < MAX_DENSE_ROWID && kind && pin && status && packableId(row.id) && row.files.length <= 0xffff && row.symbols.length <= 0xffff;
    if (!fits) {
      this.unpacked.set(rowid, row);
      return;
    }
    if (rowid >= this.capacity) this.grow(rowid + 1);
    this.kind[rowid] = kind;
    this.pin[rowid] = pin;
    this.status[rowid] = status;
    this.importance[rowid] = row.importance;
    this.updatedAt[rowid] = row.updatedAt;
    this.soleFile[rowid] = row.soleFile;
    this.soleFolder[rowid] = row.soleFolder;
    this.listStart[rowid] = this.appendList(row.files, row.symbols);
    this.fileCount[rowid] = row.files.length;
    this.symbolCount[rowid] = row.symbols.length;
    this.idStart[rowid] = this.appendId(row.id);
    this.idLength[rowid] = row.id.length;
    if (row.anchor) this.anchors.set(rowid, row.anchor);
    if (row.glob !== null) this.globs.set(rowid, row.glob);
  }

  delete(rowid: number): void {
    if (rowid >= 0 && rowid < this.capacity && this.kind[rowid] !== 0) {
      this.kind[rowid] = 0;
      this.listsGarbage += this.fileCount[rowid]! + this.symbolCount[rowid]!;
      this.idsGarbage += this.idLength[rowid]!;
      this.anchors.delete(rowid);
      this.globs.delete(rowid);
      if (isMostlyGarbage(this.listsUsed, this.listsGarbage) || isMostlyGarbage(this.idsUsed, this.idsGarbage)) this.repack();
    } else this.unpacked.delete(rowid);
  }

  clear(): void {
    this.capacity = 0;
    // New arrays, not empty views of the old ones: a view would keep the old buffer.
    for (const column of COLUMNS) this[column] = resized(this[column], 0) as never;
    this.lists = new Int32Array(FIRST_CAPACITY);
    this.listsUsed = this.listsGarbage = 0;
    this.ids = Buffer.alloc(FIRST_CAPACITY * 32);
    this.idsUsed = this.idsGarbage = 0;
    this.kinds = new Codes();
    this.pins = new Codes();
    this.statuses = new Codes();
    this.strings = new StringIds();
    this.anchors.clear();
    this.globs.clear();
    this.unpacked.clear();
  }

  private row(rowid: number, kind: number): CandidateRow {
    return new PackedRow(
      rowid,
      this.kinds.value(kind),
      this.pins.value(this.pin[rowid]!),
      this.statuses.value(this.status[rowid]!),
      this.importance[rowid]!,
      this.updatedAt[rowid]!,
      this.anchors.size ? (this.anchors.get(rowid) ?? null) : null,
      this.globs.size ? (this.globs.get(rowid) ?? null) : null,
      this.soleFile[rowid]!,
      this.soleFolder[rowid]!,
      this.strings,
      this.lists,
      this.listStart[rowid]!,
      this.fileCount[rowid]!,
      this.symbolCount[rowid]!,
      this.ids,
      this.idStart[rowid]!,
      this.idLength[rowid]!,
    );
  }

  private appendList(files: readonly string[], symbols: readonly string[]): number {
    const start = this.listsUsed;
    const needed = start + files.length + symbols.length;
    if (needed > this.lists.length) {
      const lists = new Int32Array(Math.max(needed, this.lists.length * 2));
      lists.set(this.lists.subarray(0, start));
      this.lists = lists;
    }
    let at = start;
    for (const file of files) this.lists[at++] = this.strings.id(file);
    for (const symbol of symbols) this.lists[at++] = this.strings.id(symbol);
    this.listsUsed = at;
    return start;
  }

  private appendId(id: string): number {
    const start = this.idsUsed;
    if (start + id.length > this.ids.length) {
      const ids = Buffer.alloc(Math.max(start + id.length, this.ids.length * 2));
      this.ids.copy(ids, 0, 0, start);
      this.ids = ids;
    }
    this.idsUsed += this.ids.write(id, start, 'latin1');
    return start;
  }

  private grow(length: number): void {
    let capacity = Math.max(FIRST_CAPACITY, this.capacity);
    while (capacity < length) capacity *= 2;
    capacity = Math.min(capacity, MAX_DENSE_ROWID);
    for (const column of COLUMNS) this[column] = resized(this[column], capacity) as never;
    this.capacity = capacity;
  }

  /** Copies the rows' lists and ids into new pools, leaving out what changed rows left behind. */
  private repack(): void {
    const lists = new Int32Array(Math.max(FIRST_CAPACITY, this.listsUsed - this.listsGarbage));
    const ids = Buffer.alloc(Math.max(FIRST_CAPACITY, this.idsUsed - this.idsGarbage));
    let listsAt = 0;
    let idsAt = 0;
    for (let rowid = 0; rowid < this.capacity; rowid++) {
      if (this.kind[rowid] === 0) continue;
      const count = this.fileCount[rowid]! + this.symbolCount[rowid]!;
      const start = this.listStart[rowid]!;
      lists.set(this.lists.subarray(start, start + count), listsAt);
      this.listStart[rowid] = listsAt;
      listsAt += count;
      const idStart = this.idStart[rowid]!;
      const idLength = this.idLength[rowid]!;
      this.ids.copy(ids, idsAt, idStart, idStart + idLength);
      this.idStart[rowid] = idsAt;
      idsAt += idLength;
    }
    this.lists = lists;
    this.listsUsed = listsAt;
    this.listsGarbage = 0;
    this.ids = ids;
    this.idsUsed = idsAt;
    this.idsGarbage = 0;
  }
}
