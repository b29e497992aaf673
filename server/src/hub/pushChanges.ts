import type { Memory } from '../memory/types';
import type { Project } from '../project';
import type { HubLink, OutboxEntry } from '../store/hubSyncStore';
import { newTeamId, teamMarkOf, type TeamId } from '../team/teamMark';
import type { TeamRecord } from '../team/teamRecord';
import { inHubTransaction, type HubClient } from './hubConnection';
import { belongsOnHub, hubKeyFor, hubRecordOf, TOMBSTONE_HASH } from './hubRecord';

export type HubProject = Pick<Project, 'root' | 'store' | 'hub' | 'team' | 'transaction'>;

/** Memories per hub transaction: one round of statements carries them all. */
const PUSH_BATCH = 1000;

/** Per-project lock class of pushes (the second key is the project's hash). */
const PUSH_LOCK_CLASS = 0x656e67;

interface Change {
  readonly key: TeamId;
  readonly base: number;
  readonly deleted: boolean;
  readonly teamId: string | null;
  readonly record: TeamRecord | null;
  readonly hash: string;
  readonly memoryId: string;
}

/** What a queued memory asks of the hub: nothing, a new version under a key, a tombstone, or both (its key moved). */
function changesFor(memory: Memory | null, link: HubLink | null, syncAll: boolean, memoryId: string): Change[] {
  const tombstone = (key: TeamId): Change => ({ key, base: link?.hubSeq ?? 0, deleted: true, teamId: null, record: null, hash: TOMBSTONE_HASH, memoryId });
  if (memory?.status === 'archived') return [];
  if (!memory || !belongsOnHub(memory, syncAll)) return link && link.recordHash !== TOMBSTONE_HASH ? [tombstone(link.hubKey as TeamId)] : [];
  const key = hubKeyFor(memory, link?.hubKey ?? null) ?? newTeamId();
  const { record, hash } = hubRecordOf(memory, key);
  const moved = link && link.hubKey !== key && link.recordHash !== TOMBSTONE_HASH ? [tombstone(link.hubKey as TeamId)] : [];
  if (link && link.hubKey === key && link.recordHash === hash) return [];
  // The hub row says when its key is also a line of the team file: a clone holding that line links to it.
  const teamId = teamMarkOf(memory)?.id === key ? key : null;
  return [...moved, { key, base: link?.hubKey === key ? link.hubSeq : 0, deleted: false, teamId, record, hash, memoryId: memory.id }];
}

/**
 * One batch in one hub transaction, under the project's advisory lock so the sequence numbers it
 * takes are in commit order (a pull after N cannot miss a slower writer's N - 1). A version this
 * push overwrites without having seen it (another client's, newer than this one's base) is kept
 * in `revisions`: the hub's order decides which is current, nothing is lost. A change the hub
 * already has (a push repeated after a lost answer) writes nothing. Returns each key's version.
 */
async function pushBatch(client: HubClient, project: string, changes: readonly Change[]): Promise<Map<string, number>> {
  // One JSON parameter for the batch: node-postgres escapes a text[] element by element, far slower.
  const batch = JSON.stringify(changes.map((c) => ({ key: c.key, base: c.base, deleted: c.deleted, team_id: c.teamId, kind: c.record?.kind ?? null, record: c.record, hash: c.hash })));
  const rows = `jsonb_to_recordset($2::jsonb) AS i(key text, base bigint, deleted boolean, team_id text, kind text, record jsonb, hash text)`;
  return inHubTransaction(client, async () => {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PUSH_LOCK_CLASS, project]);
    await client.query(
      `INSERT INTO engram.revisions (project, key, seq, deleted, record, hash, author)
       SELECT m.project, m.key, m.seq, m.deleted, m.record, m.hash, m.author
       FROM engram.memories m JOIN ${rows} ON m.project = $1 AND m.key = i.key
       WHERE m.seq <> i.base AND m.hash <> i.hash
       ON CONFLICT DO NOTHING`,
      [project, batch],
    );
    const { rows: written } = await client.query<{ key: string; seq: string }>(
      `WITH upserted AS (
         INSERT INTO engram.memories AS m (project, key, seq, deleted, team_id, kind, record, hash)
         SELECT $1, i.key, nextval('engram.change_seq'), i.deleted, i.team_id, i.kind, i.record, i.hash FROM ${rows}
         ON CONFLICT (project, key) DO UPDATE SET seq = excluded.seq, deleted = excluded.deleted, team_id = excluded.team_id, kind = excluded.kind,
           record = excluded.record, hash = excluded.hash, author = current_user, written_at = now()
         WHERE m.hash <> excluded.hash
         RETURNING m.key, m.seq)
       SELECT key, seq FROM upserted`,
      [project, batch],
    );
    const versions = new Map(written.map((r) => [r.key, Number(r.seq)]));
    // Keys the hub already had as pushed (a push repeated after a lost answer): their current version.
    const unchanged = changes.filter((c) => !versions.has(c.key)).map((c) => c.key);
    if (unchanged.length) {
      const { rows: current } = await client.query<{ key: string; seq: string }>('SELECT key, seq FROM engram.memories WHERE project = $1 AND key = ANY($2::text[])', [project, unchanged]);
      for (const r of current) versions.set(r.key, Number(r.seq));
    }
    return versions;
  });
}

/**
 * Pushes the outbox: each queued memory as it is now (several local edits are one push), batch by
 * batch. A batch's queue entries go only after the hub committed it; a failure leaves them for
 * the next try, and pushing them again is harmless. Returns how many versions the hub was sent.
 */
export async function pushChanges(project: HubProject, client: HubClient, hubProject: string, syncAll: boolean): Promise<number> {
  let sent = 0;
  for (;;) {
    const entries = project.hub.nextEntries(PUSH_BATCH);
    if (!entries.length) return sent;
    const byKey = new Map<string, Change>();
    const plans: { entry: OutboxEntry; changes: Change[] }[] = [];
    for (const entry of entries) {
      const changes = changesFor(project.store.get(entry.memoryId), project.hub.linkOf(entry.memoryId), syncAll, entry.memoryId);
      plans.push({ entry, changes });
      for (const change of changes) byKey.set(change.key, change);
    }
    const versions = byKey.size ? await pushBatch(client, hubProject, [...byKey.values()]) : new Map<string, number>();
    sent += byKey.size;
    project.hub.pushed(
      plans.map(({ entry, changes }) => {
        const last = changes.at(-1);
        const current = last && byKey.get(last.key) === last ? last : undefined;
        const moved = changes.length > 1 ? changes[0]!.key : undefined;
        return {
          entry,
          link: current ? { memoryId: entry.memoryId, hubKey: current.key, hubSeq: versions.get(current.key) ?? 0, recordHash: current.hash } : null,
          ...(moved ? { unlinkKey: moved } : {}),
        };
      }),
    );
  }
}
