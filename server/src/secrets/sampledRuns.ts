/**
 * Runs of characters `min` long or more in a text, found by reading one character in every `min`
 * (each such run covers one of them) and measuring the runs through those, until `visit` returns
 * true: a fraction of the work of reading every character. The gate's longest token run, the
 * prefixed tokens and the bare high-entropy strings all start from them.
 */
export function forEachRun(text: string, min: number, isCharacter: (c: number) => boolean, visit: (start: number, end: number) => boolean | void): void {
  for (let i = min - 1; i < text.length; i += min) {
    if (!isCharacter(text.charCodeAt(i))) continue;
    let start = i;
    let end = i + 1;
    while (start > 0 && isCharacter(text.charCodeAt(start - 1))) start--;
    while (end < text.length && isCharacter(text.charCodeAt(end))) end++;
    // On to the first sampled character past this run.
    i += Math.floor((end - 1 - i) / min) * min;
    // A visitor that returns true has found what it looked for.
    if (end - start >= min && visit(start, end) === true) return;
  }
}

/** Whether a text holds a run of `min` characters or more: forEachRun's reading, stopping at the first. */
export function hasRun(text: string, min: number, isCharacter: (c: number) => boolean): boolean {
  let found = false;
  forEachRun(text, min, isCharacter, () => (found = true));
  return found;
}

/** [A-Za-z0-9_-], the characters of a token run (the gates' `tokenRun`), by character code. */
export function isTokenRunCharacter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}
