const HEADER = /^([0-9a-f]{40}) \d+ (\d+)(?: \d+)?$/;

/**
 * The commit `git blame --porcelain` names for each line of the file (index 0 = line 1). Content
 * lines start with a tab, so only group headers match.
 */
export function blameOfPorcelain(porcelain: string): string[] {
  const shas: string[] = [];
  for (const line of porcelain.split('\n')) {
    const match = HEADER.exec(line);
    if (match) shas[Number(match[2]) - 1] = match[1]!;
  }
  return shas;
}

/** The distinct commits blamed for the given lines (1-based) that are in `imported`, in line order. */
export function blamedCommits(blame: readonly string[], lines: readonly number[], imported: ReadonlySet<string>): string[] {
  const commits = new Set<string>();
  for (const line of lines) {
    const sha = blame[line - 1];
    if (sha && imported.has(sha)) commits.add(sha);
  }
  return [...commits];
}
