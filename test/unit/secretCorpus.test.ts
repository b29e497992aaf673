import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactSecrets } from '../../server/src/secrets/redact';
import { FIRST_RUNS, loadSecretSet, OPEN_CASES, scanControl, SECRET_SETS, secretFragments, type SecretCase } from '../support/secretCorpus';

/*
 * The labeled sets of test/fixtures/secrets/ (README there). Each held-out round was written
 * after the rules of its time and measured once before any rule was tuned on it (FIRST_RUNS);
 * the rules are tuned on every set since, so each case must be redacted (or kept) as labeled.
 * The next round, written after the last rule change, is the honest measure of it.
 */

const preview = (text: string) => JSON.stringify(text.length > 70 ? `${text.slice(0, 69)}…` : text);

/** The value, or enough of it to matter (secretFragments), left in the redacted text. */
function storedPart(c: SecretCase): string | undefined {
  const { text } = redactSecrets(c.text);
  return c.secret === null ? undefined : secretFragments(c.secret).find((fragment) => text.includes(fragment));
}

for (const set of SECRET_SETS) {
  describe(`secret set ${set} (the rules are tuned on it)`, () => {
    for (const c of loadSecretSet(set)) {
      if (OPEN_CASES.has(c.id)) {
        it(`still gets ${c.id} wrong, a known open case: ${preview(c.text)}`, () => {
          const wrong = c.secret === null ? redactSecrets(c.text).text !== c.text : storedPart(c) !== undefined;
          assert.ok(wrong, `${c.id} is handled now: drop it from OPEN_CASES`);
        });
      } else if (c.secret !== null) {
        it(`redacts the ${c.kind} secret of ${c.id}: ${preview(c.text)}`, () => {
          assert.equal(storedPart(c), undefined);
          assert.match(redactSecrets(c.text).text, /\[REDACTED:[a-z-]+\]/);
        });
      } else {
        it(`leaves look-alike ${c.id} as written: ${preview(c.text)}`, () => {
          assert.equal(redactSecrets(c.text).text, c.text);
        });
      }
    }
  });
}

describe('held-out rounds: what their first runs were measured on', () => {
  for (const [set, firstRun] of Object.entries(FIRST_RUNS)) {
    it(`${set} holds enough of both to measure, and its recorded first run names its own cases`, () => {
      const cases = loadSecretSet(set as keyof typeof FIRST_RUNS);
      const secrets = new Set(cases.filter((c) => c.secret !== null).map((c) => c.id));
      const lookAlikes = new Set(cases.filter((c) => c.secret === null).map((c) => c.id));
      assert.ok(secrets.size >= 80 && lookAlikes.size >= 20, `${secrets.size} secrets, ${lookAlikes.size} look-alikes`);
      assert.ok(firstRun.stored.every((id) => secrets.has(id)));
      assert.ok(firstRun.lookAlikesRedacted.every((id) => lookAlikes.has(id)));
    });
  }

  it('the scan control is a secret no rule knows: it is stored as written', () => {
    const control = scanControl();
    assert.equal(redactSecrets(control.text).text, control.text);
  });
});
