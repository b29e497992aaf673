import type { Anchor, Memory, MemoryId, MemoryKind, MemoryStatus, PinLevel } from '../memory/types';

/** A row of SELECT_MEMORY: a memory with its tags (as JSON arrays) and its anchor's columns. */
export interface MemoryRow {
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
  files_json: string;
  symbols_json: string;
  anchor_path: string | null;
  start_line: number | null;
  start_character: number | null;
  end_line: number | null;
  end_character: number | null;
  content_hash: string | null;
  context_before: string | null;
  context_after: string | null;
  stale: number | null;
}

export const SELECT_MEMORY = `
  SELECT m.*,
    (SELECT json_group_array(path) FROM memory_files f WHERE f.memory_rowid = m.rowid) AS files_json,
    (SELECT json_group_array(symbol) FROM memory_symbols s WHERE s.memory_rowid = m.rowid) AS symbols_json,
    a.path AS anchor_path, a.start_line, a.start_character, a.end_line, a.end_character,
    a.content_hash, a.context_before, a.context_after, a.stale
  FROM memories m LEFT JOIN anchors a ON a.memory_rowid = m.rowid`;

export function rowToMemory(row: MemoryRow): Memory {
  const anchor: Anchor | null =
    row.anchor_path === null
      ? null
      : {
          path: row.anchor_path,
          range: {
            startLine: row.start_line!,
            startCharacter: row.start_character!,
            endLine: row.end_line!,
            endCharacter: row.end_character!,
          },
          contentHash: row.content_hash!,
          contextBefore: row.context_before!,
          contextAfter: row.context_after!,
          stale: row.stale === 1,
        };
  return {
    id: row.id as MemoryId,
    kind: row.kind,
    title: row.title,
    body: row.body,
    why: row.why,
    source: row.source,
    sessionId: row.session_id,
    sourceRef: row.source_ref,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    importance: row.importance,
    pin: row.pin,
    status: row.status,
    files: JSON.parse(row.files_json) as string[],
    symbols: JSON.parse(row.symbols_json) as string[],
    anchor,
    meta: JSON.parse(row.meta) as Record<string, unknown>,
  };
}
