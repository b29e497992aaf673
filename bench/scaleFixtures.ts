import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { memoryToRecord } from '../server/src/memory/record';
import { databasePathFor } from '../server/src/paths/engramPaths';
import { openProject } from '../server/src/project';
import { openDatabase } from '../server/src/store/database';
import { ENGRAM_JS, REPO_ROOT } from '../test/support/engramProcess';
import { generateMemoryFixture, type MemoryFixture } from './memoryFixtures';

/**
 * The scale bench's stores (100,000 and 1,000,000 generated memories, the recall bench's
 * generator and mix), built once by `engram import` of a JSONL export and kept under .cache/,
 * keyed by the generator's source: a 1,000,000-memory store takes minutes to build and ~2 GB.
 */

export const SCALE_FILES = 320;
export const SCALE_SEED = 20_240_601;
/** Bumped when what is cached changes shape; the generator's own source is hashed into the key too. */
const CACHE_FORMAT = 1;
const CACHE_ROOT = path.join(REPO_ROOT, '.cache', 'bench-scale');

export interface CachedStore {
  /** The database file to copy into a bench project. */
  readonly database: string;
  readonly memories: number;
  /** The generator's `now`: the fixture is regenerated with it for requests and files. */
  readonly now: number;
  /** `engram import` of the export when the store was built, as a process. */
  readonly importSeconds: number;
  readonly builtAt: string;
  readonly fixture: MemoryFixture;
}

function generatorVersion(): string {
  const hash = createHash('sha256').update(String(CACHE_FORMAT));
  for (const file of ['memoryFixtures.ts', 'projectFixtures.ts']) hash.update(readFileSync(path.join(REPO_ROOT, 'bench', file)));
  return hash.digest('hex').slice(0, 12);
}

async function writeExport(file: string, fixture: MemoryFixture): Promise<void> {
  const out = createWriteStream(file);
  for (const memory of fixture.memories) {
    if (!out.write(`${JSON.stringify(memoryToRecord(memory))}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function runImport(file: string, root: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ENGRAM_JS, 'import', file, '--project', root, '--json'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`engram import exited with ${code}: ${stderr}`))));
  });
}

/** The cached store of `memories` generated memories, built first when missing. */
export async function cachedStore(memories: number, log: (line: string) => void): Promise<CachedStore> {
  const folder = path.join(CACHE_ROOT, `${memories}-${generatorVersion()}`);
  const metaFile = path.join(folder, 'meta.json');
  if (!existsSync(metaFile)) {
    rmSync(folder, { recursive: true, force: true });
    const work = path.join(CACHE_ROOT, `building-${memories}-${process.pid}`);
    rmSync(work, { recursive: true, force: true });
    const root = path.join(work, 'project');
    mkdirSync(path.join(root, '.git'), { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, ENGRAM_HOME: path.join(work, 'home') };
    delete env.NODE_EXTRA_CA_CERTS;
    const now = Date.now();
    const exportFile = path.join(work, 'export.jsonl');
    log(`building the ${memories.toLocaleString('en')}-memory store once (cached in ${path.relative(REPO_ROOT, folder)})`);
    await writeExport(exportFile, generateMemoryFixture({ memories, files: SCALE_FILES, seed: SCALE_SEED, now }));
    const start = performance.now();
    await runImport(exportFile, root, env);
    const importSeconds = (performance.now() - start) / 1000;
    mkdirSync(folder, { recursive: true });
    const database = databasePathFor(root, env);
    if (existsSync(`${database}-wal`) && statSync(`${database}-wal`).size > 0) throw new Error(`${database} was left with a write-ahead log`);
    renameSync(database, path.join(folder, 'memory.db'));
    writeFileSync(metaFile, JSON.stringify({ memories, now, importSeconds, builtAt: new Date().toISOString() }));
    rmSync(work, { recursive: true, force: true });
  }
  const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { memories: number; now: number; importSeconds: number; builtAt: string };
  migrateCached(path.join(folder, 'memory.db'));
  sweepCached(path.join(folder, 'memory.db'), log);
  return { ...meta, database: path.join(folder, 'memory.db'), fixture: generateMemoryFixture({ memories, files: SCALE_FILES, seed: SCALE_SEED, now: meta.now }) };
}

/**
 * Brings a cached store to the current schema, once: a store cached before a migration was
 * otherwise migrated (and backed up with VACUUM INTO first) by every run's server at its start,
 * which the bench then timed as the start, the first hover and the RSS after start.
 */
function migrateCached(database: string): void {
  const { db, backup } = openDatabase(database);
  db.close();
  if (backup) rmSync(backup, { force: true });
}

/**
 * Re-redacts a cached store checked by older redaction rules, once per rules version, as a user's
 * store is after its first sweep: otherwise every run's server swept the whole store at its start
 * (store/redactionSweep.ts), which the bench then measured as the RSS and first requests after start.
 */
function sweepCached(database: string, log: (line: string) => void): void {
  const work = mkdtempSync(path.join(CACHE_ROOT, 'sweeping-'));
  const root = path.join(work, 'project');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const env: NodeJS.ProcessEnv = { ENGRAM_HOME: path.join(work, 'home') };
  const target = databasePathFor(root, env);
  mkdirSync(path.dirname(target), { recursive: true });
  renameSync(database, target);
  try {
    const project = openProject(root, env);
    try {
      if (project.redactionSweep.pending()) {
        log('sweeping the cached store with the current redaction rules, once');
        project.redactionSweep.runToEnd();
      }
    } finally {
      project.close();
    }
  } finally {
    renameSync(target, database);
    rmSync(work, { recursive: true, force: true });
  }
}

/** A copy of the cached store as the database of `root` under `env`'s ENGRAM_HOME. */
export function installStore(store: CachedStore, root: string, env: NodeJS.ProcessEnv): string {
  const target = databasePathFor(root, env);
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(store.database, target);
  return target;
}
