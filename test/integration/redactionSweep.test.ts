import assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { openDatabase, type SqliteDatabase } from '../../server/src/store/database';
import { findNativeBinding } from '../../server/src/store/nativeBinding';
import { MIGRATIONS } from '../../server/src/store/migrations';
import { databasePathFor } from '../../server/src/paths/engramPaths';
import { runEngram } from '../support/engramProcess';
import { startLsp } from '../support/lspClient';
import { loadSecretSet, scanControl, type SecretCase } from '../support/secretCorpus';
import { filesUnder, leaksIn } from '../support/storedBytes';
import { isolatedEnv, tempDir } from '../support/tempDirs';

/*
 * A store written before today's redaction rules: every labeled secret sits raw in it, as old
 * rules (or none) left it — in memories (title, body, why, tags, anchor, meta, the full-text
 * index), session titles, the transcript reader's state and the editor's selection, and again in
 * the free space an earlier rewrite of a row left behind. Opened by the real CLI or memory
 * server, it is swept: afterwards no labeled secret is in any byte under ENGRAM_HOME, the
 * memories without one are exactly as they were, and nothing is lost.
 */

const CONTROL = scanControl();
const SECRETS: readonly SecretCase[] = [...(['development', 'heldout-1', 'heldout-2', 'heldout-3'] as const).flatMap((set) => loadSecretSet(set)).filter((c) => c.secret !== null), CONTROL];
const LOOK_ALIKES = (['development', 'heldout-3'] as const).flatMap((set) => loadSecretSet(set)).filter((c) => c.secret === null);
const PLAIN = Array.from({ length: 40 }, (_, i) => `Retry the payment webhook ${i} times before giving up; the queue backs off`);

function project(): { root: string; env: NodeJS.ProcessEnv; file: string } {
  const root = tempDir('engram-sweep-');
  mkdirSync(path.join(root, '.git'));
  const env = isolatedEnv();
  return { root, env, file: databasePathFor(root, env) };
}

let seq = 0;
function insertMemory(db: SqliteDatabase, fields: { title: string; body: string; why?: string; file?: string; anchorContext?: string; meta?: string }): void {
  const id = `01J0000000000000000${String(++seq).padStart(6, '0')}`;
  const now = 1_700_000_000_000 + seq;
  const tags = fields.file ?? '';
  const { lastInsertRowid } = db
    .prepare(`INSERT INTO memories (id, kind, title, body, why, source, created_at, updated_at, meta, fts_tags)
      VALUES (?, 'note', ?, ?, ?, 'user', ?, ?, ?, ?)`)
    .run(id, fields.title, fields.body, fields.why ?? null, now, now, fields.meta ?? '{}', tags);
  const rowid = Number(lastInsertRowid);
  if (fields.file) db.prepare('INSERT INTO memory_files (memory_rowid, path) VALUES (?, ?)').run(rowid, fields.file);
  if (fields.anchorContext !== undefined) {
    db.prepare(`INSERT INTO anchors (memory_rowid, path, start_line, start_character, end_line, end_character, content_hash, context_before, context_after)
      VALUES (?, 'src/app.ts', 1, 0, 2, 0, 'h', ?, '')`).run(rowid, fields.anchorContext);
  }
  db.prepare('INSERT INTO memory_fts (rowid, title, body, why, tags) VALUES (?, ?, ?, ?, ?)').run(rowid, fields.title, fields.body, fields.why ?? '', tags);
}

/**
 * Writes the raw secrets with SQL, as an Engram whose rules did not know them would have kept
 * them. `schema` 13: a store from before the sweep existed; else one checked by rules "v0".
 */
function oldStore(file: string, schema: 13 | 'current'): void {
  const { db } = openDatabase(file, schema === 13 ? MIGRATIONS.slice(0, 13) : MIGRATIONS);
  try {
    db.transaction(() => {
      SECRETS.forEach((c, i) => {
        const where = i % 4;
        insertMemory(db, {
          title: where === 0 ? c.text.slice(0, 200) : `Secret case ${c.id}`,
          body: where === 1 ? c.text : `seen in a session: ${c.text}`,
          why: where === 2 ? c.text : undefined,
          anchorContext: where === 3 ? c.text : undefined,
          meta: where === 3 ? JSON.stringify({ command: c.text }) : undefined,
        });
      });
      for (const text of [...LOOK_ALIKES.map((c) => c.text), ...PLAIN]) insertMemory(db, { title: text.slice(0, 120), body: text, why: 'kept as written', file: 'src/app.ts' });
      db.prepare("INSERT INTO sessions (id, agent, started_at, title) VALUES ('s1', 'claude-code', 1, ?)").run(SECRETS[0]!.text);
      db.prepare("INSERT INTO ingest_offsets (path, byte_offset, size, mtime_ms, head_hash, updated_at, reader_state) VALUES ('/t.jsonl', 1, 1, 1, 'h', 1, ?)").run(
        JSON.stringify({ lastPrompt: SECRETS[1]!.text, pending: [{ command: SECRETS[2]!.text }] }),
      );
      db.prepare("INSERT INTO editor_state (window_id, selection, updated_at) VALUES ('w', ?, 1)").run(SECRETS[3]!.text);
    })();
    // An earlier rewrite of a row (a pin, an edit) leaves its old text in the page's free space.
    db.prepare("UPDATE memories SET body = body || ' (edited)' WHERE rowid IN (SELECT rowid FROM memories ORDER BY rowid LIMIT 50)").run();
    if (schema !== 13) db.prepare("UPDATE redaction_sweep SET checked_by = 'v0'").run();
  } finally {
    db.close();
  }
}

interface Snapshot {
  readonly counts: Record<string, number>;
  /** Every column of each memory without a secret, with its files and anchor. */
  readonly clean: readonly string[];
}

function snapshot(file: string): Snapshot {
  // Not openDatabase: it would migrate the old store (and back it up) before the command under test does.
  const db = new Database(file, { nativeBinding: findNativeBinding() });
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number);
    const counts = Object.fromEntries(['memories', 'memory_files', 'anchors', 'sessions', 'ingest_offsets', 'editor_state'].map((t) => [t, count(t)]));
    const clean = (db.prepare(`SELECT m.*, (SELECT json_group_array(path) FROM memory_files f WHERE f.memory_rowid = m.rowid) AS files, a.*
      FROM memories m LEFT JOIN anchors a ON a.memory_rowid = m.rowid WHERE m.why = 'kept as written' ORDER BY m.rowid`).all() as unknown[]).map((r) => JSON.stringify(r));
    return { counts, clean };
  } finally {
    db.close();
  }
}

function assertSwept(env: NodeJS.ProcessEnv, file: string, before: Snapshot): void {
  const leaks = leaksIn(filesUnder(env.ENGRAM_HOME!), SECRETS);
  assert.deepEqual(leaks.filter((l) => l.id !== CONTROL.id).map((l) => `${l.id} in ${path.basename(l.file)}: ${l.fragment}`), []);
  assert.ok(leaks.some((l) => l.id === CONTROL.id), 'the scan finds the control, a secret no rule knows, so it reads what is stored');
  const after = snapshot(file);
  assert.deepEqual(after.counts, before.counts, 'nothing lost');
  assert.equal(after.clean.length, LOOK_ALIKES.length + PLAIN.length);
  assert.deepEqual(after.clean, before.clean, 'memories that hold no secret are exactly as they were');
  assert.deepEqual(readdirSync(path.dirname(file)).filter((name) => name.includes('.backup-')), [], 'the backup, which held the secrets, is gone');
}

describe('a store written before the current redaction rules is swept', () => {
  it('by the CLI: `engram doctor` reports the sweep, `engram doctor --repair` runs it, and the migration backup that held the secrets goes', async () => {
    const { root, env, file } = project();
    oldStore(file, 13);
    const before = snapshot(file);
    assert.ok(leaksIn([file], SECRETS).length > SECRETS.length / 2, 'the old store holds the raw secrets');

    const doctor = await runEngram(['doctor', '--json'], { env, cwd: root });
    const checks = JSON.parse(doctor.stdout).checks as { name: string; warning?: boolean; detail: string }[];
    const redaction = checks.find((c) => c.name === 'redaction')!;
    assert.equal(redaction.warning, true);
    assert.match(redaction.detail, /checked by no recorded redaction rules, not v\d+: they may hold secrets/);
    assert.match(redaction.detail, /\.backup-v13-.* holds the texts as they were/, 'the migration backup is the sweep’s');
    assert.ok(leaksIn(filesUnder(env.ENGRAM_HOME!), SECRETS).length > SECRETS.length / 2, 'the doctor itself swept nothing');

    const repair = await runEngram(['doctor', '--repair', '--json'], { env, cwd: root, timeoutMs: 120_000 });
    const repaired = JSON.parse(repair.stdout).checks as { name: string; ok: boolean; warning?: boolean; detail: string }[];
    const sweep = repaired.find((c) => c.name === 'sweep')!;
    assert.match(sweep.detail, /redacted secrets that newer redaction rules know in \d+ stored texts; removed the backup/);
    assert.match(repaired.find((c) => c.name === 'redaction')!.detail, /^stored texts checked by redaction rules v\d+$/);
    assertSwept(env, file, before);

    const again = await runEngram(['stats'], { env, cwd: root });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stderr, '', 'a swept store is not swept again');
  });

  it('by any other command: `engram recall` sweeps before it reads', async () => {
    const { root, env, file } = project();
    oldStore(file, 'current');
    const before = snapshot(file);
    const recall = await runEngram(['recall', '--query', 'Secret case'], { env, cwd: root, timeoutMs: 120_000 });
    assert.equal(recall.code, 0, recall.stderr);
    assert.match(recall.stderr, /engram: redacted secrets that newer redaction rules know in \d+ stored texts; removed the backup/);
    assert.match(recall.stdout, /Secret case/, `${recall.stdout}${recall.stderr}`);
    assertSwept(env, file, before);
  });

  it('by the memory server, in the background', async () => {
    const { root, env, file } = project();
    oldStore(file, 'current');
    const before = snapshot(file);
    const lsp = startLsp(env);
    try {
      await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'app' }], capabilities: {} });
      await lsp.connection.sendNotification('initialized', {});
      const logged = (await lsp.waitFor('window/logMessage', (p) => /Checked the stored texts of/.test((p as { message: string }).message), 60_000)) as { message: string };
      assert.match(logged.message, /against redaction rules v\d+ in \d+ ms: \d+ rewritten; removed the backup/);
      assertSwept(env, file, before);
    } finally {
      await lsp.close();
    }
    assertSwept(env, file, before);
  });
});
