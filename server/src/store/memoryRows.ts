import type { Anchor, Memory, MemoryId, MemoryKind, MemoryStatus, PinLevel } from '../memory/types';

/** A row of `memories` (`SELECT rowid, *`), as far as a Memory is made of it. */
export interface MemoryColumns {
  rowid: number;
  id: string;
  kind: MemoryKind;
  title: string;
  body: string;
  why: string | null;
  source: Memory['source'];
  session_id: string | null;
  source_ref: string | null;
  created_at: number;
  updated_at: number;
  importance: number;
  pin: PinLevel;
  status: MemoryStatus;
  meta: string;
}

/** A row of `anchors`, less its path. */
export interface AnchorColumns {
  start_line: number;
  start_character: number;
  end_line: number;
  end_character: number;
  content_hash: string;
  context_before: string;
  context_after: string;
  stale: number;
}

/** A row of SELECT_MEMORY: a memory with its tags (as JSON arrays) and its anchor's columns (null without one). */
export type MemoryRow = MemoryColumns & { [K in keyof AnchorColumns]: AnchorColumns[K] | null } & {
  files_json: string;
  symbols_json: string;
  anchor_path: string | null;
};

export const SELECT_MEMORY = `
  SELECT m.*,
    (SELECT json_group_array(path) FROM memory_files f WHERE f.memory_rowid = m.rowid) AS files_json,
    (SELECT json_group_array(symbol) FROM memory_symbols s WHERE s.memory_rowid = m.rowid) AS symbols_json,
    a.path AS anchor_path, a.start_line, a.start_character, a.end_line, a.end_character,
    a.content_hash, a.context_before, a.context_after, a.stale
  FROM memories m LEFT JOIN anchors a ON a.memory_rowid = m.rowid`;

export function anchorFrom(path: string, a: AnchorColumns): Anchor {
  return {
    path,
    range: { startLine: a.start_line, startCharacter: a.start_character, endLine: a.end_line, endCharacter: a.end_character },
    contentHash: a.content_hash,
    contextBefore: a.context_before,
    contextAfter: a.context_after,
    stale: a.stale === 1,
  };
}

/** A memory from its own columns and what other tables hold of it. */
export function memoryFrom(columns: MemoryColumns, files: string[], symbols: string[], anchor: Anchor | null): Memory {
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
    files,
    symbols,
    anchor,
    meta: JSON.parse(columns.meta) as Record<string, unknown>,
  };
}

export function rowToMemory(row: MemoryRow): Memory {
  const anchor = row.anchor_path === null ? null : anchorFrom(row.anchor_path, row as AnchorColumns);
  return memoryFrom(row, JSON.parse(row.files_json) as string[], JSON.parse(row.symbols_json) as string[], anchor);
}
