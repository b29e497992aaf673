import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Redactor } from '../../server/src/secrets/redact';
import { REDACTION_FINGERPRINT, REDACTION_VERSION } from '../../server/src/secrets/redactionVersion';
import { redactorIdentity } from '../../server/src/store/redactionSweep';
import { redactionFingerprint } from '../support/redactionFingerprint';

describe('the redaction version', () => {
  it('changes with what the rules find: a store checked by older rules is swept again', () => {
    const fingerprint = redactionFingerprint();
    assert.equal(
      fingerprint,
      REDACTION_FINGERPRINT,
      `The redaction rules changed. In server/src/secrets/redactionVersion.ts, bump REDACTION_VERSION (now ${REDACTION_VERSION}) ` +
        `and set REDACTION_FINGERPRINT to '${fingerprint}': stores checked by the old rules are then swept.`,
    );
  });

  it("names the user's own patterns too, so adding one sweeps what was stored before it", () => {
    const builtIn = redactorIdentity(new Redactor());
    assert.equal(builtIn, `v${REDACTION_VERSION}`);
    const withPattern = redactorIdentity(new Redactor([/ACME-\d{6}/g]));
    assert.match(withPattern, new RegExp(`^v${REDACTION_VERSION}\\+user:[0-9a-f]{12}$`));
    assert.notEqual(redactorIdentity(new Redactor([/ACME-\d{7}/g])), withPattern);
    assert.equal(redactorIdentity(new Redactor([/ACME-\d{6}/g])), withPattern, 'the same patterns, the same identity');
  });
});
