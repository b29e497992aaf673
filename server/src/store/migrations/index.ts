import * as initial from './001-initial';
import * as fileSnapshots from './002-file-snapshots';
import * as sourceRefs from './003-source-refs';
import * as readerState from './004-reader-state';
import * as usage from './005-usage';
import * as statusIndexes from './006-status-indexes';
import * as compactions from './007-compactions';
import * as memoryGeneration from './008-memory-generation';
import * as termStats from './009-term-stats';
import * as memoryChanges from './010-memory-changes';
import * as deferredIndexes from './011-deferred-indexes';
import * as contentlessFts from './012-contentless-fts';
import * as history from './013-history';
import * as redactionSweep from './014-redaction-sweep';
import * as hubOutbox from './015-hub-outbox';
import * as teamMarkIndex from './016-team-mark-index';
import * as memoryCounts from './017-memory-counts';
import * as sessionIndex from './018-session-index';

export interface Migration {
  /** The schema version this migration produces. */
  readonly version: number;
  readonly sql: string;
}

/** Numbered migrations, append only: entry i takes the schema from version i to i + 1. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: initial.sql },
  { version: 2, sql: fileSnapshots.sql },
  { version: 3, sql: sourceRefs.sql },
  { version: 4, sql: readerState.sql },
  { version: 5, sql: usage.sql },
  { version: 6, sql: statusIndexes.sql },
  { version: 7, sql: compactions.sql },
  { version: 8, sql: memoryGeneration.sql },
  { version: 9, sql: termStats.sql },
  { version: 10, sql: memoryChanges.sql },
  { version: 11, sql: deferredIndexes.sql },
  { version: 12, sql: contentlessFts.sql },
  { version: 13, sql: history.sql },
  { version: 14, sql: redactionSweep.sql },
  { version: 15, sql: hubOutbox.sql },
  { version: 16, sql: teamMarkIndex.sql },
  { version: 17, sql: memoryCounts.sql },
  { version: 18, sql: sessionIndex.sql },
];

export const SCHEMA_VERSION = MIGRATIONS.length;
