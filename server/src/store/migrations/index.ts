import * as initial from './001-initial';
import * as fileSnapshots from './002-file-snapshots';

export interface Migration {
  /** The schema version this migration produces. */
  readonly version: number;
  readonly sql: string;
}

/** Numbered migrations, append only: entry i takes the schema from version i to i + 1. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: initial.sql },
  { version: 2, sql: fileSnapshots.sql },
];

export const SCHEMA_VERSION = MIGRATIONS.length;
