import type { Anchor, Memory, MemoryId } from '../memory/types';
import type { CandidateRow } from './candidateRows';
import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import { rowToMemory, SELECT_MEMORY, type MemoryRow } from './memoryRows';

type ColumnsRow = Omit<MemoryRow, 'files_json' | 'symbols_json' | 'anchor_path' | 'start_line' | 'start_character' | 'end_line' | 'end_character' | 'content_hash' | 'context_before' | 'context_after' | 'stale'>;

interface AnchorRow {
  path: string;
  start_line: number;
  start_character: number;
  end_line: number;
  end_character: number;
  content_hash: string;
  context_before: string;
  context_after: string;
  stale: number;
}

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
      one: () => db.prepare(`${SELECT_MEMORY} WHERE m.rowid = ?`),
      list: () => db.prepare(`${SELECT_MEMORY} WHERE m.rowid IN (SELECT value FROM json_each(?))`),
      columns: () => db.prepare('SELECT rowid, * FROM memories WHERE rowid IN (SELECT value FROM json_each(?))'),
      anchor: () => db.prepare('SELECT * FROM anchors WHERE memory_rowid = ?'),
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
    const memories: [number, Memory][] = unknown.length === 1 ? this.one(unknown[0]!) : unknown.length ? (this.statements.list.all(JSON.stringify(unknown)) as MemoryRow[]).map((row) => [row.rowid, rowToMemory(row)]) : [];
    if (known.length) {
      const byRowid = new Map(known.map((row) => [row.rowid, row]));
      for (const columns of this.statements.columns.all(JSON.stringify(known.map((row) => row.rowid))) as ColumnsRow[]) {
        const row = byRowid.get(columns.rowid)!;
        // A scoring row read at another generation would not match: read that memory whole.
        if (row.id !== columns.id || row.updatedAt !== columns.updated_at) memories.push(...this.one(columns.rowid));
        else memories.push([columns.rowid, this.withTags(columns, row)]);
      }
    }
    return memories;
  }

  private one(rowid: number): [number, Memory][] {
    const row = this.statements.one.get(rowid) as MemoryRow | undefined;
    return row ? [[rowid, rowToMemory(row)]] : [];
  }

  private withTags(columns: ColumnsRow, row: CandidateRow): Memory {
    return {
      id: columns.id as MemoryId,
      kind: columns.kind,
      title: columns.title,
      body: columns.body,
      why: columns.why,
      source: columns.source,
      sessionId: columns.session_id,
      sourceRef: columns.source_ref,
      createdAt: columns.created_at,
      updatedAt: columns.updated_at,
      importance: columns.importance,
      pin: columns.pin,
      status: columns.status,
      // Copies: callers may sort or extend what they get, and the scoring row is shared.
      files: [...row.files],
      symbols: [...row.symbols],
      anchor: row.anchor ? this.anchor(columns.rowid) : null,
      meta: JSON.parse(columns.meta) as Record<string, unknown>,
    };
  }

  private anchor(rowid: number): Anchor | null {
    const a = this.statements.anchor.get(rowid) as AnchorRow | undefined;
    if (!a) return null;
    return {
      path: a.path,
      range: { startLine: a.start_line, startCharacter: a.start_character, endLine: a.end_line, endCharacter: a.end_character },
      contentHash: a.content_hash,
      contextBefore: a.context_before,
      contextAfter: a.context_after,
      stale: a.stale === 1,
    };
  }
}
