import type { SqliteDatabase } from './database';

/** The tables whose secondary indexes a bulk load builds after its rows. */
const BULK_LOADED_TABLES = ['memories', 'memory_files', 'memory_symbols'] as const;

/**
 * Secondary indexes built after a bulk load's rows rather than row by row (schema v11): loading
 * 100,000 memories into an empty store kept seven indexes current at every insert (~2–3 s of
 * ~11); built once at the end they cost a few hundred ms. Unique indexes stay: they are what
 * rejects a duplicate; partial ones too (few rows, and queries name them). Between the two steps other processes read and write as usual, only
 * without those indexes; an import that dies in between leaves them recorded, and the memory
 * server or the next `engram import` builds them.
 */
export class DeferredIndexes {
  constructor(private readonly db: SqliteDatabase) {}

  /**
   * When the store has no memories, drops the secondary indexes of the bulk-loaded tables and
   * records them, in one transaction; returns how many. A store with memories keeps its indexes:
   * building them again would cost more than keeping them current.
   */
  deferIfEmpty(): number {
    return this.db.transaction(() => {
      if (this.db.prepare('SELECT 1 FROM memories LIMIT 1').get()) return 0;
      const indexes = this.secondaryIndexes();
      const record = this.db.prepare('INSERT OR REPLACE INTO deferred_indexes (name, sql) VALUES (?, ?)');
      for (const { name, sql } of indexes) {
        record.run(name, sql);
        this.db.exec(`DROP INDEX "${name.replace(/"/g, '""')}"`);
      }
      return indexes.length;
    }).immediate();
  }

  /** Builds every recorded index that is missing, in one transaction; returns how many were built. */
  rebuild(): number {
    if (!this.pending().length) return 0;
    return this.db.transaction(() => {
      let built = 0;
      for (const { name, sql } of this.db.prepare('SELECT name, sql FROM deferred_indexes').all() as { name: string; sql: string }[]) {
        // Another process may have built it since.
        if (!this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name)) {
          this.db.exec(sql);
          built++;
        }
      }
      this.db.prepare('DELETE FROM deferred_indexes').run();
      return built;
    }).immediate();
  }

  /** Names of the indexes recorded as dropped and not yet built. */
  pending(): string[] {
    return this.db.prepare('SELECT name FROM deferred_indexes ORDER BY name').pluck().all() as string[];
  }

  private secondaryIndexes(): { name: string; sql: string }[] {
    const found: { name: string; sql: string }[] = [];
    for (const table of BULK_LOADED_TABLES) {
      for (const index of this.db.pragma(`index_list(${table})`) as { name: string; unique: number; origin: string; partial: number }[]) {
        // Partial indexes stay: they hold a few rows, cost a load nothing, and queries name them (INDEXED BY).
        if (index.origin !== 'c' || index.unique || index.partial) continue;
        const sql = this.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(index.name) as string | null;
        if (sql) found.push({ name: index.name, sql });
      }
    }
    return found;
  }
}
