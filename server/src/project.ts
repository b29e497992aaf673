import { openDatabase } from './store/database';
import { MemoryStore } from './store/memoryStore';
import { SnapshotStore } from './store/snapshotStore';
import { databasePathFor, resolveProjectRoot } from './store/paths';

/** One project's memory: its root folder, its database file and the store over it. */
export interface Project {
  readonly root: string;
  readonly databaseFile: string;
  readonly store: MemoryStore;
  /** Last known content of captured files, to diff changes against. */
  readonly snapshots: SnapshotStore;
  /** Things the user must hear about from opening the database (a corrupt file moved aside, a backup). */
  readonly notices: readonly string[];
  close(): void;
}

export function openProject(folder: string, env: NodeJS.ProcessEnv = process.env): Project {
  const root = resolveProjectRoot(folder, env);
  const { db, file, notices } = openDatabase(databasePathFor(root, env));
  return { root, databaseFile: file, store: new MemoryStore(db), snapshots: new SnapshotStore(db), notices, close: () => db.close() };
}
