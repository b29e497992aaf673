import type { Redactor } from '../secrets/redact';
import { completeMemory, sortedUnique } from '../memory/newMemory';
import type { Memory, MemoryId, NewMemory, PinLevel } from '../memory/types';
import { identifierParts } from '../memory/identifierParts';
import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import { renamedPath } from '../paths/engramPaths';

/** revises: a later change of the same lines (a user's edit after an agent's); summarizes: a consolidation of its sources. */
export type MemoryRelation = 'revises' | 'summarizes';

export interface MemoryLink {
  readonly id: MemoryId;
  readonly relation: MemoryRelation;
}

/**
 * Every write of a memory's rows: the memory, its files, symbols, anchor and full-text entry, in
 * one transaction, redacted on the way in. MemoryStore's writes, and the bulk import's updates.
 */
export class MemoryWrites {
  private readonly statements;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly redactor: Redactor,
    private readonly get: (id: string) => Memory | null,
  ) {
    this.statements = lazyStatements({
      insert: () => db.prepare(`INSERT INTO memories (id, kind, title, body, why, source, session_id, source_ref, created_at, updated_at, importance, pin, status, meta, fts_tags)
        VALUES (@id, @kind, @title, @body, @why, @source, @sessionId, @sourceRef, @createdAt, @updatedAt, @importance, @pin, @status, @meta, @ftsTags)`),
      update: () => db.prepare(`UPDATE memories SET kind = @kind, title = @title, body = @body, why = @why, source = @source,
        session_id = @sessionId, source_ref = @sourceRef, created_at = @createdAt, updated_at = @updatedAt, importance = @importance, pin = @pin,
        status = @status, meta = @meta, fts_tags = @ftsTags WHERE id = @id`),
      insertFile: () => db.prepare('INSERT OR IGNORE INTO memory_files (memory_rowid, path) VALUES (@rowid, @path)'),
      insertSymbol: () => db.prepare('INSERT OR IGNORE INTO memory_symbols (memory_rowid, symbol) VALUES (@rowid, @symbol)'),
      insertAnchor: () => db.prepare(`INSERT INTO anchors (memory_rowid, path, start_line, start_character, end_line, end_character,
        content_hash, context_before, context_after, stale)
        VALUES (@rowid, @path, @startLine, @startCharacter, @endLine, @endCharacter, @contentHash, @contextBefore, @contextAfter, @stale)`),
      deleteFiles: () => db.prepare('DELETE FROM memory_files WHERE memory_rowid = ?'),
      deleteSymbols: () => db.prepare('DELETE FROM memory_symbols WHERE memory_rowid = ?'),
      deleteAnchor: () => db.prepare('DELETE FROM anchors WHERE memory_rowid = ?'),
      deleteFts: () => db.prepare('DELETE FROM memory_fts WHERE rowid = ?'),
      insertFts: () => db.prepare('INSERT INTO memory_fts (rowid, title, body, why, tags) VALUES (@rowid, @title, @body, @why, @tags)'),
      rowidOf: () => db.prepare('SELECT rowid FROM memories WHERE id = ?'),
      setPin: () => db.prepare('UPDATE memories SET pin = @pin, updated_at = @now WHERE id = @id'),
      idsUnderPath: () => db.prepare(`SELECT DISTINCT m.id FROM memories m
        WHERE m.rowid IN (SELECT memory_rowid FROM memory_files WHERE path = @path OR substr(path, 1, length(@prefix)) = @prefix)
           OR m.rowid IN (SELECT memory_rowid FROM anchors WHERE path = @path OR substr(path, 1, length(@prefix)) = @prefix)`),
      insertLink: () => db.prepare(`INSERT OR IGNORE INTO memory_links (from_rowid, to_rowid, relation)
        SELECT f.rowid, t.rowid, @relation FROM memories f, memories t WHERE f.id = @from AND t.id = @to`),
      linksFrom: () => db.prepare(`SELECT t.id AS id, l.relation AS relation FROM memory_links l JOIN memories f ON f.rowid = l.from_rowid
        JOIN memories t ON t.rowid = l.to_rowid WHERE f.id = ? ORDER BY t.rowid`),
      linksTo: () => db.prepare(`SELECT f.id AS id, l.relation AS relation FROM memory_links l JOIN memories f ON f.rowid = l.from_rowid
        JOIN memories t ON t.rowid = l.to_rowid WHERE t.id = ? ORDER BY f.rowid`),
    });
  }

  add(input: NewMemory, now: number = Date.now()): Memory {
    const memory = completeMemory(input, now);
    return this.db.transaction(() => this.write(memory, 'insert'))();
  }

  /** Records that memory `from` relates to memory `to` (e.g. 'revises'); idempotent; false when either id is unknown. */
  link(from: MemoryId, to: MemoryId, relation: MemoryRelation): boolean {
    return this.db.transaction(() => this.statements.insertLink.run({ from, to, relation }).changes > 0 || this.hasLink(from, to, relation))();
  }

  /** The memories `id` points to, and the memories that point to it, with the relation. */
  links(id: MemoryId): { readonly from: readonly MemoryLink[]; readonly to: readonly MemoryLink[] } {
    return { from: this.statements.linksFrom.all(id) as MemoryLink[], to: this.statements.linksTo.all(id) as MemoryLink[] };
  }

  private hasLink(from: MemoryId, to: MemoryId, relation: MemoryRelation): boolean {
    return this.links(from).from.some((l) => l.id === to && l.relation === relation);
  }

  /**
   * Follows a renamed file or folder: every memory tagged with `from` (or a path under it) is
   * re-tagged with the new path, anchors included. Returns how many memories changed.
   */
  renamePath(from: string, to: string): number {
    const move = (p: string) => renamedPath(p, from, to) ?? p;
    return this.db.transaction(() => {
      const ids = (this.statements.idsUnderPath.all({ path: from, prefix: `${from}/` }) as { id: string }[]).map((r) => r.id);
      for (const id of ids) {
        const memory = this.get(id)!;
        this.write(
          { ...memory, files: sortedUnique(memory.files.map(move)), anchor: memory.anchor ? { ...memory.anchor, path: move(memory.anchor.path) } : null },
          'update',
        );
      }
      return ids.length;
    }).immediate();
  }

  /** Replaces a memory's content (same id); returns what was stored, or null when the id is unknown. */
  update(memory: Memory): Memory | null {
    // IMMEDIATE, as `add` takes the write lock first: a deferred transaction that reads first
    // fails at once when another process (a hook, a history import) is writing, instead of waiting.
    return this.db.transaction(() => (this.get(memory.id) ? this.write(memory, 'update') : null)).immediate();
  }

  /** Returns the updated memory, or null when no memory has that id. */
  setPin(id: string, pin: PinLevel, now: number = Date.now()): Memory | null {
    const changed = this.statements.setPin.run({ id, pin, now }).changes;
    return changed ? this.get(id) : null;
  }

  /** Redacts secrets here, on the one path to the database, so no caller can forget; returns what was stored. */
  write(unredacted: Memory, mode: 'insert' | 'update'): Memory {
    const memory = this.redactor.memory(unredacted);
    const tags = [...memory.files, ...memory.symbols, ...identifierParts([memory.title, ...memory.files, ...memory.symbols].join(' '))].join(' ');
    const params = { ...memory, meta: JSON.stringify(memory.meta), ftsTags: tags };
    let rowid: number;
    if (mode === 'insert') {
      rowid = Number(this.statements.insert.run(params).lastInsertRowid);
    } else {
      this.statements.update.run(params);
      rowid = (this.statements.rowidOf.get(memory.id) as { rowid: number }).rowid;
      this.statements.deleteFiles.run(rowid);
      this.statements.deleteSymbols.run(rowid);
      this.statements.deleteAnchor.run(rowid);
      this.statements.deleteFts.run(rowid);
    }
    for (const path of memory.files) this.statements.insertFile.run({ rowid, path });
    for (const symbol of memory.symbols) this.statements.insertSymbol.run({ rowid, symbol });
    if (memory.anchor) {
      this.statements.insertAnchor.run({ rowid, path: memory.anchor.path, ...memory.anchor.range, contentHash: memory.anchor.contentHash,
        contextBefore: memory.anchor.contextBefore, contextAfter: memory.anchor.contextAfter, stale: memory.anchor.stale ? 1 : 0 });
    }
    this.statements.insertFts.run({ rowid, title: memory.title, body: memory.body, why: memory.why ?? '', tags });
    return memory;
  }
}
