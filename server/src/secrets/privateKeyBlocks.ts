import type { SecretSpan } from './secretRules';

const PEM_BEGIN = /-----BEGIN ([A-Z0-9]{1,20} ){0,2}PRIVATE KEY( BLOCK)?-----/g;
/**
 * Whole lines of base64, PEM headers (`Proc-Type: 4,ENCRYPTED`) or nothing, ended by real or
 * JSON-escaped newlines or by the ellipsis of a text cut short; or a line of 16 base64
 * characters or more followed by a space and the next (a title or summary flattens a block
 * onto one line), or by the END line with no break at all. Each line must end where it is
 * tried, so the scan never backtracks far.
 */
const PEM_LINES =
  /(?:[ \t]*(?:[A-Za-z0-9+/=]{16,}(?:[ \t]+(?=[A-Za-z0-9+/=]|-----END)|(?=-----END))|(?:(?:[A-Za-z0-9+/=]+|[A-Za-z-]{1,30}: [^\r\n\\]{0,200})[ \t]*)?(?:\r?\n|\\(?:r\\)?n|$|(?=…))))*/y;
const PEM_END = /[ \t]*-----END ([A-Z0-9]{1,20} ){0,2}PRIVATE KEY( BLOCK)?-----/y;

const MAX_BLOCK = 20000;

/**
 * Where the next END line starts at or after `from` (or -1), remembered across the blocks of one
 * text: searched again only once `from` has passed it, so headers repeated without END cost one scan.
 */
function endFinder(text: string): (from: number) => number {
  let found = -2;
  return (from) => {
    if (found !== -1 && found < from) found = text.indexOf('-----END ', from);
    return found;
  };
}

/** The end of the END line that closes a block whose body is not base64 (`super secret key here`), when no BEGIN comes first. */
function closingEnd(text: string, from: number, nextEnd: number, nextBegin: number): number | undefined {
  if (nextEnd < 0 || nextEnd - from > MAX_BLOCK || (nextBegin >= 0 && nextBegin < nextEnd)) return undefined;
  PEM_END.lastIndex = nextEnd;
  return PEM_END.test(text) ? PEM_END.lastIndex : undefined;
}

const BLANK_LINE = /\r?\n[ \t]*\r?\n/g;

/**
 * Where a block with no END stops: after its last line of key material; but a body that is not
 * base64 (`yabba dabba doo`), on the line below the BEGIN line or its key lines with no blank
 * line between, goes on to the next blank line or the end of the text.
 */
function unclosedEnd(text: string, bodyStart: number, from: number): number {
  let end = from;
  const bodyGoesOn = text[from - 1] === '\n' && from < text.length && !/[\r\n]/.test(text[from]!) && !text.startsWith('-----', from);
  if (bodyGoesOn && !/\n[ \t]*\r?\n/.test(text.slice(bodyStart, from))) {
    const window = text.slice(from, from + MAX_BLOCK);
    BLANK_LINE.lastIndex = 0;
    const blank = BLANK_LINE.exec(window);
    end = from + (blank ? blank.index : window.length);
  }
  while (end > bodyStart && /\s/.test(text[end - 1]!)) end--;
  return end;
}

/**
 * PEM private-key blocks, BEGIN through END: a regex cannot find them in linear time. A block
 * cut short (no END after its key lines) is redacted through its last line of key material,
 * since a partial key is still a leak; one whose body is not key material, through its paragraph.
 */
export function findPrivateKeyBlocks(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const nextEnd = endFinder(text);
  const nextBegin = (from: number) => text.indexOf('-----BEGIN ', from);
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin; begin = PEM_BEGIN.exec(text)) {
    PEM_LINES.lastIndex = begin.index + begin[0].length;
    PEM_LINES.test(text);
    PEM_END.lastIndex = PEM_LINES.lastIndex;
    const from = PEM_LINES.lastIndex;
    const end = PEM_END.test(text) ? PEM_END.lastIndex : closingEnd(text, from, nextEnd(from), nextBegin(from)) ?? unclosedEnd(text, begin.index + begin[0].length, from);
    if (!holdsPlaceholder(text.slice(begin.index, end))) spans.push({ start: begin.index, end });
    PEM_BEGIN.lastIndex = Math.max(end, PEM_BEGIN.lastIndex);
  }
  return spans;
}

/**
 * A block (its BEGIN and END lines included or not) whose body only says where a key goes: `...`, `xxx`, `YOUR_PRIVATE_KEY_CONTENT_HERE`,
 * `<key>` (a README's or a template's), or says it is none (`this is not a private key`). Words
 * of any other kind may be a key typed by hand.
 */
export function holdsPlaceholder(block: string): boolean {
  const body = block.replace(/^-----BEGIN [^-]{1,60}-----/, '').replace(/-----END [^-]{1,60}-----[\s\S]*$/, '').replace(/\\n|\s/g, '');
  return /^(?:\.{2,}|…|[xX]{3,}|<[^<>]{1,60}>|(?:YOUR|INSERT|PASTE)_?[A-Z_]{0,60}|[A-Z_]{1,60}_HERE)$/.test(body) || /^thisisnota/i.test(body);
}
