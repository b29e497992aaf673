import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where a project's shared memories live, relative to its root: committed with the code. */
export const TEAM_FOLDER = '.engram';
export const TEAM_FILE = `${TEAM_FOLDER}/memories.jsonl`;
const TEAM_README = `${TEAM_FOLDER}/README.md`;

export function teamFilePath(root: string): string {
  return path.join(root, ...TEAM_FILE.split('/'));
}

/** The file's text, or null when the project has none. */
export function readTeamFileText(root: string): string | null {
  try {
    return readFileSync(teamFilePath(root), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** What changes when git (or anyone) replaces the file: cheap to ask every second. */
export function teamFileStamp(root: string): string {
  try {
    const stat = statSync(teamFilePath(root), { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
}

const README = `# Engram team memory

\`memories.jsonl\` holds the memories this project's developers shared with the team through
Engram (the VS Code extension engram-dev.engram): constraints, decisions, gotchas and facts tied to
the code. Each line is one memory; Engram in each clone reads the file after a checkout, pull,
merge or rebase, and shows the memories in the editor (hover, CodeLens, the memory panel) and gives
them to coding agents where they apply, marked as coming from the team.

Review changes to it like code: a pinned constraint here is a rule every teammate's agent is given.
Engram writes it when someone shares, edits or unshares a memory; the \`{"section":…}\` lines let git
merge memories added on two branches without a conflict. A conflict in it is resolved as in any
file: keep the lines you want. \`engram team status\` lists problems.
`;

/** Written whole under a temporary name, then renamed: a reader never sees half a file. */
function writeWhole(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.writing`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** Writes the file (and the folder's README the first time): only ever because a person shared, edited or unshared. */
export function writeTeamFileText(root: string, text: string): void {
  mkdirSync(path.join(root, TEAM_FOLDER), { recursive: true });
  const readme = path.join(root, ...TEAM_README.split('/'));
  try {
    statSync(readme);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    writeWhole(readme, README);
  }
  writeWhole(teamFilePath(root), text);
}
