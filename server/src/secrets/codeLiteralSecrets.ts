import { holdsSecret } from './keyNames';
import type { PatternRule } from './secretRules';
import { isPlaceholderValue } from './secretValues';

/**
 * Secrets given to a name in a language's own syntax rather than by `name = value`: Fortran's
 * `DATA DBPASS /'…'/`, Nix's `pkgs.writeText "restic-pw" ''…''` (a file whose name says what it
 * holds), and the password Terraform's `random_password` made, as its state keeps it (`result`).
 */

const accept = (secret: string) => !isPlaceholderValue(secret);

export const CODE_LITERAL_RULES: readonly PatternRule[] = [
  // Fortran's DATA statement: the name, then its value between slashes.
  {
    id: 'generic-assignment',
    pattern: /DATA(?<![\w]DATA)[ \t]{1,4}[A-Za-z][A-Za-z0-9_]{0,30}[ \t]{0,4}\/[ \t]{0,4}'([^'\r\n]{1,200})'[ \t]{0,4}\//dg,
    gate: { keywords: ['pass', 'pwd', 'secret', 'token', 'key'] },
    accept: (secret, text, span, matchStart) => {
      const name = /^DATA[ \t]{1,4}([A-Za-z][A-Za-z0-9_]{0,30})/.exec(text.slice(matchStart, span.start))?.[1] ?? '';
      return (holdsSecret(name) || /PASS|PWD|SECRET|TOKEN/i.test(name)) && accept(secret);
    },
  },
  // Nix: `pkgs.writeText "restic-pw" ''…''` or `"…"`, a store file named for a password, key or token.
  {
    id: 'generic-assignment',
    pattern: /writeText(?<![\w]writeText)[ \t]{1,4}"[^"\r\n]{0,60}(?:pw|pwd|pass|password|secret|token|key)[^"\r\n]{0,60}"[ \t]{1,4}(?:''([^'\r\n]{1,1000}?)''|"([^"\r\n]{1,1000})")/dg,
    gate: { keywords: ['writetext'] },
    accept,
  },
  // A Terraform state's `random_password`: its `result` (and `bcrypt_hash`, which logs in as well) a few lines on.
  {
    id: 'generic-assignment',
    pattern: /"type"[ \t]{0,4}:[ \t]{0,4}"random_password"[^\]]{0,2000}?"(?:result|bcrypt_hash)"[ \t]{0,4}:[ \t]{0,4}"([^"\r\n]{1,1000})"/dg,
    gate: { keywords: ['andom_password'] },
    accept,
  },
];
