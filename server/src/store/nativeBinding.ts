import { existsSync } from 'node:fs';
import path from 'node:path';

/** The better-sqlite3 binding for the running Node ABI could not be found. */
export class NativeBindingError extends Error {
  constructor(readonly abi: string, readonly tried: readonly string[]) {
    super(
      `No SQLite binding for this Node.js (${process.version}, ABI ${abi}). Engram ships bindings for ` +
        `Node 20, 22 and 24; run it with one of those (setting "engram.nodePath"). Looked in: ${tried.join(', ')}`,
    );
    this.name = 'NativeBindingError';
  }
}

/**
 * Finds the better-sqlite3 binding compiled for this process's ABI. The packaged extension ships
 * one per supported Node major next to the bundle (`native/better_sqlite3-abi<N>.node`); a dev
 * checkout also has the one npm built into node_modules.
 */
export function findNativeBinding(env: NodeJS.ProcessEnv = process.env): string {
  const abi = process.versions.modules;
  const fileName = `better_sqlite3-abi${abi}.node`;
  const candidates = [
    env.ENGRAM_NATIVE_BINDING,
    path.join(__dirname, 'native', fileName),
    path.join(__dirname, '..', '..', '..', 'dist', 'native', fileName),
  ].filter((c): c is string => Boolean(c));
  for (const candidate of candidates) if (existsSync(candidate)) return candidate;
  throw new NativeBindingError(abi, candidates);
}

/** Loads the binding into a throwaway in-memory database: the SQLite version, and whether FTS5 works. */
export function probeSqlite(binding: string): { sqliteVersion: string; fts5: boolean } {
  // Required lazily so that finding the binding never needs the native module loaded.
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(':memory:', { nativeBinding: binding });
  try {
    const sqliteVersion = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    let fts5 = true;
    try {
      db.exec('CREATE VIRTUAL TABLE probe USING fts5 (text)');
    } catch (error) {
      fts5 = !String((error as Error).message).includes('no such module');
    }
    return { sqliteVersion, fts5 };
  } finally {
    db.close();
  }
}
