import { languageForPath } from '../../server/src/symbols/languages';
import { blamedCommits, blameOfPorcelain } from './blame';
import { changedLinesOfPatch, locateAtSplit } from './changedLines';
import { commitMessages, git, gitLines } from './git';
import { evenSample, splitCommit } from './split';

/** One later commit's change to one file: the two questions asked about it and their right answers. */
export interface HistoryCase {
  /** The later commit C. */
  readonly commit: string;
  /** C's whole message: the prompt of query (b). */
  readonly message: string;
  /** F, as it is named at the split (and in the imported memories). */
  readonly file: string;
  /** The lines of F at the split that C changes (1-based). */
  readonly lines: readonly number[];
  /** The cursor of query (a): the first of them, and its text. */
  readonly cursorLine: number;
  readonly cursorText: string;
  /** The imported commits `git blame` at the split names for those lines. */
  readonly relevant: readonly string[];
}

export interface HistorySplit {
  readonly split: string;
  /** First-parent commits in all, and how many the split leaves before it (itself included). */
  readonly firstParent: number;
  readonly beforeSplit: number;
  /** Non-merge commits the split reaches: what the import brings in, with their messages. */
  readonly imported: ReadonlyMap<string, string>;
  /** Later non-merge commits, and the cases they gave (before any sampling). */
  readonly laterCommits: number;
  readonly allCases: number;
  readonly cases: readonly HistoryCase[];
}

/** Files of the split whose declarations Engram can name (the source files). */
function sourceFilesAt(root: string, split: string): Set<string> {
  return new Set(gitLines(root, ['ls-tree', '-r', '--name-only', split]).filter((f) => languageForPath(f) !== null));
}

/**
 * The split of a clone's history and the questions its later commits ask (docs/code-recall.md,
 * "On real code histories"): for every later non-merge commit C and source file F of the split
 * whose lines C changes (found at the split by their text), the lines' blamed commits that the
 * import holds. At most `maxCases`, evenly spaced in commit order when there are more.
 */
export function historyCases(root: string, maxCases: number): HistorySplit {
  const firstParent = gitLines(root, ['rev-list', '--first-parent', '--reverse', 'HEAD']);
  const split = splitCommit(firstParent);
  const imported = commitMessages(root, [split]);
  const later = commitMessages(root, ['--reverse', `${split}..HEAD`]);
  const importedShas = new Set(imported.keys());
  const sources = sourceFilesAt(root, split);
  const texts = new Map<string, string>();
  const blames = new Map<string, string[]>();
  const textAt = (file: string) => texts.get(file) ?? texts.set(file, git(root, ['show', `${split}:${file}`])).get(file)!;
  const blameAt = (file: string) => blames.get(file) ?? blames.set(file, blameOfPorcelain(git(root, ['blame', '--porcelain', split, '--', file]))).get(file)!;

  const cases: HistoryCase[] = [];
  for (const [commit, message] of later) {
    const patch = git(root, ['show', '--format=', '-U0', '-M', '--no-color', '--no-ext-diff', commit]);
    for (const change of changedLinesOfPatch(patch)) {
      if (!sources.has(change.path)) continue;
      const text = textAt(change.path);
      const lines = locateAtSplit(change.lines, text);
      if (!lines.length) continue;
      const relevant = blamedCommits(blameAt(change.path), lines, importedShas);
      if (!relevant.length) continue;
      const cursorLine = lines[0]!;
      cases.push({ commit, message, file: change.path, lines, cursorLine, cursorText: text.split('\n')[cursorLine - 1]!, relevant });
    }
  }
  return {
    split,
    firstParent: firstParent.length,
    beforeSplit: firstParent.indexOf(split) + 1,
    imported,
    laterCommits: later.size,
    allCases: cases.length,
    cases: evenSample(cases, maxCases),
  };
}
