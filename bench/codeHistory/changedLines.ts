/** A line a commit removed or rewrote, as it read in the commit's parent (1-based). */
export interface ChangedLine {
  readonly line: number;
  readonly text: string;
}

/** The lines a commit changed in one file, named by the file's path in the parent. */
export interface FileChange {
  readonly path: string;
  readonly lines: readonly ChangedLine[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/** A path of a `--- a/…` line; null for /dev/null or a path git had to quote (not a file name we can ask about). */
function oldPathOf(header: string): string | null {
  const name = header.slice(4).replace(/\t$/, '');
  if (name === '/dev/null' || !name.startsWith('a/')) return null;
  return name.slice(2);
}

/**
 * The lines each file of a zero-context patch (`git show -U0`) removed or rewrote, numbered as in
 * the parent. Pure additions change no existing line and give none.
 */
export function changedLinesOfPatch(patch: string): FileChange[] {
  const files: FileChange[] = [];
  let current: { path: string; lines: ChangedLine[] } | null = null;
  let oldLine = 0;
  let inHunk = false;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      inHunk = false;
      current = null;
    } else if (!inHunk && line.startsWith('--- ')) {
      const path = oldPathOf(line);
      current = path === null ? null : { path, lines: [] };
      if (current) files.push(current);
    } else if (line.startsWith('@@')) {
      const match = HUNK.exec(line);
      inHunk = match !== null;
      if (match) oldLine = Number(match[1]);
    } else if (inHunk && line.startsWith('-')) {
      current?.lines.push({ line: oldLine, text: line.slice(1) });
      oldLine++;
    } else if (inHunk && line.startsWith(' ')) oldLine++;
  }
  return files.filter((f) => f.lines.length);
}

/** A line worth finding by its text: it holds a word of three letters or more (not `}`, `);` or a comment mark). */
export function isDistinctive(text: string): boolean {
  return /[\p{L}_][\p{L}\p{N}_]{2,}/u.test(text);
}

/**
 * Where each changed line is in the file at the split: a line with the same text (whitespace at
 * either end aside), the nearest one to where it was in the parent when there are several. Lines
 * not found (written after the split) and lines without a word are left out. 1-based, ascending,
 * each once.
 */
export function locateAtSplit(changed: readonly ChangedLine[], splitText: string): number[] {
  const byText = new Map<string, number[]>();
  splitText.split('\n').forEach((text, i) => {
    const key = text.trim();
    const list = byText.get(key);
    if (list) list.push(i + 1);
    else byText.set(key, [i + 1]);
  });
  const found = new Set<number>();
  for (const { line, text } of changed) {
    if (!isDistinctive(text)) continue;
    const candidates = byText.get(text.trim());
    if (!candidates) continue;
    let best = candidates[0]!;
    for (const c of candidates) if (Math.abs(c - line) < Math.abs(best - line)) best = c;
    found.add(best);
  }
  return [...found].sort((a, b) => a - b);
}
