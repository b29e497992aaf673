import path from 'node:path';
import Database from 'better-sqlite3';
import { gitLines } from './git';

/** Recency: the first `k` commits `git log` lists for the file at the split (merges left out: they are never an answer). */
export class RecencyBaseline {
  private readonly byFile = new Map<string, string[]>();

  constructor(
    private readonly root: string,
    private readonly split: string,
    private readonly k: number,
  ) {}

  rank(file: string): string[] {
    let ranked = this.byFile.get(file);
    if (!ranked) {
      ranked = gitLines(this.root, ['log', '--no-merges', `-n${this.k}`, '--format=%H', this.split, '--', file]);
      this.byFile.set(file, ranked);
    }
    return ranked;
  }
}

/** Words of a text as an FTS5 query: each quoted, any of them (OR), as a plain search box would. */
export function ftsQueryOf(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])];
  return words.length ? words.map((w) => `"${w}"`).join(' OR ') : null;
}

/** The file's name without its extension (`lib/response.js` → `response`): the part of a path commit messages use. */
export function fileStem(file: string): string {
  return path.basename(file, path.extname(file));
}

/** Plain SQLite FTS5 BM25 over the imported commits' messages, one row per commit. */
export class MessageBm25Baseline {
  private readonly db = new Database(':memory:');
  private readonly shas: string[] = [];
  private readonly search;

  constructor(messages: ReadonlyMap<string, string>) {
    this.db.exec('CREATE VIRTUAL TABLE messages USING fts5(message)');
    const insert = this.db.prepare('INSERT INTO messages (rowid, message) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const [sha, message] of messages) {
        this.shas.push(sha);
        insert.run(this.shas.length, message);
      }
    })();
    this.search = this.db.prepare<[string, number], { rowid: number }>('SELECT rowid FROM messages WHERE messages MATCH ? ORDER BY bm25(messages) LIMIT ?');
  }

  rank(text: string, k: number): string[] {
    const query = ftsQueryOf(text);
    return query ? this.search.all(query, k).map((r) => this.shas[r.rowid - 1]!) : [];
  }

  close(): void {
    this.db.close();
  }
}
