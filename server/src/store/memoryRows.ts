import type { Anchor, Memory, MemoryId, MemoryKind, MemoryStatus, PinLevel } from '../memory/types';
import type { SqliteDatabase, SqliteStatement } from './database';

/**
 * Memories are read as arrays (`.raw()`), not objects: better-sqlite3 builds an object with named
 * properties per row, ~4 µs a memory, which was a fifth of reading a recall's top ten.
 */

/** The columns of `memories` a Memory is made of, in this order. */
export const MEMORY_COLUMNS = 'm.rowid, m.id, m.kind, m.title, m.body, m.why, m.source, m.session_id, m.source_ref, m.created_at, m.updated_at, m.importance, m.pin, m.status, m.meta';

export type MemoryColumns = [
  rowid: number,
  id: string,
  kind: MemoryKind,
  title: string,
  body: string,
  why: string | null,
  source: Memory['source'],
  sessionId: string | null,
  sourceRef: string | null,
  createdAt: number,
  updatedAt: number,
  importance: number,
  pin: PinLevel,
  status: MemoryStatus,
  meta: string,
];

/** The columns of `anchors` an Anchor is made of, in this order. */
export const ANCHOR_COLUMNS = 'a.path, a.start_line, a.start_character, a.end_line, a.end_character, a.content_hash, a.context_before, a.context_after, a.stale';

export type AnchorColumns = [
  path: string,
  startLine: number,
  startCharacter: number,
  endLine: number,
  endCharacter: number,
  contentHash: string,
  contextBefore: string,
  contextAfter: string,
  stale: number,
];

/** A row of SELECT_MEMORY: a memory, its tags as JSON arrays, and its anchor's columns (nulls without one). */
type Nullable<T extends unknown[]> = { [K in keyof T]: T[K] | null };
export type MemoryRow = [...MemoryColumns, filesJson: string, symbolsJson: string, ...anchor: Nullable<AnchorColumns>];

const SELECT_MEMORY = `
  SELECT ${MEMORY_COLUMNS},
    (SELECT json_group_array(path) FROM memory_files f WHERE f.memory_rowid = m.rowid),
    (SELECT json_group_array(symbol) FROM memory_symbols s WHERE s.memory_rowid = m.rowid),
    ${ANCHOR_COLUMNS}
  FROM memories m LEFT JOIN anchors a ON a.memory_rowid = m.rowid`;

/** A statement reading whole memories (rows for rowToMemory): SELECT_MEMORY followed by `rest` (WHERE, ORDER BY…). */
export function prepareMemorySelect(db: SqliteDatabase, rest: string): SqliteStatement {
  return db.prepare(`${SELECT_MEMORY} ${rest}`).raw();
}

export function anchorFrom(a: AnchorColumns): Anchor {
  return {
    path: a[0],
    range: { startLine: a[1], startCharacter: a[2], endLine: a[3], endCharacter: a[4] },
    contentHash: a[5],
    contextBefore: a[6],
    contextAfter: a[7],
    stale: a[8] === 1,
  };
}

/** A memory from its own columns (a MemoryColumns, or a longer row that starts with them) and what other tables hold of it. */
export function memoryFrom(c: Readonly<MemoryColumns>, files: string[], symbols: string[], anchor: Anchor | null): Memory {
  return {
    id: c[1] as MemoryId,
    kind: c[2],
    title: c[3],
    body: c[4],
    why: c[5],
    source: c[6],
    sessionId: c[7],
    sourceRef: c[8],
    createdAt: c[9],
    updatedAt: c[10],
    importance: c[11],
    pin: c[12],
    status: c[13],
    files,
    symbols,
    anchor,
    meta: JSON.parse(c[14]) as Record<string, unknown>,
  };
}

export function rowToMemory(row: MemoryRow): Memory {
  // 15, 16: the tags; 17 on: the anchor.
  const anchor = row[17] === null ? null : anchorFrom(row.slice(17) as AnchorColumns);
  return memoryFrom(row as unknown as MemoryColumns, JSON.parse(row[15]) as string[], JSON.parse(row[16]) as string[], anchor);
}
