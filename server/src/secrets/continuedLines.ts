import { lastAtOrBelow } from '../util/sortedSearch';

/**
 * Text as the program that reads it sees it, where a secret is written in pieces: a command
 * continued over lines (`\` in shells, a backtick in PowerShell, `^` in cmd: `--password \` then
 * the value), a string literal cut in two and concatenated (`'sk_live_' +` then `'…'`), a
 * quoted-printable line broken with `=`, a text inside a JSON string (its `\n` and `\"` escaped).
 * The rules read the joined text too; what they find there is redacted in the text as written.
 */
export interface JoinedLines {
  readonly text: string;
  /** The position in the original text of a position in the joined one. */
  readonly original: (joined: number) => number;
}

// A space, the continuation character, the line break and the next line's indentation become
// one space (a backtick or `\` glued to a word ends a Markdown fence or a C macro's line).
const CONTINUATION = /(?:[ \t]|(?<==))[\\`^]\r?\n[ \t]*/g;
// A literal's closing quote, the `+` and the next literal's opening quote are dropped.
const CONCATENATION = /(["'])[ \t]*\+[ \t]*(?:\r?\n[ \t]*)?\1/g;
const SOFT_BREAK = /=\r?\n/g;
/** A JSON string's escapes (a transcript's tool call, a file's text inside JSON): `\n`, `\"` and the rest read as what they stand for. */
const ESCAPE = /\\[nrt"\\/]/g;
const UNESCAPED: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\', '/': '/' };
/**
 * A command written as a list of its arguments (`subprocess.run(["curl", "-u", "…"])`, a
 * container's `command: ["mysqldump", "-p…"]`, Go's `exec.Command("docker", "login", "-p", "…")`):
 * a list that starts with a word and holds an option, or names a program that takes a password by
 * position (Ansible's `"cmd": ["rabbitmqctl", "add_user", "u", "…"]`). Its separators become spaces.
 */
const POSITIONAL_PROGRAM = /["'](?:rabbitmqctl|htpasswd|net|poetry|mkstore|wpa_passphrase)["']/;
const ARGUMENT_LIST = /(?:[[(]|-ArgumentList[ \t]{1,4})[ \t]*(?:\r?\n[ \t]*)?(["'])[\w./-]{1,60}\1(?:[ \t]*,[ \t]*(?:\r?\n[ \t]*)?(["'])[^"'\r\n]{0,300}\2){1,60}/g;
/**
 * A program and its argument list given apart, joined into one command: R's `system2("curl",
 * c("-u", "…"))`, PowerShell's `Start-Process -FilePath "…\mysqldump.exe" -ArgumentList "-p…"`.
 */
const PROGRAM_THEN_ARGUMENTS = /system2?\([ \t]*["'][\w./-]{1,60}(["'][ \t]*,[ \t]*(?:args[ \t]*=[ \t]*)?c\([ \t]*["'])|-FilePath[ \t]{1,4}["'][^"'\r\n]{1,300}(["'][ \t]{1,4}-ArgumentList[ \t]{1,4}["'])/dg;
const ARGUMENT_SEPARATOR = /(["'])[ \t]*,[ \t]*(?:\r?\n[ \t]*)?(["'])/g;
/*
 * Whether a text has any: each line break, or `+`, looked at where indexOf finds it (a search for
 * one character is the fastest scan there is; most text holds no join, and a regex that could
 * start at any character costs redaction ~7 %).
 */
function continues(text: string): boolean {
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    const end = text.charCodeAt(at - 1) === 13 ? at - 1 : at;
    const c = text.charCodeAt(end - 1);
    // After a space, or a `=` (`KEY=\` and the value on the next line).
    if ((c === 92 || c === 96 || c === 94) && end >= 2 && [32, 9, 61].includes(text.charCodeAt(end - 2))) return true;
  }
  return false;
}

function concatenates(text: string): boolean {
  for (let at = text.indexOf('+'); at !== -1; at = text.indexOf('+', at + 1)) {
    let before = at - 1;
    while (before > 0 && (text.charCodeAt(before) === 32 || text.charCodeAt(before) === 9)) before--;
    const c = text.charCodeAt(before);
    if (c === 34 || c === 39) return true;
  }
  return false;
}

/**
 * Text written inside a JSON string: an escaped line break (the keyed rules stop a value there and
 * leave the names after it to this reading), or two escaped quotes. Most text holds neither.
 */
function escapesJson(text: string): boolean {
  if (text.includes('\\n')) return true;
  const quote = text.indexOf('\\"');
  return quote >= 0 && text.indexOf('\\"', quote + 2) >= 0;
}

interface Join {
  readonly index: number;
  readonly length: number;
  readonly replacement: string;
}

function joinsOf(pattern: RegExp, text: string, replacement: string, joins: Join[]): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) joins.push({ index: match.index, length: match[0].length, replacement });
}

/**
 * The lines around each place joined, joined (a few lines, not the whole text: the rules read
 * them again), or none when nothing is to be joined (most text).
 */
export function joinContinuedLines(text: string): JoinedLines[] {
  const joins: Join[] = [];
  if (continues(text)) joinsOf(CONTINUATION, text, ' ', joins);
  if (concatenates(text)) joinsOf(CONCATENATION, text, '', joins);
  if (text.includes('=\n') && /uoted-printable|UOTED-PRINTABLE/.test(text)) joinsOf(SOFT_BREAK, text, '', joins);
  if (text.includes('"-') || text.includes("'-") || ((text.includes('",') || text.includes("',")) && POSITIONAL_PROGRAM.test(text))) argumentLists(text, joins);
  // A JSON string's escapes are a reading of their own: a backslash a command doubles (`net use \\\\host`) is no escape there.
  const escapes: Join[] = [];
  if (escapesJson(text)) {
    ESCAPE.lastIndex = 0;
    for (let match = ESCAPE.exec(text); match; match = ESCAPE.exec(text)) escapes.push({ index: match.index, length: 2, replacement: UNESCAPED[match[0][1]!]! });
  }
  return [...piecesOf(text, joins), ...piecesOf(text, escapes)];
}

function piecesOf(text: string, joins: Join[]): JoinedLines[] {
  if (joins.length === 0) return [];
  joins.sort((a, b) => a.index - b.index);
  const pieces: JoinedLines[] = [];
  for (let first = 0; first < joins.length; ) {
    // From the start of the first join's line to the end of the line the last one leads onto.
    const from = text.lastIndexOf('\n', joins[first]!.index - 1) + 1;
    let last = first;
    let to = lineEnd(text, joins[last]!);
    while (last + 1 < joins.length && joins[last + 1]!.index <= to) {
      const next = joins[++last]!;
      // A join within the line leads onto no other (a JSON string's escapes: thousands on one line).
      if (next.index + next.length > to || holdsBreak(text, next)) to = lineEnd(text, next);
    }
    pieces.push(joined(text, from, to, joins.slice(first, last + 1)));
    first = last + 1;
  }
  return pieces;
}

function argumentLists(text: string, joins: Join[]): void {
  PROGRAM_THEN_ARGUMENTS.lastIndex = 0;
  for (let call = PROGRAM_THEN_ARGUMENTS.exec(text); call; call = PROGRAM_THEN_ARGUMENTS.exec(text)) {
    const [start, end] = call.indices![1] ?? call.indices![2]!;
    joins.push({ index: start, length: end - start, replacement: ' ' });
  }
  ARGUMENT_LIST.lastIndex = 0;
  for (let list = ARGUMENT_LIST.exec(text); list; list = ARGUMENT_LIST.exec(text)) {
    if (!/["']-/.test(list[0]) && !POSITIONAL_PROGRAM.test(list[0])) continue;
    ARGUMENT_SEPARATOR.lastIndex = 0;
    for (let separator = ARGUMENT_SEPARATOR.exec(list[0]); separator; separator = ARGUMENT_SEPARATOR.exec(list[0])) {
      joins.push({ index: list.index + separator.index, length: separator[0].length, replacement: ' ' });
    }
  }
}

/** Whether a join's own characters hold a line break (a join is a few characters). */
function holdsBreak(text: string, join: Join): boolean {
  for (let i = join.index; i < join.index + join.length; i++) if (text.charCodeAt(i) === 10) return true;
  return false;
}

function lineEnd(text: string, join: Join): number {
  const end = text.indexOf('\n', join.index + join.length);
  return end < 0 ? text.length : end;
}

function joined(text: string, from: number, to: number, joins: readonly Join[]): JoinedLines {
  // Where each joined stretch starts, in both texts.
  const joinedStarts: number[] = [0];
  const originalStarts: number[] = [from];
  const parts: string[] = [];
  let copied = from;
  let joinedLength = 0;
  for (const join of joins) {
    if (join.index < copied) continue;
    parts.push(text.slice(copied, join.index), join.replacement);
    joinedLength += join.index - copied + join.replacement.length;
    copied = join.index + join.length;
    joinedStarts.push(joinedLength);
    originalStarts.push(copied);
  }
  parts.push(text.slice(copied, to));
  const original = (position: number): number => {
    const stretch = lastAtOrBelow(joinedStarts, position);
    return originalStarts[stretch]! + (position - joinedStarts[stretch]!);
  };
  return { text: parts.join(''), original };
}
