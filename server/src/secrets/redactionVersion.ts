/**
 * The version of what the built-in redaction rules find. Texts are redacted as they are stored,
 * by the rules of that day; a store records the version that last checked its texts, and one
 * checked by an older version is swept again (store/redactionSweep.ts).
 *
 * Bump it with every change to what the rules find. test/unit/redactionVersion.test.ts holds
 * the rules to it: it fails when their fingerprint (every rule's id, gate and pattern, and what
 * they make of every labeled case in test/fixtures/secrets/) is not REDACTION_FINGERPRINT, and
 * prints the new fingerprint to put here with the bumped version.
 */
export const REDACTION_VERSION = 8;

export const REDACTION_FINGERPRINT = 'ab6a358f7122accd';
