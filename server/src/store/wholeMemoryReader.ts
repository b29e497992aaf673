import type { Anchor, Memory } from '../memory/types';
import type { CandidateRow } from './candidateRows';
import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import { ANCHOR_COLUMNS, anchorFrom, MEMORY_COLUMNS, memoryFrom, prepareMemorySelect, rowToMemory, type AnchorColumns, type MemoryColumns, type MemoryRow } from './memoryRows';

/**
 * Reads whole memories by rowid. Where the memory's scoring row is at hand (the memory server
 * keeps every one), its tags come from there and its anchor is read only if it has one: a
 * recall's top ten cost ~0.3 ms with the tag subqueries and anchor join for each, about half
 * without (random rows of a large database, each a few page reads).
 */
export class WholeMemoryReader {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = lazyStatements({
      one: () => prepareMemorySelect(db, 'WHERE m.rowid = ?'),
      list: () => prepareMemorySelect(db, 'WHERE m.rowid IN (SELECT value FROM json_each(?))'),
      columns: () => db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.rowid IN (SELECT value FROM json_each(?))`).raw(),
      anchor: () => db.prepare(`SELECT ${ANCHOR_COLUMNS} FROM anchors a WHERE a.memory_rowid = ?`).raw(),
    });
  }

  /** Memories for these rowids by rowid (unknown ones left out), in no particular order. */
  read(rowids: readonly number[], scoringRow: (rowid: number) => CandidateRow | undefined): [number, Memory][] {
    if (!rowids.length) return [];
    const known: CandidateRow[] = [];
    const unknown: number[] = [];
    for (const rowid of rowids) {
      const row = scoringRow(rowid);
      if (row) known.push(row);
      else unknown.push(rowid);
    }
    const memories: [number, Memory][] = unknown.length === 1 ? this.one(unknown[0]!) : unknown.length ? (this.statements.list.all(JSON.stringify(unknown)) as MemoryRow[]).map((row) => [row[0], rowToMemory(row)]) : [];
    if (known.length) {
      const byRowid = new Map(known.map((row) => [row.rowid, row]));
      for (const columns of this.statements.columns.all(JSON.stringify(known.map((row) => row.rowid))) as MemoryColumns[]) {
        const row = byRowid.get(columns[0])!;
        // A scoring row read at another generation would not match: read that memory whole.
        if (row.id !== columns[1] || row.updatedAt !== columns[10]) memories.push(...this.one(columns[0]));
        else memories.push([columns[0], this.withTags(columns, row)]);
      }
    }
    return memories;
  }

  private one(rowid: number): [number, Memory][] {
    const row = this.statements.one.get(rowid) as MemoryRow | undefined;
    return row ? [[rowid, rowToMemory(row)]] : [];
  }

  private withTags(columns: MemoryColumns, row: CandidateRow): Memory {
    // Copies: callers may sort or extend what they get, and the scoring row is shared.
    return memoryFrom(columns, [...row.files], [...row.symbols], row.anchor ? this.anchor(columns[0]) : null);
  }

  private anchor(rowid: number): Anchor | null {
    const a = this.statements.anchor.get(rowid) as AnchorColumns | undefined;
    return a ? anchorFrom(a) : null;
  }
}
