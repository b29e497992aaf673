import type { MemoryId } from '../memory/types';
import type { SqliteDatabase } from './database';
import { bestFirst } from '../util/bestFirst';
import { GenerationMap } from './generationMap';
import { lazyStatements } from './lazyStatements';
import { isListedState, type ListingLookup, type ListingStates } from './listingStates';

/** A file's memories as CodeLens counts them at the top of the file (MemoryStore.fileMemoryTally). */
export interface FileMemoryTally {
  readonly total: number;
  /** The newest memories' ids (last changed first). */
  readonly recentIds: readonly MemoryId[];
}

/** Of the symbols asked about, those with memories in the file: how many, and the newest ids. */
export type SymbolMemoryTally = ReadonlyMap<string, { readonly count: number; readonly ids: readonly MemoryId[] }>;

/** Files whose memory rowids are kept: the few a user has open. */
const FILES_KEPT = 16;

/**
 * Tallies of a file's active memories, constraints aside: how many in all and per symbol, and
 * the newest of each. The memory server knows each memory's state from ListingStates; a process
 * without them reads the states of the file's memories.
 *
 * With `generation` (the memory server), a file's memory rowids are kept until a memory changes:
 * a CodeLens tallies the file, then its declarations, and the busiest file of 1,000,000 memories
 * has ~27,000 (~3–5 ms to read).
 */
export class FileMemoryTallies {
  private readonly statements;
  private readonly fileRowidsKept = new GenerationMap<string, readonly number[]>(FILES_KEPT);

  constructor(
    private readonly db: SqliteDatabase,
    private readonly states: ListingStates | null,
    private readonly generation?: () => number,
  ) {
    this.statements = lazyStatements({
      fileRowids: () => db.prepare('SELECT memory_rowid FROM memory_files WHERE path = ?').pluck(),
      symbolRowids: () => db.prepare('SELECT memory_rowid FROM memory_symbols WHERE symbol = ?').pluck(),
      states: () => db.prepare('SELECT rowid, kind, status, updated_at FROM memories WHERE rowid IN (SELECT value FROM json_each(?))').raw(),
      ids: () => db.prepare('SELECT rowid, id FROM memories WHERE rowid IN (SELECT value FROM json_each(?))').raw(),
    });
  }

  /** `path`'s memories: how many, and the ids of the newest `maxIds`. */
  file(path: string, maxIds: number): FileMemoryTally {
    return this.atOneRead(() => {
      const { listed, newest } = this.listedOf(path);
      const recent = newest(listed, maxIds);
      const ids = this.idsOf(recent);
      return { total: listed.length, recentIds: recent.map((rowid) => ids.get(rowid)!) };
    });
  }

  /** For each of `symbols` with memories in `path`: how many, and the ids of the newest `maxIds`. */
  symbols(path: string, symbols: readonly string[], maxIds: number): SymbolMemoryTally {
    return this.atOneRead(() => {
      const { listed, newest } = this.listedOf(path);
      const found: { symbol: string; count: number; rowids: number[] }[] = [];
      if (listed.length) {
        const inFile = new Set(listed);
        for (const symbol of new Set(symbols)) {
          const mine = (this.statements.symbolRowids.all(symbol) as number[]).filter((rowid) => inFile.has(rowid));
          if (mine.length) found.push({ symbol, count: mine.length, rowids: newest(mine, maxIds) });
        }
      }
      const ids = this.idsOf([...new Set(found.flatMap((s) => s.rowids))]);
      return new Map(found.map((s) => [s.symbol, { count: s.count, ids: s.rowids.map((rowid) => ids.get(rowid)!) }]));
    });
  }

  /** One read transaction: another process's write between the reads cannot leave an id missing. */
  private atOneRead<T>(read: () => T): T {
    return this.db.transaction(read)();
  }

  /** The file's listed memories, and how to take the newest of some (last changed first). */
  private listedOf(path: string): { listed: readonly number[]; newest: (rowids: readonly number[], max: number) => number[] } {
    const inFile = this.fileRowids(path);
    const lookup = this.states?.read() ?? this.readStates(inFile);
    return {
      listed: inFile.filter(lookup.isListed),
      newest: (rowids, max) => {
        // CodeLens counts (max 0); only a click asks for ids.
        if (max <= 0) return [];
        const times = new Float64Array(rowids.length);
        for (let i = 0; i < rowids.length; i++) times[i] = lookup.updatedAt(rowids[i]!);
        // Last changed, then last added, first.
        const after = (a: number, b: number) => times[a]! < times[b]! || (times[a] === times[b] && rowids[a]! < rowids[b]!);
        return Array.from(bestFirst(rowids.length, max, after), (i) => rowids[i]!);
      },
    };
  }

  /** Read in the tally's transaction, as is the generation: the rowids kept are those of the generation read. */
  private fileRowids(path: string): readonly number[] {
    const read = () => this.statements.fileRowids.all(path) as number[];
    if (!this.generation) return read();
    this.fileRowidsKept.sync(this.generation());
    return this.fileRowidsKept.getOrCompute(path, read);
  }

  private readStates(rowids: readonly number[]): ListingLookup {
    const states = new Map<number, number>();
    for (const [rowid, kind, status, updatedAt] of this.statements.states.all(JSON.stringify(rowids)) as [number, string, string, number][]) {
      if (isListedState(kind, status)) states.set(rowid, updatedAt);
    }
    return { isListed: (rowid) => states.has(rowid), updatedAt: (rowid) => states.get(rowid) ?? 0 };
  }

  private idsOf(rowids: readonly number[]): Map<number, MemoryId> {
    if (!rowids.length) return new Map();
    return new Map(this.statements.ids.all(JSON.stringify(rowids)) as [number, MemoryId][]);
  }
}
