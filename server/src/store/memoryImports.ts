import type { Redactor } from '../secrets/redact';
import type { Memory } from '../memory/types';
import { BulkImport, type ImportOutcome, type ImportTransaction } from './bulkImport';
import { FtsTags } from './bulkImportTags';
import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import type { MemoryWrites } from './memoryWrites';
import { prepareForImport, readMemoryOf, type PreparedMemory } from './preparedImport';

/**
 * Memories taken from elsewhere (an export, the history import, the team file, the hub): each
 * added when new, replaced when the incoming copy is newer, left alone otherwise, so taking the
 * same memories twice changes nothing. Many at once go through the bulk writer (bulkImport.ts).
 */
export class MemoryImports {
  private readonly statements;
  private bulkImport: BulkImport | undefined;
  private importTags: FtsTags | undefined;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly redactor: Redactor,
    private readonly writes: MemoryWrites,
  ) {
    this.statements = lazyStatements({
      importedAt: () => db.prepare('SELECT updated_at AS updatedAt FROM memories WHERE id = ?'),
    });
  }

  import(memory: Memory): ImportOutcome {
    return this.db.transaction(() => this.importOne(memory))();
  }

  /**
   * `import` for many memories in one transaction: a bulk import pays for one commit per batch,
   * not one per memory. All or nothing: a failure leaves none of the batch.
   */
  importMany(memories: readonly Memory[]): ImportOutcome[] {
    // The bulk writer rolls back a failed batch's whole transaction: a caller's own one too.
    if (this.db.inTransaction) return this.db.transaction(() => memories.map((memory) => this.importOne(memory)))();
    this.importTags ??= new FtsTags();
    return this.importPrepared(memories.map((memory) => prepareForImport(memory, this.redactor, this.importTags!)));
  }

  /** importMany of memories already redacted, with their full-text tags (preparedImport.ts). */
  importPrepared(memories: readonly PreparedMemory[]): ImportOutcome[] {
    if (this.db.inTransaction) return this.db.transaction(() => memories.map((memory) => this.importOne(readMemoryOf(memory))))();
    return this.bulk().run(memories);
  }

  /**
   * A transaction of a bulk import that takes its memories in parts (`engram import`, which adds
   * each batch of its reader thread as it arrives); the caller ends it. Not inside a transaction.
   */
  beginImport(): ImportTransaction {
    if (this.db.inTransaction) throw new Error('an import transaction cannot start inside another transaction');
    return this.bulk().begin();
  }

  private bulk(): BulkImport {
    return (this.bulkImport ??= new BulkImport(this.db, (memory) => this.writes.write(memory, 'update')));
  }

  private importOne(memory: Memory): ImportOutcome {
    const existing = this.statements.importedAt.get(memory.id) as { updatedAt: number } | undefined;
    if (!existing) {
      this.writes.write(memory, 'insert');
      return 'added';
    }
    if (memory.updatedAt <= existing.updatedAt) return 'unchanged';
    this.writes.write(memory, 'update');
    return 'updated';
  }
}
