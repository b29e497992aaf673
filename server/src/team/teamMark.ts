import { randomBytes } from '../util/hashing';
import { isFromHub } from '../hub/hubMark';
import type { Memory } from '../memory/types';

declare const teamIdBrand: unique symbol;
/** A shared memory's id in the team file: the same in every clone, unlike the local memory id. */
export type TeamId = string & { readonly [teamIdBrand]: true };

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TEAM_ID_PATTERN = /^t_[0-9A-HJKMNP-TV-Z]{20}$/;

/**
 * Random from its first character, not time-ordered like memory ids: the team file is sorted by
 * id, and memories shared at the same time on two branches must land in different parts of it
 * (teamLayout.ts), or git's merge sees two insertions at one place and conflicts.
 */
export function newTeamId(): TeamId {
  const random = randomBytes(20);
  let id = 't_';
  for (const byte of random) id += CROCKFORD[byte % 32];
  return id as TeamId;
}

export function isTeamId(value: string): value is TeamId {
  return TEAM_ID_PATTERN.test(value);
}

/**
 * What a local memory knows of the team file, kept in `meta.team` (local only, never written to
 * the file): its team id; `line`, the hash of its line when the store and the file last agreed;
 * `received` when its text came from the file (written by whoever pushed it: origin "team");
 * `gone` when its line left the file (unshared by a teammate, or a checkout without it).
 */
export interface TeamMark {
  readonly id: TeamId;
  readonly line?: string;
  readonly received?: true;
  readonly gone?: true;
}

export function teamMarkOf(memory: Pick<Memory, 'meta'>): TeamMark | null {
  const team = memory.meta.team as Partial<TeamMark> | undefined;
  return team && typeof team === 'object' && typeof team.id === 'string' && isTeamId(team.id) ? (team as TeamMark) : null;
}

/** Shared with the team now: in the team file as this clone has it, or received from the team hub. */
export function isShared(memory: Pick<Memory, 'meta'>): boolean {
  const mark = teamMarkOf(memory);
  return (mark !== null && !mark.gone) || isFromHub(memory);
}

/** Its text is the team file's, not this user's: agents are told it comes from the team. */
export function isFromTeamFile(memory: Pick<Memory, 'meta'>): boolean {
  return teamMarkOf(memory)?.received === true;
}

export function withTeamMark(meta: Memory['meta'], mark: TeamMark | null): Record<string, unknown> {
  const { team: _team, ...rest } = meta;
  return mark ? { ...rest, team: { ...mark } } : rest;
}
