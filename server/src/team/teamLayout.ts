import type { TeamId } from './teamMark';
import { parseTeamLine, teamLine, type TeamRecord } from './teamRecord';

/**
 * The team file's text: a section line for each first character an id can have, and under it the
 * memories whose ids start with it, sorted. Ids are random from their first character, so two
 * memories shared on two branches usually fall in different sections; git merges insertions at
 * two places cleanly when an unchanged line lies between them, and the section lines are that line
 * even while the file holds few memories (measured in docs/team.md: without them two adds to a file
 * of three memories conflicted about half the time). The same memory edited on two branches is
 * one line changed on both: a normal conflict on that line.
 */
export const SECTION_KEYS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function sectionLine(key: string): string {
  return `{"section":"${key}"}`;
}

const SECTION_LINE = /^\{"section":"([0-9A-HJKMNP-TV-Z])"\}$/;
/** What git leaves in a file it could not merge (diff3 style included). */
const CONFLICT_MARKER = /^(?:<{7}|={7}|>{7}|\|{7})(?: |$)/;

/** The whole file for these records: sections in order, each record once, sorted by id, LF endings. */
export function renderTeamFile(records: readonly TeamRecord[]): string {
  const bySection = new Map<string, TeamRecord[]>();
  for (const record of records) {
    const key = record.id.charAt(2);
    const list = bySection.get(key);
    if (list) list.push(record);
    else bySection.set(key, [record]);
  }
  const lines: string[] = [];
  for (const key of SECTION_KEYS) {
    lines.push(sectionLine(key));
    for (const record of (bySection.get(key) ?? []).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) lines.push(teamLine(record));
  }
  return `${lines.join('\n')}\n`;
}

export interface TeamFileLine {
  readonly record: TeamRecord;
  /** The line as it is in the file (without its line break): what a clone hashes to notice a change. */
  readonly text: string;
  /** 1-based. */
  readonly lineNumber: number;
}

export interface TeamFileProblem {
  /** 1-based. */
  readonly lineNumber: number;
  readonly message: string;
}

export interface TeamFileContents {
  /** Every good line, by id; an id on two lines is in neither (a problem on both). */
  readonly records: ReadonlyMap<TeamId, TeamFileLine>;
  readonly problems: readonly TeamFileProblem[];
  /** Git left conflict markers in it. */
  readonly conflicted: boolean;
}

/**
 * Reads the team file leniently: every good line counts, each bad one is a problem with its line
 * number (conflict markers, lines that are not memories, an id on two lines). Blank lines and
 * CR before LF (a checkout with autocrlf) are accepted.
 */
export function readTeamFile(text: string): TeamFileContents {
  const good = new Map<TeamId, TeamFileLine>();
  const twice = new Map<TeamId, number[]>();
  const problems: TeamFileProblem[] = [];
  let conflicted = false;
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const lineNumber = index + 1;
    if (!line.trim() || SECTION_LINE.test(line)) return;
    if (CONFLICT_MARKER.test(line)) {
      conflicted = true;
      problems.push({ lineNumber, message: 'a conflict marker: git could not merge this file; keep the lines you want, remove the markers and commit' });
      return;
    }
    const parsed = parseTeamLine(line);
    if (!parsed.ok) {
      problems.push({ lineNumber, message: `not a memory: ${parsed.error}` });
      return;
    }
    const { id } = parsed.record;
    const first = good.get(id);
    const seen = twice.get(id);
    if (first) {
      good.delete(id);
      twice.set(id, [first.lineNumber, lineNumber]);
    } else if (seen) seen.push(lineNumber);
    else good.set(id, { record: parsed.record, text: line, lineNumber });
  });
  for (const [id, lines] of twice) {
    for (const lineNumber of lines) problems.push({ lineNumber, message: `${id} is on lines ${lines.join(', ')} (changed on two branches?): keep one of them` });
  }
  problems.sort((a, b) => a.lineNumber - b.lineNumber);
  return { records: good, problems, conflicted };
}
