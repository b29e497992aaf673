import type { SecretSpan } from './secretRules';

/** What every form of a value under a key name (keyedForms.ts, xmlKeyedForms.ts) is made of. */

export interface KeyName {
  readonly text: string;
  /** The sensitive word found, as written. */
  readonly word: string;
  /** Where the key name starts and ends (a run of [\w.-] around the sensitive word). */
  readonly start: number;
  readonly end: number;
  /** End of the sensitive word itself. */
  readonly wordEnd: number;
  /** Found by a weak word (`encryption_key`) or as a `keyName`, not by a sensitive one. */
  readonly kind: 'sensitive' | 'weak' | 'sibling';
}

interface FormBase {
  readonly rule: string;
  /** Cheap test of the characters around the name, before any regex runs. */
  readonly around?: (name: KeyName) => boolean;
  readonly accept?: (secret: string, name: KeyName) => boolean;
  /** Only for a `keyName`, whose value sits in a sibling field; no other form is tried for one. */
  readonly sibling?: true;
}

/** A value after the name, found by a regex. */
interface ValueAfter extends FormBase {
  /** Must match the text just before the name (anchored at its end); tried after `after`, which fails faster. */
  readonly before?: RegExp;
  /** Sticky: matched from the name's end (or the word's end), its first participating group the secret. */
  readonly after: RegExp;
  readonly from: 'name' | 'word';
  /** The value goes on over the lines below indented as deep as its first (a YAML block scalar). */
  readonly block?: true;
}

/** A value whose bounds a regex cannot tell in linear time (or that comes before the name), found by reading the text. */
interface ValueFound extends FormBase {
  readonly find: (name: KeyName) => SecretSpan | null;
}

export type Form = ValueAfter | ValueFound;

export const sticky = (source: string) => new RegExp(source, 'dy');
export const PAIR_VALUE = `"([^"\\r\\n]{1,1000})"|'([^'\\r\\n]{1,1000})'`;
export const isQuote = (c: string | undefined) => c === '"' || c === "'";
