import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { Redactor } from '../secrets/redact';
import { REDACTION_VERSION } from '../secrets/redactionVersion';
import { backUpDatabase, type SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import type { MemoryStore } from './memoryStore';
import { prepareMemorySelect, rowToMemory, type MemoryRow } from './memoryRows';
import { redactionChanged } from './preparedImport';

/**
 * What a sweep does, in order: check the texts of each table that holds some (the same texts
 * the stores redact on their way in), then, if any was rewritten, purge the raw bytes the old
 * texts left behind: merge the full-text index (a deleted row's terms stay in its segments until
 * a merge), count its terms again (term_stats names them), VACUUM (free pages and the free space
 * inside pages keep old rows), and empty the write-ahead log.
 */
const PHASES = ['memories', 'sessions', 'ingest_offsets', 'editor_state', 'fts', 'terms', 'vacuum', 'checkpoint'] as const;
type Phase = (typeof PHASES)[number];
type TextPhase = 'memories' | 'sessions' | 'ingest_offsets' | 'editor_state';

/** Rows read per step at most, and the time after which a step stops: the memory server answers between steps. */
const ROWS_PER_STEP = 500;
const STEP_MS = 20;
/** Pages of full-text merge work per step (FTS5 'merge'; negative: merge every segment, as 'optimize' does). */
const FTS_MERGE_PAGES = -64;

interface SweepRow {
  checked_by: string | null;
  sweeping_for: string | null;
  phase: Phase | null;
  after_rowid: number;
  rewritten: number;
  backup: string | null;
}

export interface RedactionSweepStatus {
  /** The rules (and user patterns) every stored text was last checked by; null: none recorded. */
  readonly checkedBy: string | null;
  /** Those this process redacts with. */
  readonly current: string;
  /** Stored texts may hold secrets the current rules know: a sweep is due or under way. */
  readonly pending: boolean;
  /** Where a sweep under way is, and how many texts it rewrote so far; null when none is. */
  readonly underWay: { readonly phase: Phase; readonly rewritten: number } | null;
  /** The copy taken before the sweep's first rewrite: it holds the old texts, and goes when the sweep ends. */
  readonly backup: string | null;
}

export interface SweepOutcome {
  readonly rewritten: number;
  /** The backup that held the old texts, removed. */
  readonly removedBackup: string | null;
}

/**
 * Which rules checked a store's texts: the built-in version, and a digest of the user's own
 * patterns (`engram.redact.patterns`), so adding one sweeps what was stored before it too.
 */
export function redactorIdentity(redactor: Redactor): string {
  if (!redactor.userPatterns.length) return `v${REDACTION_VERSION}`;
  const digest = createHash('sha256');
  for (const pattern of redactor.userPatterns) digest.update(`${pattern.source}\0${pattern.flags}\0`);
  return `v${REDACTION_VERSION}+user:${digest.digest('hex').slice(0, 12)}`;
}

/**
 * Re-redacts every text a store kept before its redaction rules changed, in short steps that
 * commit their progress (in `redaction_sweep`, migration 014), so a sweep survives a restart,
 * several processes can share one, and a server answers between steps. Memories that hold no
 * secret the rules know are left exactly as they were. A backup is taken before the first
 * rewrite, as before a migration; it holds the secrets, so it is removed when the sweep ends.
 */
export class RedactionSweep {
  readonly identity: string;
  private readonly statements;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly redactor: Redactor,
    private readonly store: MemoryStore,
  ) {
    this.identity = redactorIdentity(redactor);
    this.statements = lazyStatements({
      state: () => db.prepare('SELECT checked_by, sweeping_for, phase, after_rowid, rewritten, backup FROM redaction_sweep WHERE id = 1'),
      start: () => db.prepare("UPDATE redaction_sweep SET sweeping_for = @identity, phase = 'memories', after_rowid = 0, rewritten = 0, started_at = @now WHERE id = 1"),
      advance: () => db.prepare('UPDATE redaction_sweep SET phase = @phase, after_rowid = @after, rewritten = rewritten + @rewritten WHERE id = 1'),
      setBackup: () => db.prepare('UPDATE redaction_sweep SET backup = @backup WHERE id = 1 AND backup IS NULL'),
      finish: () => db.prepare('UPDATE redaction_sweep SET checked_by = sweeping_for, sweeping_for = NULL, phase = NULL, after_rowid = 0, backup = NULL WHERE id = 1'),
      memories: () => prepareMemorySelect(db, 'WHERE m.rowid > @after ORDER BY m.rowid LIMIT @limit'),
      sessions: () => db.prepare('SELECT rowid, title AS text FROM sessions WHERE rowid > @after AND title IS NOT NULL ORDER BY rowid LIMIT @limit'),
      setSession: () => db.prepare('UPDATE sessions SET title = @text WHERE rowid = @rowid'),
      offsets: () => db.prepare('SELECT rowid, reader_state AS text FROM ingest_offsets WHERE rowid > @after ORDER BY rowid LIMIT @limit'),
      setOffset: () => db.prepare('UPDATE ingest_offsets SET reader_state = @text WHERE rowid = @rowid'),
      selections: () => db.prepare('SELECT rowid, selection AS text FROM editor_state WHERE rowid > @after AND selection IS NOT NULL ORDER BY rowid LIMIT @limit'),
      setSelection: () => db.prepare('UPDATE editor_state SET selection = @text WHERE rowid = @rowid'),
      anyText: () =>
        db.prepare(`SELECT EXISTS (SELECT 1 FROM memories) OR EXISTS (SELECT 1 FROM sessions WHERE title IS NOT NULL)
          OR EXISTS (SELECT 1 FROM ingest_offsets) OR EXISTS (SELECT 1 FROM editor_state WHERE selection IS NOT NULL)`).pluck(),
      termCounts: () => db.prepare('SELECT EXISTS (SELECT 1 FROM term_stats_state)').pluck(),
      totalChanges: () => db.prepare('SELECT total_changes()').pluck(),
      merge: () => db.prepare(`INSERT INTO memory_fts (memory_fts, rank) VALUES ('merge', ${FTS_MERGE_PAGES})`),
    });
  }

  status(): RedactionSweepStatus {
    const row = this.row();
    const pending = row.checked_by !== this.identity && (row.sweeping_for !== null || Boolean(this.statements.anyText.get()));
    const underWay = row.sweeping_for !== null && row.phase !== null ? { phase: row.phase, rewritten: row.rewritten } : null;
    return { checkedBy: row.checked_by, current: this.identity, pending, underWay, backup: row.backup };
  }

  /** A store whose texts were checked by other rules than this process's (cheap: one row). */
  pending(): boolean {
    return this.row().checked_by !== this.identity;
  }

  /**
   * Takes over a backup just made for a migration at this open (database.ts): it is the copy
   * from before any rewrite, so the sweep needs no second one, and removes it when it rewrote.
   */
  adoptBackup(backup: string): void {
    if (this.pending()) this.statements.setBackup.run({ backup });
  }

  /** Runs the whole sweep now (the CLI, `engram doctor --repair`). */
  runToEnd(): SweepOutcome | null {
    if (!this.pending()) return null;
    let outcome: SweepOutcome | null = null;
    while (!outcome) outcome = this.step(() => this.store.termStats.recount());
    return outcome;
  }

  /** Runs the sweep in steps, calling `pause` between them, so a server keeps answering. */
  async runInSlices(pause: () => Promise<void>): Promise<SweepOutcome | null> {
    if (!this.pending()) return null;
    for (;;) {
      let recount: Promise<void> | null = null;
      const outcome = this.step(() => void (recount = this.store.termStats.recountInSlices(pause)));
      if (recount) await recount;
      if (outcome) return outcome;
      await pause();
    }
  }

  /** One bounded step; the outcome once the sweep has ended, else null. */
  private step(recountTerms: () => void): SweepOutcome | null {
    let row = this.row();
    if (row.checked_by === this.identity) return { rewritten: 0, removedBackup: null };
    if (row.sweeping_for !== this.identity) {
      this.db.transaction(() => this.statements.start.run({ identity: this.identity, now: Date.now() })).immediate();
      row = this.row();
    }
    const phase = row.phase ?? 'memories';
    switch (phase) {
      case 'memories':
      case 'sessions':
      case 'ingest_offsets':
      case 'editor_state':
        this.checkTexts(phase);
        return null;
      case 'fts':
        this.mergeTextIndex();
        return null;
      case 'terms':
        if (this.statements.termCounts.get()) recountTerms();
        this.moveTo('vacuum');
        return null;
      case 'vacuum':
        this.db.exec('VACUUM');
        this.moveTo('checkpoint');
        return null;
      case 'checkpoint':
        return this.finish(row);
    }
  }

  /** Checks the next rows of a table; a rewrite waits for the backup, taken outside any transaction. */
  private checkTexts(phase: TextPhase): void {
    const needsBackup = this.db.transaction(() => {
      const row = this.row();
      if (row.sweeping_for !== this.identity || row.phase !== phase) return false;
      const { rewrites, after, done } = this.rewritesAfter(phase, row.after_rowid);
      if (rewrites.length && row.backup === null) return true;
      for (const rewrite of rewrites) rewrite();
      const next = done ? PHASES[PHASES.indexOf(phase) + 1]! : phase;
      // Nothing rewritten in the whole sweep: nothing to purge.
      const skipPurge = done && phase === 'editor_state' && row.rewritten + rewrites.length === 0;
      this.statements.advance.run({ phase: skipPurge ? 'checkpoint' : next, after: done ? 0 : after, rewritten: rewrites.length });
      return false;
    }).immediate();
    if (needsBackup) this.takeBackup();
  }

  private rewritesAfter(phase: TextPhase, after: number): { rewrites: (() => void)[]; after: number; done: boolean } {
    const started = Date.now();
    const rewrites: (() => void)[] = [];
    const s = this.statements;
    if (phase === 'memories') {
      const rows = s.memories.all({ after, limit: ROWS_PER_STEP }) as MemoryRow[];
      for (const row of rows) {
        const memory = rowToMemory(row);
        // MemoryStore writes it redacted, with its tags, anchor and full-text entry.
        if (redactionChanged(memory, this.redactor.memory(memory))) rewrites.push(() => this.store.update(memory));
        if (Date.now() - started > STEP_MS && row !== rows.at(-1)) return { rewrites, after: row[0], done: false };
      }
      return { rewrites, after: rows.at(-1)?.[0] ?? after, done: rows.length < ROWS_PER_STEP };
    }
    const [read, write, redact] =
      phase === 'sessions'
        ? [s.sessions, s.setSession, (text: string) => this.redactor.text(text)]
        : phase === 'ingest_offsets'
          ? [s.offsets, s.setOffset, (text: string) => this.redactor.jsonText(text)]
          : [s.selections, s.setSelection, (text: string) => this.redactor.text(text)];
    const rows = read.all({ after, limit: ROWS_PER_STEP }) as { rowid: number; text: string }[];
    for (const { rowid, text } of rows) {
      const redacted = redact(text);
      if (redacted !== text) rewrites.push(() => write.run({ rowid, text: redacted }));
    }
    return { rewrites, after: rows.at(-1)?.rowid ?? after, done: rows.length < ROWS_PER_STEP };
  }

  private takeBackup(): void {
    const backup = backUpDatabase(this.db, this.file);
    const recorded = this.db.transaction(() => this.statements.setBackup.run({ backup }).changes > 0).immediate();
    // Another process took one first.
    if (!recorded) rmSync(backup, { force: true });
  }

  /** One slice of merging the full-text index's segments, which drops the terms of the rows rewritten. */
  private mergeTextIndex(): void {
    const before = this.statements.totalChanges.get() as number;
    this.db.transaction(() => this.statements.merge.run()).immediate();
    // FTS5 did less than a page of work: the index is one segment without deleted rows.
    if ((this.statements.totalChanges.get() as number) - before < 2) this.moveTo('terms');
  }

  private moveTo(phase: Phase): void {
    this.db.transaction(() => this.statements.advance.run({ phase, after: 0, rewritten: 0 })).immediate();
  }

  /**
   * Empties the write-ahead log (its frames hold the pages as they were before the rewrite and
   * VACUUM) and, once it is empty, records the rules and removes the backup. A reader that keeps
   * the log from emptying leaves the sweep here, to be finished by the next step.
   */
  private finish(row: SweepRow): SweepOutcome | null {
    if (row.rewritten > 0) {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (result?.busy) return null;
    }
    this.db.transaction(() => this.statements.finish.run()).immediate();
    if (row.rewritten > 0 && row.backup) {
      rmSync(row.backup, { force: true });
      return { rewritten: row.rewritten, removedBackup: row.backup };
    }
    return { rewritten: row.rewritten, removedBackup: null };
  }

  private row(): SweepRow {
    return this.statements.state.get() as SweepRow;
  }
}
