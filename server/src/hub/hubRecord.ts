import type { Memory, MemoryKind } from '../memory/types';
import { isFromTeamFile, isShared, teamMarkOf, type TeamId } from '../team/teamMark';
import { lineHash, parseTeamLine, teamLine, teamRecordOf, type TeamRecord } from '../team/teamRecord';
import { isFromHub } from './hubMark';

/** With `engram.team.syncAll`, these kinds go to the hub too: the project's reasons, traps, facts and changes. */
export const SYNC_ALL_KINDS: readonly MemoryKind[] = ['decision', 'gotcha', 'fact', 'diff'];

/** The record of a deleted (forgotten, unshared, purged) memory: its text leaves the hub. */
export const TOMBSTONE_HASH = 'tombstone';

/**
 * Whether a memory belongs on the hub now. Shared memories always (the team file's notion of
 * shared, but not lines received from the file: the file is their source), memories received from
 * the hub, and with syncAll the kinds above. Never prompts, transcript summaries or anything a
 * user marked private (`meta.private`). Only active ones: archived is local, forgotten a tombstone.
 */
export function belongsOnHub(memory: Memory, syncAll: boolean): boolean {
  if (memory.status !== 'active') return false;
  if (memory.kind === 'intent' || memory.meta.private === true) return false;
  if (memory.source === 'claude' && memory.kind === 'summary') return false;
  if (isFromHub(memory)) return true;
  if (isShared(memory) && !isFromTeamFile(memory)) return true;
  return syncAll && SYNC_ALL_KINDS.includes(memory.kind);
}

/**
 * The key a memory has on the hub: its team id when it is in the team file (so a clone that has
 * it from the file and from the hub holds one memory), else the key it was given before.
 */
export function hubKeyFor(memory: Memory, linked: string | null): TeamId | null {
  return teamMarkOf(memory)?.id ?? (linked as TeamId | null);
}

/** A memory's hub record: the team file's portable form (redacted as stored), keyed by its hub key. */
export function hubRecordOf(memory: Memory, key: TeamId): { readonly record: TeamRecord; readonly hash: string } {
  const record = teamRecordOf(memory, key);
  return { record, hash: lineHash(teamLine(record)) };
}

/** A record from the hub, checked as a team file line is: a bad one is an error message, never a partial memory. */
export function parseHubRecord(value: unknown): { ok: true; record: TeamRecord } | { ok: false; error: string } {
  return parseTeamLine(JSON.stringify(value));
}
