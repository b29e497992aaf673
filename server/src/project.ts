import { compileUserPatterns, Redactor } from './secrets/redact';
import { openDatabase } from './store/database';
import { readEngramConfig, type EngramConfig } from './config/engramConfig';
import { MemoryStore } from './store/memoryStore';
import { SessionStore } from './store/sessionStore';
import { SnapshotStore } from './store/snapshotStore';
import { IngestOffsetStore } from './store/ingestOffsetStore';
import { LifecycleStore } from './store/lifecycleStore';
import { InjectionStore } from './store/injectionStore';
import { UsageStore } from './store/usageStore';
import { EditorStateStore } from './store/editorStateStore';
import { MemoryListStore } from './store/memoryLists';
import { TimelineStore } from './store/timelineStore';
import { TeamMemoryStore } from './store/teamMemoryStore';
import { HubSyncStore } from './store/hubSyncStore';
import { DeferredIndexes } from './store/deferredIndexes';
import { HistoryStore } from './store/historyStore';
import { databasePathFor, resolveProjectRoot } from './paths/engramPaths';
import { explainStoreError, storePlace } from './store/storeProblem';
import { integrityProblems } from './store/integrity';
import { SalvageReader } from './store/salvageReader';
import { RedactionSweep } from './store/redactionSweep';
import type { RecallWeights } from './recall/weights';
import type { CapacitySettings } from './capacity/settings';
import { memoryValue } from './capacity/value';

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
  /** Archiving, forgetting, restoring and purging memories, and ranking them for eviction. */
  readonly lifecycle: LifecycleStore;
  /** Shown / acted-on counts per memory, for recall's usage score. */
  readonly usage: UsageStore;
  /** What each agent session was given. */
  readonly injections: InjectionStore;
  /** Where the user is in each VS Code window (for hooks). */
  readonly editorState: EditorStateStore;
  /** Every active constraint, hard pins first (browsing, not recall). */
  readonly lists: MemoryListStore;
  /** Pages of the memory timeline, compaction points and agent sessions, for the memory panel and timeline views. */
  readonly timeline: TimelineStore;
  /** Memories shared through the team file, and those received from it (docs/team.md). */
  readonly team: TeamMemoryStore;
  /** The team hub's outbox, links and pull cursor (hub/, docs/team.md). */
  readonly hub: HubSyncStore;
  /** Indexes a bulk load builds after its rows (an import into an empty store). */
  readonly deferredIndexes: DeferredIndexes;
  /** Which commits of the git history were imported, and the answer to the offer to import them. */
  readonly history: HistoryStore;
  /** Recall's weights, from the user's settings (`$ENGRAM_HOME/config.json`). */
  readonly recallWeights: RecallWeights;
  /** Watermarks and consolidation, from the user's settings. */
  readonly capacity: CapacitySettings;
  /** Claude Code hooks: context budgets and time limit. */
  readonly hookSettings: EngramConfig['hooks'];
  /** The user's exclude globs and bulk threshold, for captures outside the memory server (the history import). */
  readonly captureSettings: EngramConfig['capture'];
  /** Built-in secret rules plus the user's patterns: applied to everything stored. */
  readonly redactor: Redactor;
  /** Re-redacts what was stored before the rules changed (store/redactionSweep.ts): the CLI and the memory server run it. */
  readonly redactionSweep: RedactionSweep;
  /** Problems the user must hear about from opening it (a corrupt file moved aside, a bad config). */
  readonly notices: readonly string[];
  /** What happened as it should, for the log (a backup before a migration). */
  readonly infos: readonly string[];
  /**
   * Runs `write` in one transaction over all the project's stores (one commit instead of one per
   * store). IMMEDIATE: it waits for the write lock first, since a transaction that reads first
   * fails at once when another process wrote in the meantime, instead of waiting its turn.
   */
  transaction<T>(write: () => T): T;
  /**
   * Copies the pages the write-ahead log holds into the database file now, as far as readers
   * allow (PASSIVE: it waits for no one). SQLite does it at the first commit past 1,000 pages of log:
   * after a bulk write that is the next writer's commit, a hook's perhaps.
   */
  checkpoint(): void;
  /** What SQLite's integrity check finds wrong (none: sound). Reads every page: for `engram doctor`. */
  integrityProblems(): readonly string[];
  /** A reader of every memory that can still be read, for when the database turns out damaged. */
  salvage(): SalvageReader;
  close(): void;
}

export interface OpenProjectOptions {
  /**
   * For the memory server, which lives as long as the window: keep every memory's scoring row in
   * memory (~300 bytes a memory), so recall reads none from SQLite (store/rowCaches.ts).
   */
  readonly resident?: boolean;
}

export function openProject(folder: string, env: NodeJS.ProcessEnv = process.env, options: OpenProjectOptions = {}): Project {
  const root = resolveProjectRoot(folder, env);
  const { config, problem } = readEngramConfig(env);
  const { patterns, errors } = compileUserPatterns(config.redact.patterns);
  const redactor = new Redactor(patterns);
  const databaseFile = databasePathFor(root, env);
  let opened: ReturnType<typeof openDatabase>;
  try {
    opened = openDatabase(databaseFile);
  } catch (error) {
    // A locked, read-only, full or misplaced store: one line that says what to do (store/storeProblem.ts).
    throw explainStoreError(error, storePlace(databaseFile, env));
  }
  const { db, file, notices, infos, backup } = opened;
  const store = new MemoryStore(db, redactor, { resident: options.resident });
  const redactionSweep = new RedactionSweep(db, file, redactor, store);
  if (backup) redactionSweep.adoptBackup(backup);
  return {
    root,
    databaseFile: file,
    store,
    snapshots: new SnapshotStore(db),
    sessions: new SessionStore(db, redactor),
    ingestOffsets: new IngestOffsetStore(db, redactor),
    lifecycle: new LifecycleStore(db, memoryValue),
    usage: new UsageStore(db, options.resident),
    injections: new InjectionStore(db),
    editorState: new EditorStateStore(db, redactor),
    lists: new MemoryListStore(db),
    timeline: new TimelineStore(db),
    team: new TeamMemoryStore(db),
    hub: new HubSyncStore(db),
    deferredIndexes: new DeferredIndexes(db),
    history: new HistoryStore(db),
    redactor,
    redactionSweep,
    recallWeights: config.recall.weights,
    capacity: config.capacity,
    hookSettings: config.hooks,
    captureSettings: config.capture,
    notices: [...notices, ...(problem ? [problem] : []), ...errors],
    infos,
    transaction: (write) => db.transaction(write).immediate(),
    checkpoint: () => void db.pragma('wal_checkpoint(PASSIVE)'),
    integrityProblems: () => integrityProblems(db),
    salvage: () => new SalvageReader(db),
    close: () => db.close(),
  };
}
