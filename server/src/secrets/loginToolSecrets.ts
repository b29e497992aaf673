import type { PatternRule } from './secretRules';
import { isPlaceholderValue } from './secretValues';

/**
 * Secrets of login tools, marked by the tool's own syntax: an `expect` script's answer to a
 * password prompt, a Kerberos password piped to `ktutil`'s `addent -password` or given to a
 * program reading it from standard input in Python's `subprocess`, a password manager's session
 * (`BW_SESSION`, `OP_SESSION_…`), an AWS virtual MFA device's seed, a password written to the
 * Windows registry (`reg add … /v DefaultPassword … /d …`), a NATS user's NKEY seed block.
 */

/** A value that names where the secret is (`$password`, `${PW}`), not the secret. */
const accept = (secret: string) => !/^\$/.test(secret) && !isPlaceholderValue(secret);

/** Programs that read a password from standard input, as an argument list names them. */
const READS_STDIN_PASSWORD = /^\[[ \t]*["'](?:kinit|passwd|chpasswd|realm|adcli)["']|["'](?:-S|--password-stdin|--stdin)["']/;

export const LOGIN_TOOL_RULES: readonly PatternRule[] = [
  // `expect "password:"` then `send "…\r"` (Tcl's expect, pexpect's `expect('Password:')` / `sendline('…')`).
  {
    id: 'command-line-password',
    pattern:
      /expect(?<![\w-]expect)(?:[ \t]{1,4}(?:-(?:re|ex|gl)[ \t]{1,4})?|\([ \t]{0,4}r?)["'{][^"'}\r\n]{0,80}(?:[Pp]ass(?:word|phrase)|PASSWORD)[^"'}\r\n]{0,80}["'}][ \t]{0,4}\)?[ \t]*(?:\r?\n[ \t]*|;[ \t]*)(?:[\w.]{1,40}\.)?(?:send|sendline)(?:[ \t]{1,4}(?:--[ \t]{1,4})?|\([ \t]{0,4})["']([^"'\r\n]{1,200}?)(?:\\r|\\n)?["']/dg,
    gate: { keywords: ['pass'] },
    accept,
  },
  // MIT Kerberos' `ktutil`: `addent -password -p <principal> …` then the password as the next line or argument.
  { id: 'command-line-password', pattern: /addent[ \t]{1,4}-password[^'"\r\n]{0,200}['"][ \t]{1,4}['"]([^'"\r\n]{1,200})['"]/dg, gate: { keywords: ['pass'] }, accept },
  // Python's `subprocess.run(["kinit", …], input=b"…\n")`: the password fed to a program that reads one.
  {
    id: 'command-line-password',
    pattern: /\[[ \t]*["'][\w.-]{1,40}["'][^\]\r\n]{0,300}\][ \t]*,[^()\r\n]{0,200}?input[ \t]*=[ \t]*b?["']([^"'\\\r\n]{1,200})/dg,
    gate: { keywords: ['input'] },
    accept: (secret, text, span, matchStart) => READS_STDIN_PASSWORD.test(text.slice(matchStart, span.start)) && accept(secret),
  },
  // A password manager's unlocked session: Bitwarden's `BW_SESSION`, 1Password CLI v1's `OP_SESSION_<account>`.
  {
    id: 'generic-assignment',
    pattern: /(?:BW_SESSION|OP_SESSION_[A-Za-z0-9_]{1,60})["']?[ \t]{0,4}[=:][ \t]{0,4}["']?([A-Za-z0-9+/=_-]{20,400})/dg,
    gate: { keywords: ['bw_session', 'op_session'] },
    accept,
  },
  // An AWS virtual MFA device's TOTP seed as `create-virtual-mfa-device` returns it.
  { id: 'generic-assignment', pattern: /Base32StringSeed["']?[ \t]{0,4}[:=][ \t]{0,4}["']?([A-Z2-7]{16,128}=*)/dg, gate: { keywords: ['base32stringseed'] } },
  // A password written to the registry: `reg add "HKLM\…\Winlogon" /v DefaultPassword /t REG_SZ /d "…"`.
  {
    id: 'command-line-password',
    pattern:
      /reg(?<![\w-]reg)(?:\.exe)?[ \t]{1,4}add[^\r\n]{0,300}?[ \t]\/v[ \t]{1,4}["']?[\w.-]{0,40}(?:[Pp]assword|[Pp]asswd|[Ss]ecret|[Tt]oken)[\w.-]{0,40}["']?[^\r\n]{0,200}?[ \t]\/d[ \t]{1,4}(?:"([^"\r\n]{1,1000})"|'([^'\r\n]{1,1000})'|([^\s"']{1,1000}))/dgi,
    gate: { keywords: ['pass', 'secret', 'token'] },
    accept,
  },
  // A NATS credentials file's seed: `-----BEGIN USER NKEY SEED-----` then `SU…`.
  { id: 'private-key', pattern: /-{5,6}BEGIN (?:USER|ACCOUNT|OPERATOR) NKEY SEED-{5,6}\r?\n[ \t]*([A-Z0-9]{50,64})[ \t]*\r?\n/dg, gate: { keywords: ['nkey seed'] } },
];
