/** Characters a POSIX shell never treats specially in a word. */
const PLAIN_WORD = /^[A-Za-z0-9_\/.:@%+=,-]+$/;

/**
 * One word for sh and bash, whatever it holds (spaces, quotes, `$`, `&`, parentheses, non-ASCII):
 * single quotes keep everything literal but a single quote, which is closed, escaped and reopened.
 */
export function posixQuote(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A path as a POSIX shell on that OS takes it: Git Bash on Windows understands `C:/Users/…` and
 * `//server/share/…`, whereas backslashes are escapes to it.
 */
export function toShellPath(file: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? file.replace(/\\/g, '/') : file;
}

/**
 * The program a shell command starts, unquoted: its first word, in any of the quotings Engram
 * writes or wrote ('…' with '\'' escapes, "…" with \" escapes, or bare). Null when it cannot tell.
 */
export function commandProgram(command: string): string | null {
  let word = '';
  let i = 0;
  const text = command.trimStart();
  while (i < text.length && !/\s/.test(text[i]!)) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return null;
      word += text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1]!)) j++;
        word += text[j];
      }
      if (j >= text.length) return null;
      i = j + 1;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[i + 1];
      i += 2;
    } else {
      word += c;
      i++;
    }
  }
  return word || null;
}
