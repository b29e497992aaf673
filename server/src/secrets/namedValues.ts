import type { FoundSecret } from './secretRules';
import { isSensitiveKeyName } from './keyNames';
import { isSecretUnderKey } from './secretValues';

/**
 * A value whose name is a sibling field of the same entry, in either order and with anything
 * between: an ECS task's `{"value": "…", "name": "DB_PASSWORD"}`, a Terraform `env` block's
 * `name = "…"`, comments, then `value = "…"`, CloudFormation's `Tags` (`- Value: "…"` then
 * `Key: "…"`), the same in JSON escaped inside a string (an agent's tool-call arguments). A YAML
 * value folded over more-indented lines is taken whole.
 */

const NAME_FIELD = /(?<![\w-])\\{0,3}["']?(?:name|Name|NAME|key|Key|KEY)\\{0,3}["']?[ \t]{0,4}[:=][ \t]{0,4}\\{0,3}["']?([A-Za-z_][\w.-]{0,80})/g;
const VALUE_FIELD = /(?<![\w-])\\{0,3}["']?(?:value|Value|VALUE)\\{0,3}["']?[ \t]{0,4}[:=][ \t]{0,4}(?:(\\{1,3})"((?:[^"\\\r\n]|\\[^"\r\n]){1,4096}?)\1"|"([^"\r\n]{1,4096})"|'([^'\r\n]{1,4096})'|([^\s"',}\]]{1,4096}))/dg;
/** How far an entry reaches from its name, at most, each way. */
const REACH = 400;

/** Where the entry around `at` starts and ends: its braces, or a YAML list item's `- `. */
function entryAround(text: string, at: number, end: number): [number, number] {
  const from = Math.max(0, at - REACH);
  const before = text.slice(from, at);
  // An HTML tag is an entry too: `<input name="password" …>` and the next tag's `value="Login"` are not one.
  const open = Math.max(before.lastIndexOf('{'), before.lastIndexOf('['), before.lastIndexOf('<'), before.search(/\n[ \t]*- (?![\s\S]*\n[ \t]*- )/));
  const after = text.slice(end, end + REACH);
  const stops = [after.indexOf('}'), after.indexOf(']'), after.indexOf('>'), after.search(/\n[ \t]*- /)].filter((i) => i >= 0);
  return [open >= 0 ? from + open : from, stops.length ? end + Math.min(...stops) : end + after.length];
}

/** A YAML plain value goes on over the lines below indented deeper than its key, holding no `: `. */
function foldedEnd(text: string, valueEnd: number, keyIndent: number): number {
  let end = valueEnd;
  for (;;) {
    const line = /^\r?\n([ \t]*)([^\r\n]*)/.exec(text.slice(end, end + 4200));
    if (!line || line[1]!.length <= keyIndent || !line[2] || /: |^- |^#/.test(line[2])) return end;
    end += line[0].length;
  }
}

export function findNamedValues(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  NAME_FIELD.lastIndex = 0;
  for (let name = NAME_FIELD.exec(text); name; name = NAME_FIELD.exec(text)) {
    if (!isSensitiveKeyName(name[1]!)) continue;
    const [from, to] = entryAround(text, name.index, name.index + name[0].length);
    const entry = text.slice(from, to);
    VALUE_FIELD.lastIndex = 0;
    for (let value = VALUE_FIELD.exec(entry); value; value = VALUE_FIELD.exec(entry)) {
      const group = [2, 3, 4, 5].find((g) => value![g] !== undefined)!;
      const start = from + value.indices![group]![0];
      let end = from + value.indices![group]![1];
      if (group === 5) {
        const lineStart = text.lastIndexOf('\n', from + value.index) + 1;
        end = foldedEnd(text, end, /^[ \t]*/.exec(text.slice(lineStart))![0].length);
      }
      if (isSecretUnderKey(name[1]!, text.slice(start, end), text, { start, end })) found.push({ start, end });
      break;
    }
  }
  return found;
}
