import type { Memory } from '../memory/types';
import { teamSourceRef } from '../team/applyTeamFile';
import { memoryFromRecord, withRecordContent } from '../team/recordMemory';
import type { TeamId } from '../team/teamMark';
import { localMeta, type TeamRecord } from '../team/teamRecord';
import type { HubClient } from './hubConnection';
import { hubKeyFor, hubRecordOf, parseHubRecord, TOMBSTONE_HASH } from './hubRecord';
import type { HubProject } from './pushChanges';

/** Rows per pull page: one local transaction each, so the memory server never holds SQLite long. */
const PULL_PAGE = 1000;

interface HubRow {
  readonly seq: string;
  readonly key: string;
  readonly deleted: boolean;
  readonly team_id: string | null;
  readonly record: unknown;
}

export interface PullReport {
  readonly added: number;
  readonly updated: number;
  readonly removed: number;
  /** Rows whose record this Engram cannot read (a newer Engram's, or damaged): skipped, each named. */
  readonly problems: readonly string[];
}

function metaOf(record: TeamRecord, local: Memory['meta'], key: string): Record<string, unknown> {
  return { ...localMeta(local), ...record.meta, hub: { key, received: true } };
}

function received(root: string, record: TeamRecord, key: string, teamId: string | null): Memory {
  // The team file's ref when the memory is also in the file: a clone that later pulls the file holds one memory, not two.
  const sourceRef = teamId ? teamSourceRef(teamId as TeamId) : `hub:${key}`;
  return memoryFromRecord(root, record, sourceRef, metaOf(record, {}, key), Date.parse(record.createdAt));
}

function updated(root: string, local: Memory, record: TeamRecord, key: string): Memory {
  return {
    ...withRecordContent(root, local, record),
    // Archiving is this user's, and local: the team's new text arrives, the memory stays archived.
    status: local.status === 'archived' ? 'archived' : 'active',
    updatedAt: Math.max(Date.parse(record.updatedAt), local.updatedAt),
    meta: metaOf(record, local.meta, key),
  };
}

/** The local memory a hub key stands for: linked, or the same team id received from the file, or a received one whose link was lost. */
function localFor(project: HubProject, key: string, teamId: string | null): Memory | null {
  const link = project.hub.linkByKey(key);
  const linked = link && project.store.get(link.memoryId);
  if (linked) return linked;
  // Ids first (an index lookup each): most keys of a first pull are new, and reading a whole memory costs more.
  const id = (teamId ? project.hub.memoryIdBySourceRef(teamSourceRef(teamId as TeamId)) : null) ?? project.hub.memoryIdBySourceRef(`hub:${key}`);
  return id ? project.store.get(id) : null;
}

/** A memory changed here and not pushed yet: its push comes later in the hub's order and wins, so the pull leaves it. */
function changedHere(project: HubProject, memory: Memory): boolean {
  // An archived memory pushes nothing (archiving is local), so nothing of it is waiting to win.
  if (memory.status === 'archived' || !project.hub.isPending(memory.id)) return false;
  const link = project.hub.linkOf(memory.id);
  if (!link) return true;
  if (link.recordHash === TOMBSTONE_HASH) return memory.status === 'active';
  const key = hubKeyFor(memory, link.hubKey);
  return memory.status !== 'active' || !key || hubRecordOf(memory, key).hash !== link.recordHash;
}

/**
 * Pulls what the hub has after this store's cursor, page by page in hub order. Each page is one
 * local transaction that also moves the cursor, so a crash applies a page whole or not at all and
 * nothing is applied twice. This clone's own pushes come back and are recognised by their
 * version; a tombstone forgets the memory (kept locally, status forgotten).
 */
export async function pullChanges(project: HubProject, client: HubClient, hubProject: string): Promise<PullReport> {
  let added = 0;
  let changed = 0;
  let removed = 0;
  const problems: string[] = [];
  for (;;) {
    const cursor = project.hub.state().cursor;
    const { rows } = await client.query<HubRow>('SELECT seq, key, deleted, team_id, record FROM engram.memories WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3', [hubProject, cursor, PULL_PAGE]);
    if (!rows.length) break;
    project.hub.applyPulled(Number(rows.at(-1)!.seq), () => {
      for (const row of rows) {
        const seq = Number(row.seq);
        const link = project.hub.linkByKey(row.key);
        if (link && link.hubSeq >= seq) continue;
        const memory = localFor(project, row.key, row.team_id);
        if (memory && changedHere(project, memory)) continue;
        if (row.deleted) {
          if (!memory) continue;
          if (memory.status === 'active') {
            project.store.update({ ...memory, status: 'forgotten', updatedAt: Math.max(Date.now(), memory.updatedAt + 1) });
            removed++;
          }
          project.hub.setLink({ memoryId: memory.id, hubKey: row.key, hubSeq: seq, recordHash: TOMBSTONE_HASH });
          continue;
        }
        const parsed = parseHubRecord(row.record);
        if (!parsed.ok) {
          problems.push(`hub memory ${row.key} (version ${seq}): ${parsed.error}`);
          continue;
        }
        let stored: Memory;
        if (memory) {
          stored = project.store.update(updated(project.root, memory, parsed.record, row.key)) ?? memory;
          changed++;
        } else {
          // Hashed as it arrived: were the store's redaction to change it, the next push sends the redacted text.
          stored = received(project.root, parsed.record, row.key, row.team_id);
          project.store.import(stored);
          added++;
        }
        project.hub.setLink({ memoryId: stored.id, hubKey: row.key, hubSeq: seq, recordHash: hubRecordOf(stored, hubKeyFor(stored, row.key)!).hash });
      }
    });
    if (rows.length < PULL_PAGE) break;
  }
  return { added, updated: changed, removed, problems };
}
