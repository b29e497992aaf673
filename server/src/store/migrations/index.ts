import * as initial from './001-initial';

/** Numbered migrations: entry i takes the schema from version i to i + 1. Append only. */
export const MIGRATIONS: readonly { readonly version: number; readonly sql: string }[] = [{ version: 1, sql: initial.sql }];

export const SCHEMA_VERSION = MIGRATIONS.length;
