import type { SqliteDatabase } from '../database';

/**
 * FTS5's own tokenizer run on words: the index terms a string makes in memory_fts
 * (`connections` → `connect`, `decode_peer` → `decod`, `peer`). A temporary FTS5 table with the
 * index's tokenizer does it: a second stemmer in JavaScript could disagree with SQLite's.
 */
export class Stemmer {
  private ready = false;

  constructor(private readonly db: SqliteDatabase) {}

  /** The index terms of each string, in order (none for a string of separators). */
  terms(words: readonly string[]): string[][] {
    const found = words.map((): string[] => []);
    if (!words.length) return found;
    this.prepare();
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM temp.engram_stem').run();
      const insert = this.db.prepare('INSERT INTO temp.engram_stem (rowid, word) VALUES (?, ?)');
      words.forEach((word, i) => insert.run(i, word));
      for (const row of this.db.prepare('SELECT doc, term FROM temp.engram_stem_terms ORDER BY doc, offset').raw().iterate() as IterableIterator<[number, string]>) {
        found[row[0]]!.push(row[1]);
      }
      this.db.prepare('DELETE FROM temp.engram_stem').run();
    })();
    return found;
  }

  private prepare(): void {
    if (this.ready) return;
    // The same tokenizer as memory_fts (migration 001); temp tables live with this connection.
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.engram_stem USING fts5 (word, tokenize = 'porter unicode61');
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.engram_stem_terms USING fts5vocab(temp, engram_stem, 'instance');`);
    this.ready = true;
  }
}
