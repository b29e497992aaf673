/**
 * Stored text made inert for the context block agents are given (contextBlock.ts): one line,
 * nothing that opens a tag, fence or quote of the block, so a memory can neither close the block
 * nor forge a header or an item. What it says stays readable; it just cannot be structure.
 */

/** Whitespace of every kind, U+0085 (NEL) included, which `\s` leaves out. */
const WHITESPACE = /[\s\u0085]+/g;
/**
 * Controls, format characters (zero-width spaces and joiners, bidirectional overrides, Unicode
 * tag characters) and variation selectors: invisible, so they can hide text or split a
 * delimiter (`<\u200B/engram-memory>`) without a reader seeing it.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/gu;
/** `<` and the characters that look like it: with none left, no tag can open. */
const TAG_OPENERS = /[<\uFF1C\uFE64\u2329\u3008\u27E8\u276C\u276E\u02C2\u1438]/g;
/** The block's quotes and their look-alikes: a memory cannot end its own quotation. */
const QUOTES = /[«»\u300A\u300B\u226A\u226B\u27EA\u27EB]/g;
/** Fences (``` or ~~~) would start a code block if a line ever began with one. */
const FENCES = /`{3,}|~{3,}/g;
/** The block's delimiter name (with any dash), so even an escaped tag never spells it. */
const DELIMITER_NAME = /engram[-_\u2010-\u2015\u2212\uFE63\uFF0D]memory/gi;

/** The text as one inert line, cut to `max` characters. */
export function inertText(text: string, max: number): string {
  // A summary's body can be 20,000 characters; a few times `max` is plenty to fill `max` after collapsing.
  const flat = text
    .slice(0, max * 4)
    .replace(WHITESPACE, ' ')
    .replace(INVISIBLE, '')
    .replace(/ {2,}/g, ' ')
    .replace(TAG_OPENERS, '‹')
    .replace(QUOTES, '"')
    .replace(FENCES, "'''")
    .replace(DELIMITER_NAME, 'engram memory')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
