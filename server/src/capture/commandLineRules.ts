import { ARGUMENT_VALUE, REST_OF_COMMAND } from './secretPatterns';
import type { PatternRule } from './secretRules';
import { isPlaceholderValue } from './secretValues';

/**
 * Passwords given to a program on its command line by a short option, where no key name or
 * `=` marks them (`--password …` is a keyed secret, keyedSecrets.ts). Short options mean a
 * password only for the programs named: `docker run -p` is a port, `mkdir -p` a flag.
 */

const ATTACHED_VALUE = `"([^"\\r\\n]{1,1000})"|'([^'\\r\\n]{1,1000})'|([^\\s"'\`;&|]{1,1000})`;

const FORMS = [
  // docker, podman, helm registry, az…: `login … -p …`.
  `login(?![\\w-])${REST_OF_COMMAND} -p(?: {1,4}|=)(?:${ARGUMENT_VALUE})`,
  // MySQL's clients take the password attached: `-pSecret` (`-p secret` prompts, and `secret` is the database).
  `(?:mysql(?:dump|admin|import|check|show|slap|pump|sh)?|mariadb(?:-dump|-admin)?)(?![\\w-])${REST_OF_COMMAND} -p(?:${ATTACHED_VALUE})`,
  `sshpass(?: {1,4}-[a-oq-zA-Z]\\S{0,100}){0,4} {1,4}-p {0,4}(?:${ARGUMENT_VALUE})`,
  `redis-cli(?![\\w-])${REST_OF_COMMAND} -a {1,4}(?:${ARGUMENT_VALUE})`,
  // `curl -u user:…`, `curl --user "user:…"`, HTTPie's `http -a user:…`.
  `(?:curl|http)(?= )${REST_OF_COMMAND} (?:-u|--user|--proxy-user|-U|-a|--auth)(?: {1,4}|=)?["']?[^\\s:"'\`]{0,100}:([^\\s"'\`]{1,1000})`,
];

/** One regex for every form: one scan of a text that has options in it, not one per program. */
export const COMMAND_LINE_RULES: readonly PatternRule[] = [
  {
    id: 'command-line-password',
    pattern: new RegExp(
      // OpenSSL's pass phrase arguments take a `pass:` source: `-passin pass:…`, `-passout pass:…`.
      `(?<![\\w-])(?:${FORMS.join('|')})| -(?:pass|passin|passout|password|k|kpass) {1,4}pass:([^\\s"'\`;&|]{1,1000})`,
      'dg',
    ),
    // Parts of the programs' names (`sql` of mysql, `pass` of sshpass and `pass:`) that start with a
    // letter other keywords start with: see KEYWORD_GATE.
    gate: { keywords: ['login', 'sql', 'ariadb', 'pass', 'edis-cli', 'curl', 'http '] },
    accept: (secret) => !secret.startsWith('-') && !isPlaceholderValue(secret),
  },
];
