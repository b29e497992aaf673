import { inHubTransaction, type HubClient } from './hubConnection';

/**
 * The hub's schema, as numbered steps (append only, like the store's migrations). Every memory
 * is one row per project and key; `seq` comes from one sequence, taken under the project's
 * advisory lock at push time (pushChanges.ts), so in a project it grows in commit order and a pull
 * "after seq N" misses nothing. A version overwritten by a push that had not seen it is kept in
 * `revisions`. Each project is a row-level-security boundary: a role reads and writes the rows of
 * the projects granted to it (or to a role it is a member of) in `grants`; the hub's owner sees all.
 */
const STEPS: readonly ((trgm: string) => string)[] = [
  (trgm) => `
  CREATE SEQUENCE engram.change_seq;
  CREATE TABLE engram.memories (
    project text NOT NULL,
    key text NOT NULL,
    seq bigint NOT NULL,
    deleted boolean NOT NULL DEFAULT false,
    team_id text,
    kind text,
    record jsonb,
    hash text NOT NULL,
    author name NOT NULL DEFAULT current_user,
    written_at timestamptz NOT NULL DEFAULT now(),
    search tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english'::regconfig, coalesce(record->>'title', '')), 'A') ||
      setweight(to_tsvector('english'::regconfig, coalesce(record->>'why', '')), 'B') ||
      setweight(to_tsvector('simple'::regconfig, coalesce(record->>'symbols', '') || ' ' || coalesce(record->>'files', '')), 'B') ||
      setweight(to_tsvector('english'::regconfig, left(coalesce(record->>'body', ''), 100000)), 'C')
    ) STORED,
    names text GENERATED ALWAYS AS (left(coalesce(record->>'title', '') || ' ' || coalesce(record->>'symbols', ''), 2000)) STORED,
    PRIMARY KEY (project, key)
  );
  CREATE UNIQUE INDEX memories_by_seq ON engram.memories (project, seq);
  CREATE INDEX memories_search ON engram.memories USING gin (project, search);
  CREATE INDEX memories_names ON engram.memories USING gin (project, names ${trgm}.gin_trgm_ops);
  CREATE TABLE engram.revisions (
    project text NOT NULL,
    key text NOT NULL,
    seq bigint NOT NULL,
    deleted boolean NOT NULL,
    record jsonb,
    hash text NOT NULL,
    author name NOT NULL,
    superseded_by name NOT NULL DEFAULT current_user,
    superseded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project, seq)
  );
  CREATE TABLE engram.grants (
    project text NOT NULL,
    role name NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project, role)
  );
  CREATE VIEW engram.my_projects WITH (security_barrier) AS
    SELECT g.project FROM engram.grants g JOIN pg_catalog.pg_roles r ON r.rolname = g.role
    WHERE pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER');
  ALTER TABLE engram.grants ENABLE ROW LEVEL SECURITY;
  CREATE POLICY own_grants ON engram.grants FOR SELECT
    USING (role IN (SELECT rolname FROM pg_catalog.pg_roles WHERE pg_catalog.pg_has_role(current_user, oid, 'MEMBER')));
  ALTER TABLE engram.memories ENABLE ROW LEVEL SECURITY;
  CREATE POLICY granted_projects ON engram.memories
    USING (project IN (SELECT g.project FROM engram.grants g JOIN pg_catalog.pg_roles r ON r.rolname = g.role WHERE pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER')))
    WITH CHECK (project IN (SELECT g.project FROM engram.grants g JOIN pg_catalog.pg_roles r ON r.rolname = g.role WHERE pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER')));
  ALTER TABLE engram.revisions ENABLE ROW LEVEL SECURITY;
  CREATE POLICY granted_projects ON engram.revisions
    USING (project IN (SELECT g.project FROM engram.grants g JOIN pg_catalog.pg_roles r ON r.rolname = g.role WHERE pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER')))
    WITH CHECK (project IN (SELECT g.project FROM engram.grants g JOIN pg_catalog.pg_roles r ON r.rolname = g.role WHERE pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER')));
  `,
];

export const HUB_SCHEMA_VERSION = STEPS.length;

/**
 * The newest memories first, for a search of every project: a word in a quarter of a million
 * memories read them all to find the newest 2,000 (teamSearch.ts), ~270 ms at 1,000,000; walking
 * the newest back until 2,000 match takes ~15 ms.
 */
const SEARCH_INDEXES: readonly string[] = ['CREATE INDEX IF NOT EXISTS memories_newest ON engram.memories (seq)'];

/** One number for `engram team init`'s advisory lock: two machines initialising at once take turns. */
const INIT_LOCK = 0x656e6772; // "engr"

export interface HubInitReport {
  readonly hubId: string;
  readonly from: number;
  readonly to: number;
}

/**
 * Creates or migrates the hub schema: idempotent (a second run changes nothing) and safe from two
 * machines at once (a transaction-level advisory lock, taken before anything is read, serialises
 * them; the second sees the first's version and has nothing to do). All steps or none.
 */
export async function initHub(client: HubClient): Promise<HubInitReport> {
  return inHubTransaction(client, async () => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [INIT_LOCK]);
    await client.query('CREATE SCHEMA IF NOT EXISTS engram');
    await client.query(`CREATE TABLE IF NOT EXISTS engram.hub (
      id integer PRIMARY KEY CHECK (id = 1),
      hub_id uuid NOT NULL DEFAULT gen_random_uuid(),
      version integer NOT NULL DEFAULT 0,
      migrated_at timestamptz NOT NULL DEFAULT now())`);
    await client.query('INSERT INTO engram.hub (id) VALUES (1) ON CONFLICT (id) DO NOTHING');
    const { rows } = await client.query<{ hub_id: string; version: number }>('SELECT hub_id, version FROM engram.hub WHERE id = 1 FOR UPDATE');
    const from = rows[0]!.version;
    if (from > HUB_SCHEMA_VERSION) throw new Error(`the hub's schema is version ${from}, newer than this Engram knows (${HUB_SCHEMA_VERSION}): update Engram`);
    // pg_trgm and btree_gin (trusted extensions: a database owner may create them) may already live in another schema.
    // btree_gin lets one GIN index hold the project with the words, so a project's search reads only its own rows.
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA engram');
    await client.query('CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA engram');
    const trgm = await client.query<{ schema: string }>(`SELECT quote_ident(n.nspname) AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`);
    for (let version = from; version < HUB_SCHEMA_VERSION; version++) await client.query(STEPS[version]!(trgm.rows[0]!.schema));
    if (from < HUB_SCHEMA_VERSION) await client.query('UPDATE engram.hub SET version = $1, migrated_at = now() WHERE id = 1', [HUB_SCHEMA_VERSION]);
    // Indexes that only make searches faster: every init adds those missing, with no new version,
    // since a hub without them answers the same (clients of every version keep syncing).
    for (const index of SEARCH_INDEXES) await client.query(index);
    // Every role may learn which hub this is and its version: clients check both before syncing.
    await client.query('GRANT USAGE ON SCHEMA engram TO PUBLIC');
    await client.query('GRANT SELECT ON engram.hub TO PUBLIC');
    return { hubId: rows[0]!.hub_id, from, to: HUB_SCHEMA_VERSION };
  });
}

/** The hub's id and schema version, or why it cannot sync (no schema yet, an older or newer one). */
export async function hubIdentity(client: HubClient): Promise<{ readonly hubId: string; readonly version: number }> {
  const exists = await client.query<{ present: boolean }>(`SELECT to_regclass('engram.hub') IS NOT NULL AS present`);
  if (!exists.rows[0]!.present) throw new Error('the database has no Engram hub schema: run `engram team init` once (as the database owner)');
  const { rows } = await client.query<{ hub_id: string; version: number }>('SELECT hub_id, version FROM engram.hub WHERE id = 1');
  const row = rows[0];
  if (!row) throw new Error('the hub schema is incomplete: run `engram team init`');
  if (row.version < HUB_SCHEMA_VERSION) throw new Error(`the hub's schema is version ${row.version}; this Engram needs ${HUB_SCHEMA_VERSION}: run \`engram team init\``);
  if (row.version > HUB_SCHEMA_VERSION) throw new Error(`the hub's schema is version ${row.version}, newer than this Engram knows (${HUB_SCHEMA_VERSION}): update Engram`);
  return { hubId: row.hub_id, version: row.version };
}
