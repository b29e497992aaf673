import type { LanguageId } from './languages';

/** Languages with block comments (slash-star to star-slash); Python's and Ruby's `#` comments end with the line. */
const BLOCK_COMMENT_LANGUAGES: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript', 'go', 'rust', 'java', 'csharp', 'c', 'cpp']);

/**
 * Languages with preprocessor conditionals. A C prototype inside `#ifndef GUARD_H` is no
 * top-level declaration to the declaration query; cut out of its `#if`, it would be.
 */
const PREPROCESSOR_LANGUAGES: ReadonlySet<LanguageId> = new Set(['c', 'cpp', 'csharp']);

/** The characters the count looks at; Ruby also has heredocs (`<<`), `=begin` and line ends (ending a heredoc's opener line). */
const SPECIAL = /[\\"'`/()[\]{}]/g;
const PREPROCESSOR_SPECIAL = /[\\"'`/()[\]{}#]/g;
const RUBY_SPECIAL = /[\\"'`()[\]{}<=\n]/g;

/** A directive opening or closing a conditional: `#if`, `#ifdef`, `#ifndef`, `#endif`. */
const CONDITIONAL = /^#\s*(if|ifdef|ifndef|endif)\b/;

/** A Ruby heredoc's opener (`<<~SQL`, `<<-EOS`, `<<'EOS'`): its body is text up to the line holding only the name. */
const HEREDOC = /^<<([~-]?)(["'`]?)([A-Za-z_]\w*)\2/;

/**
 * Whether each of `indices` (ascending, at line starts) is at a point of `text` where every
 * bracket opened before it is closed, no multi-line string or block comment is open, and no
 * Ruby heredoc body is. A cheap count, not a lexer: brackets and quotes are counted wherever
 * they are, except inside block comments, Ruby heredocs and one-character literals ('"', "{").
 * A stray bracket or quote in a comment, string or regex makes it answer false from there on,
 * which costs a whole-file parse, not correctness. It answers true where the counts balance,
 * which the inside of a declaration, string or comment almost never does (two strays that
 * cancel out could); a region cut there would then mostly fail to parse cleanly as well.
 */
export function balancedAt(text: string, language: LanguageId, indices: readonly number[]): boolean {
  const blockComments = BLOCK_COMMENT_LANGUAGES.has(language);
  const ruby = language === 'ruby';
  const preprocessor = PREPROCESSOR_LANGUAGES.has(language);
  let round = 0;
  let curly = 0;
  let square = 0;
  let doubleQuotes = 0;
  let backticks = 0;
  let tripleDouble = 0;
  let tripleSingle = 0;
  let conditionals = 0;
  /** Where the body of a heredoc opened on the current line ends (-1: never), to skip it at the line's end. */
  let heredocBodyEnd: number | null = null;
  let next = 0;
  let index = 0;
  const special = ruby ? RUBY_SPECIAL : preprocessor ? PREPROCESSOR_SPECIAL : SPECIAL;
  while (next < indices.length) {
    const target = indices[next]!;
    while (index < target) {
      // Most characters count for nothing: jump to the next one that may.
      special.lastIndex = index;
      const found = special.exec(text);
      if (!found || found.index >= target) {
        index = target;
        break;
      }
      index = found.index;
      const code = text.charCodeAt(index);
      if (code === BACKSLASH) {
        index += 2;
      } else if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE || code === BACKTICK) {
        const literal = literalLength(text, index, code);
        if (literal > 0) index += literal;
        else if (text.charCodeAt(index + 1) === code && text.charCodeAt(index + 2) === code) {
          if (code === DOUBLE_QUOTE) tripleDouble++;
          else if (code === SINGLE_QUOTE) tripleSingle++;
          else backticks++;
          index += 3;
        } else {
          if (code === DOUBLE_QUOTE) doubleQuotes++;
          else if (code === BACKTICK) backticks++;
          // A lone ' is an apostrophe, a Rust lifetime or a one-line string: not counted.
          index++;
        }
      } else if (code === SLASH && blockComments && text.charCodeAt(index + 1) === STAR) {
        const close = text.indexOf('*/', index + 2);
        if (close === -1 || close + 2 > target) return false;
        index = close + 2;
      } else if (ruby && code === EQUALS && (index === 0 || text.charCodeAt(index - 1) === NEWLINE) && text.startsWith('=begin', index)) {
        const close = text.indexOf('\n=end', index);
        if (close === -1 || close + 1 >= target) return false;
        index = close + 5;
      } else if (ruby && code === LESS_THAN && HEREDOC.test(text.slice(index, index + 80))) {
        // The rest of the opener's line is code; the body starts on the next line. One heredoc per line.
        if (heredocBodyEnd !== null) return false;
        heredocBodyEnd = heredocEnd(text, index);
        index++;
      } else if (code === HASH && preprocessor) {
        const directive = atLineStart(text, index) ? CONDITIONAL.exec(text.slice(index, index + 16)) : null;
        if (directive) conditionals += directive[1] === 'endif' ? -1 : 1;
        index++;
      } else if (code === NEWLINE && heredocBodyEnd !== null) {
        if (heredocBodyEnd === -1 || heredocBodyEnd > target) return false;
        index = heredocBodyEnd;
        heredocBodyEnd = null;
      } else {
        if (code === OPEN_PAREN) round++;
        else if (code === CLOSE_PAREN) round--;
        else if (code === OPEN_CURLY) curly++;
        else if (code === CLOSE_CURLY) curly--;
        else if (code === OPEN_SQUARE) square++;
        else if (code === CLOSE_SQUARE) square--;
        index++;
      }
    }
    // A skip (escape, literal, comment) may have stepped over the target: then it is not at a clean point.
    if (index !== target || heredocBodyEnd !== null) return false;
    if (round !== 0 || curly !== 0 || square !== 0 || conditionals !== 0) return false;
    if (doubleQuotes % 2 !== 0 || backticks % 2 !== 0 || tripleDouble % 2 !== 0 || tripleSingle % 2 !== 0) return false;
    next++;
  }
  return true;
}

/** The length of a one-character literal starting at `index` (`'x'`, `"{"`, `'\''`), or 0. */
function literalLength(text: string, index: number, quote: number): number {
  const inner = text.charCodeAt(index + 1);
  if (inner === NEWLINE || inner === quote) return 0;
  if (inner === BACKSLASH) return text.charCodeAt(index + 3) === quote ? 4 : 0;
  return text.charCodeAt(index + 2) === quote ? 3 : 0;
}

/**
 * Where the body of the Ruby heredoc opened at `index` ends (the start of the line after its
 * terminator), or -1 when it does not end.
 */
function heredocEnd(text: string, index: number): number {
  const opener = HEREDOC.exec(text.slice(index, index + 80))!;
  const indented = opener[1] !== '';
  const name = opener[3]!;
  let line = text.indexOf('\n', index);
  while (line !== -1) {
    const start = line + 1;
    const end = text.indexOf('\n', start);
    const body = text.slice(start, end === -1 ? text.length : end).replace(/\r$/, '');
    if ((indented ? body.trim() : body) === name) return end === -1 ? text.length : end + 1;
    line = end;
  }
  return -1;
}

/** Whether only spaces and tabs come before `index` on its line. */
function atLineStart(text: string, index: number): boolean {
  let before = index - 1;
  while (before >= 0 && (text.charCodeAt(before) === SPACE || text.charCodeAt(before) === TAB)) before--;
  return before < 0 || text.charCodeAt(before) === NEWLINE;
}

const TAB = 9;
const NEWLINE = 10;
const SPACE = 32;
const DOUBLE_QUOTE = 34;
const HASH = 35;
const SINGLE_QUOTE = 39;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const STAR = 42;
const SLASH = 47;
const LESS_THAN = 60;
const EQUALS = 61;
const OPEN_SQUARE = 91;
const BACKSLASH = 92;
const CLOSE_SQUARE = 93;
const BACKTICK = 96;
const OPEN_CURLY = 123;
const CLOSE_CURLY = 125;
