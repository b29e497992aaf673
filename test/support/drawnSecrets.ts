import assert from 'node:assert/strict';
import { redactSecrets } from '../../server/src/secrets/redact';

/*
 * Secret-shaped values drawn at run time from a seeded generator, for the redaction tests:
 * realistic lengths and alphabets, the same in every run, and no token-shaped literal in the
 * source for push protection or scanners to flag.
 */

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const HEX = '0123456789abcdef';
export const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const BASE64 = `${ALNUM}+/`;
export const URL_SAFE = `${ALNUM}_-`;

/** A generator of numbers in [0, 1), the same sequence for the same seed (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Values drawn from one seeded sequence. */
export function secretDrawer(seed: number) {
  const random = seededRandom(seed);
  const chars = (alphabet: string, length: number): string => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
    return out;
  };
  return {
    /** `length` characters of `alphabet`. */
    chars,
    /** The same, ending in a capital, a small letter and a digit where the alphabet has them, as a drawn key nearly always does. */
    drawn: (alphabet: string, length: number): string => `${chars(alphabet, length - 3)}${alphabet === HEX ? 'a7e' : alphabet === UPPER ? 'Q7Z' : 'Qz7'}`,
  };
}

/** Each line, redacted, is `expected`: the secret's span replaced, the rest as written. */
export function assertRedacts(cases: readonly (readonly [line: string, expected: string])[]): void {
  for (const [line, expected] of cases) assert.equal(redactSecrets(line).text, expected, line);
}

/** Each line is stored as written, with no redaction. */
export function assertKeeps(lines: readonly string[]): void {
  for (const line of lines) assert.deepEqual(redactSecrets(line), { text: line, redactions: [] }, line);
}
