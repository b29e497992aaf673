import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { redactSecrets } from '../../server/src/secrets/redact';
import { SECRET_RULES } from '../../server/src/secrets/secretRules';
import { REPO_ROOT } from './engramProcess';
import { loadSecretSet, type SecretSet } from './secretCorpus';

/**
 * What the built-in redaction rules are, as far as a store cares: every rule's id, gate and
 * pattern, and what they make of every labeled case (test/fixtures/secrets/). Scanning rules are
 * known by what they do to the cases, not by their code: a refactor that finds the same keeps it.
 */
export function redactionFingerprint(): string {
  const digest = createHash('sha256');
  for (const rule of SECRET_RULES) {
    digest.update(`${rule.id}\0${JSON.stringify(rule.gate)}\0${'pattern' in rule ? `${rule.pattern.source}/${rule.pattern.flags}` : 'scan'}\0`);
  }
  // Every set there is, a round added later included.
  const sets = readdirSync(path.join(REPO_ROOT, 'test', 'fixtures', 'secrets')).filter((name) => name.endsWith('.jsonl')).sort();
  for (const set of sets.map((name) => name.replace(/\.jsonl$/, '') as SecretSet)) {
    for (const c of loadSecretSet(set)) digest.update(`${c.id}\0${redactSecrets(c.text).text}\0`);
  }
  return digest.digest('hex').slice(0, 16);
}
