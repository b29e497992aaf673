import { compileUserPatterns, Redactor } from './capture/redact';
import { openDatabase } from './store/database';
import { readEngramConfig } from './store/engramConfig';
import { MemoryStore } from './store/memoryStore';
import { SessionStore } from './store/sessionStore';
import { SnapshotStore } from './store/snapshotStore';
import { IngestOffsetStore } from './store/ingestOffsetStore';
import { databasePathFor, resolveProjectRoot } from './store/paths';

/** One project's memory: its root folder, its database file and the store over it. */
export interface Project {
  readonly root: string;
  readonly databaseFile: string;
  readonly store: MemoryStore;
  /** Last known content of captured files, to diff changes against. */
  readonly snapshots: SnapshotStore;
  readonly sessions: SessionStore;
  /** How far each transcript has been read. */
  readonly ingestOffsets: IngestOffsetStore;
  /** Built-in secret rules plus the user's patterns: applied to everything stored. */
  readonly redactor: Redactor;
  /** Problems the user must hear about from opening it (a corrupt file moved aside, a bad config). */
  readonly notices: readonly string[];
  /** What happened as it should, for the log (a backup before a migration). */
  readonly infos: readonly string[];
  close(): void;
}

export function openProject(folder: string, env: NodeJS.ProcessEnv = process.env): Project {
  const root = resolveProjectRoot(folder, env);
  const { config, problem } = readEngramConfig(env);
  const { patterns, errors } = compileUserPatterns(config.redact.patterns);
  const redactor = new Redactor(patterns);
  const { db, file, notices, infos } = openDatabase(databasePathFor(root, env));
  return {
    root,
    databaseFile: file,
    store: new MemoryStore(db, redactor),
    snapshots: new SnapshotStore(db),
    sessions: new SessionStore(db),
    ingestOffsets: new IngestOffsetStore(db),
    redactor,
    notices: [...notices, ...(problem ? [problem] : []), ...errors],
    infos,
    close: () => db.close(),
  };
}
