import { ARGUMENT_VALUE, KEYWORD, REST_OF_COMMAND } from './secretPatterns';
import type { FoundSecret, PatternRule, ScanRule } from './secretRules';
import { isSensitiveKeyName } from './keyNames';
import { isPlaceholderValue } from './secretValues';

/**
 * Passwords given to a program on its command line by a short option or by position, where no
 * key name or `=` marks them (`--password …` is a keyed secret, keyedSecrets.ts), or fed to its
 * standard input (`echo '…' | sudo -S`). Short options and positions mean a password only for
 * the programs named: `docker run -p` is a port, `mkdir -p` a flag, `sqlcmd -P` a password.
 */

const ATTACHED_VALUE = `"([^"\\r\\n]{1,1000})"|'([^'\\r\\n]{1,1000})'|([^\\s"'\`;&|]{1,1000})`;

/** A quoted value attached to its option: `-p'…'` (`-pValue` unquoted is a login's only). */
const QUOTED_ATTACHED = `"([^"\\r\\n]{1,1000})"|'([^'\\r\\n]{1,1000})'`;

/** A word of a command: quoted, or up to the next space or shell operator. */
const WORD = `(?:"[^"\\r\\n]{1,200}"|'[^'\\r\\n]{1,200}'|[^\\s"'\`;&|]{1,200})`;

/** `sudo -S`: sudo reading the password from its standard input. */
const SUDO_S = `sudo(?<![\\w-]sudo)(?: {1,4}-[A-Za-z]{1,10}| {1,4}--[a-z-]{1,30})*? {1,4}-[A-Za-z]{0,9}S(?![\\w-])`;
/**
 * A command that reads a password from its standard input: `sudo -S`, `docker login --password-stdin`, `passwd --stdin`,
 * `chpasswd`, `gh auth login --with-token`, `wrangler secret put`, `gh secret set`, Kerberos' `kinit`, `realm join`, `adcli join`.
 */
const READS_PASSWORD = `(?:${SUDO_S}|[^\\r\\n;&|<]{0,200}?(?:--password-stdin|--stdin|chpasswd|--with-token|secrets? {1,4}(?:put|set|create)|kinit|(?:realm|adcli) {1,4}join)(?![\\w-]))`;

/**
 * A program's name, as a word of its own. The look-behind comes after the letters: a regex that
 * starts with a look-behind is tried at every character, one that starts with letters only where
 * they are.
 */
function program(names: string): string {
  return `(?:${names})(?<![\\w-](?:${names}))(?![\\w-])`;
}

/** A password option's forms, with the keywords (lowercase, in every match) that gate them. */
const FORMS: readonly (readonly [keywords: readonly string[], form: string])[] = [
  // docker, podman, helm registry, az…: `login … -p …`.
  [['login'], `${program('login')}${REST_OF_COMMAND} -p(?:(?: {1,4}|=)(?:${ARGUMENT_VALUE})|${QUOTED_ATTACHED}|([^\\s"'\`;&|-][^\\s"'\`;&|]{3,1000}))`],
  // `vault login <token>` (a method's `-method=…` and `key=value` pairs are not one).
  [['vault'], `${program('vault')} {1,4}login(?: {1,4}-[\\w-]{1,30}(?:=\\S{1,200})?)*? {1,4}(?!-)["']?([A-Za-z0-9._-]{8,1000})["']?(?=\\s|$)`],
  // `vault operator unseal <key>`: a share of the key that opens the whole store.
  [['vault'], `${program('vault')} {1,4}operator {1,4}unseal(?: {1,4}-[\\w-]{1,30}(?:=\\S{1,200})?)*? {1,4}(?!-)["']?([A-Za-z0-9+/=_-]{20,200})["']?(?=\\s|$)`],
  // Mosquitto's clients: `mosquitto_pub -u user -P …`.
  [['mosquitto'], `${program('mosquitto_(?:pub|sub|rr)')}${REST_OF_COMMAND} (?:-P|--pw)(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  // Codecov's uploader: `codecov -t …`, `bash <(curl -s https://codecov.io/bash) -t …`.
  [['codecov'], `codecov${REST_OF_COMMAND} -t {1,4}(?:${ARGUMENT_VALUE})`],
  // Snyk's token: `snyk config set api=…`, `snyk auth …`.
  [['snyk'], `${program('snyk')} {1,4}(?:config {1,4}set {1,4}api=|auth {1,4}(?!-))(?:${ARGUMENT_VALUE})`],
  // A password command that only prints it: restic's `--password-command "echo …"`.
  [['password-command'], `--password-command(?: {1,4}|=)(?:"echo {1,4}([^"\\r\\n]{1,1000})"|'echo {1,4}([^'\\r\\n]{1,1000})')`],
  // MySQL's clients take the password attached: `-pSecret` (`-p secret` prompts, and `secret` is the database);
  // SQL Server's tools take `-P` (`-p` is a port or a flag elsewhere).
  [
    ['sql', 'ariadb', 'bcp'],
    `${program('mysql(?:dump|admin|import|check|show|slap|pump|sh)?|mariadb(?:-dump|-admin)?')}${REST_OF_COMMAND} -p(?:${ATTACHED_VALUE})` +
      `|${program('sqlcmd|bcp|osql|isql')}${REST_OF_COMMAND} -P {0,4}(?:${ARGUMENT_VALUE})`,
  ],
  [['sshpass'], `${program('sshpass')}(?: {1,4}-[a-oq-zA-Z]\\S{0,100}){0,4} {1,4}-p {0,4}(?:${ARGUMENT_VALUE})`],
  [['edis-cli'], `${program('redis-cli')}${REST_OF_COMMAND} -a {1,4}(?:${ARGUMENT_VALUE})`],
  // `curl -u user:…`, `curl --user "user:…"` (`curl.exe` in PowerShell), HTTPie's `http -a user:…` and `https -a user:…`.
  [
    ['curl', 'http ', 'https '],
    // A command continued over lines (`\\` at each end); the user and the password each quoted or not, the quotes
    // perhaps escaped (`curl -u \\"user:…\\"` in a tool call's JSON arguments).
    `${program('curl|https?')}(?:\\.exe)?(?= )(?:[^\\r\\n;&|]|\\\\\\r?\\n){0,300}?\\s(?:-[A-Za-z]{0,6}u|--user|--proxy-user|-U|-a|--auth)(?: {1,4}|=)?\\$?\\\\{0,7}["']?[^\\s:"'\`\\\\]{0,100}["']?:["']?([^\\s"'\`]{1,1000}?)(?=\\\\{0,7}["'\`]|\\s|$)`,
  ],
  // Registry credentials as one `user:password` option: skopeo's `--creds`, `--src-creds`, `--dest-creds`.
  [['creds'], `--(?:src-|dest-)?creds(?: {1,4}|=)["']?[^\\s:"'\`]{1,100}:([^\\s"'\`]{1,1000})`],
  // MongoDB's shells and tools, OpenLDAP's `-w`, Sysinternals' `-p`.
  [['mongo'], `${program('mongo(?:sh|dump|restore|export|import|stat|top|files)?')}${REST_OF_COMMAND} -p(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  [['ldap'], `${program('ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop|url)')}${REST_OF_COMMAND} -w {1,4}(?:${ARGUMENT_VALUE})`],
  [['psexec', 'paexec'], `${program('(?:psexec|paexec|PsExec|PSEXEC|PAEXEC)(?:64)?(?:\\.exe|\\.EXE)?')}${REST_OF_COMMAND} -p {1,4}(?:${ARGUMENT_VALUE})`],
  // Java's key stores: `keytool -storepass …`, `jarsigner -keypass …`.
  [['keytool', 'arsigner'], `${program('keytool|jarsigner')}${REST_OF_COMMAND} -(?:src|dest)?(?:store|key)pass {1,4}(?:${ARGUMENT_VALUE})`],
  // `openssl enc -k …`; OpenSSL's pass phrase arguments take a `pass:` source: `-passin pass:…`, apksigner's `--ks-pass pass:…`.
  [['penssl'], `${program('openssl')}${REST_OF_COMMAND} -k {1,4}(?!pass:)(?:${ARGUMENT_VALUE})`],
  [['pass:'], ` -(?:pass|passin|passout|password|k|kpass|-ks-pass|-key-pass) {1,4}pass:([^\\s"'\`;&|]{1,1000})`],
  // `ssh-keygen -p -P old -N new`.
  [['ssh-keygen'], `${program('ssh-keygen')}${REST_OF_COMMAND} -[NP] {1,4}(?:${ARGUMENT_VALUE})`],
  // User then password by position: `rabbitmqctl add_user u …`, `htpasswd -b[c] [file] u …`, `net user u …`, `net use \\\\h\\s …`.
  [['bbitmqctl'], `${program('rabbitmqctl')}${REST_OF_COMMAND} (?:add_user|change_password) {1,4}${WORD} {1,4}(?:${ARGUMENT_VALUE})`],
  [
    ['htpasswd'],
    `${program('htpasswd')}(?=(?: {1,4}-[A-Za-z]{1,7}){0,3}? {1,4}-[A-Za-z]{0,6}b)(?:(?: {1,4}-[A-Za-mo-z]{1,7}){1,4} {1,4}${WORD}|(?: {1,4}-[A-Za-z]{1,7}){1,4}) {1,4}${WORD} {1,4}(?:${ARGUMENT_VALUE})`,
  ],
  [
    ['et use'],
    `${program('net')} {1,4}user {1,4}${WORD} {1,4}(?!/)(?:${ARGUMENT_VALUE})` +
      `|${program('net')} {1,4}use(?: {1,4}(?:[A-Za-z]:|\\*))? {1,4}\\\\\\\\\\S{1,200}(?: {1,4}/u(?:ser)?:\\S{1,100})? {1,4}(?!/)(?:${ARGUMENT_VALUE})`,
  ],
  // The same arguments logged without the program (a scheduled task's `Action arguments: use Z: \\\\h\\s /user:… …`).
  [[': \\\\'], `(?<![\\w-])use {1,4}(?:[A-Za-z]:|\\*) {1,4}\\\\\\\\\\S{1,200} {1,4}/u(?:ser)?:\\S{1,100} {1,4}(?!/)(?:${ARGUMENT_VALUE})`],
  // FreeRDP's `/p:…`; the VS Code and Open VSX publishers' `-p`/`--pat`; MinIO's `mc alias set name url access secret`.
  [['freerdp'], `${program('[xw]freerdp3?|sdl-freerdp3?')}${REST_OF_COMMAND} /p:(?:${ATTACHED_VALUE})`],
  [['vsce', 'ovsx'], `${program('vsce|ovsx')}${REST_OF_COMMAND} (?:-p|--pat)(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  [['mc alias', 'mc config'], `${program('mc')} {1,4}(?:alias {1,4}set|config {1,4}host {1,4}add) {1,4}${WORD} {1,4}${WORD} {1,4}${WORD} {1,4}(?:${ARGUMENT_VALUE})`],
  // Wi-Fi passphrases: `wpa_passphrase ssid "…"`, `nmcli … password "…"` (a passphrase may hold spaces).
  [['wpa_passphrase'], `${program('wpa_passphrase')} {1,4}${WORD} {1,4}(?:${ARGUMENT_VALUE})`],
  [['nmcli'], `${program('nmcli')}${REST_OF_COMMAND} (?:password|wifi-sec\\.psk) {1,4}(?:${ARGUMENT_VALUE})`],
  // `user,password` and `user%password` pairs: lftp, Samba's clients and `net ads|rpc`.
  [['lftp'], `${program('lftp')}${REST_OF_COMMAND} -u {1,4}["']?[^\\s"',]{1,100},["']?([^\\s"']{1,1000})`],
  [
    ['smb', 'net ads', 'net rpc'],
    `(?:${program('smbclient|rpcclient|smbcacls|smbget|smbmap')}|${program('net')} {1,4}(?:ads|rpc))${REST_OF_COMMAND} (?:-U|--user(?:name)?)(?: {1,4}|=)["']?[^\\s"'%]{1,100}%([^\\s"']{1,1000})`,
  ],
  // Bundler's credentials for a gem source: `bundle config [set] enterprise.contribsys.com user:password`.
  [['bundle'], `${program('bundle')} {1,4}config(?: {1,4}set)?(?: {1,4}--[\\w-]{1,20})* {1,4}[a-z0-9-]{1,63}(?:\\.[a-z0-9-]{1,63}){1,8} {1,4}(?:${ARGUMENT_VALUE})`],
  // Bitwarden's CLI: `bw unlock '<master password>'`, `bw login <email> '<password>'` (a passphrase may hold spaces).
  [['bw '], `${program('bw')} {1,4}(?:unlock|login {1,4}\\S{1,200}) {1,4}(?!-)(?:${ARGUMENT_VALUE})`],
  // `wandb login <key>`; steamcmd's `+login user password`; `zip -P …`.
  [['wandb'], `${program('wandb')} {1,4}login(?: {1,4}--?[\\w-]{1,30})* {1,4}(?!-)(?:${ARGUMENT_VALUE})`],
  [['steamcmd'], `${program('steamcmd')}(?:\\.sh|\\.exe)?${REST_OF_COMMAND} \\+login {1,4}${WORD} {1,4}(?!\\+)(?:${ARGUMENT_VALUE})`],
  // Gated by `ip `: a keyword starting with `z` would slow the scan every text gets (secretPatterns.ts).
  [['ip '], `(?:${program('zip')}|${program('unzip')}) ${REST_OF_COMMAND}(?<= )(?:-P|--password)(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  // Apple's `xcrun altool … -u <Apple ID> -p <app-specific password>` (`@keychain:…` and `@env:…` name one kept elsewhere).
  [['altool'], `${program('altool')}${REST_OF_COMMAND} (?:-p|--password)(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  // Kerberos' admin client: `kadmin -p admin/admin@REALM -w … -q …`.
  [['kadmin'], `${program('kadmin(?:\\.local)?')}${REST_OF_COMMAND} -w {1,4}(?:${ARGUMENT_VALUE})`],
  // Windows' scheduled tasks run as a user: `schtasks /Create … /RU user /RP …` (`/RP *` prompts).
  [['schtasks'], `${program('schtasks|SCHTASKS')}(?:\\.exe)?${REST_OF_COMMAND} /RP {1,4}(?!\\*)(?:${ARGUMENT_VALUE})`],
  // Dell iDRAC's `racadm -r host -u root -p …` (gated by `cadm`: a keyword starting with `r` slows the scan every text gets).
  [['cadm'], `${program('racadm')}${REST_OF_COMMAND} -p {1,4}(?:${ARGUMENT_VALUE})`],
  // Backblaze's `b2 account authorize <keyId> <key>` (`b2 authorize-account` before).
  [['authorize'], `${program('b2')} {1,4}(?:account {1,4}authorize|authorize[-_]account) {1,4}${WORD} {1,4}(?:${ARGUMENT_VALUE})`],
  // WireGuard's key given through a process substitution: `wg set wg0 private-key <(echo …)`.
  [['key'], `private-key {1,4}<\\( {0,4}echo {1,4}(?:${ARGUMENT_VALUE}) {0,4}\\)`],
  // A SecureString parameter's value: `aws ssm put-parameter --name … --type SecureString --value '…'`.
  [['ssm'], `aws {1,4}ssm {1,4}put-parameter(?=[^\\r\\n]*SecureString)${REST_OF_COMMAND} --value(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  // A Databricks secret's value on the command line: `databricks secrets put-secret <scope> <key> --string-value …` (and the
  // legacy CLI's `secrets put … --string-value …`).
  [['databricks'], `${program('databricks')} {1,4}secrets {1,4}put(?:-secret)?${REST_OF_COMMAND} --(?:string|bytes)-value(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  // A cluster's bootstrap token: `kubeadm join … --token abcdef.0123456789abcdef`.
  [['kubeadm'], `${program('kubeadm')}${REST_OF_COMMAND} --token(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  // MySQL Shell's URI without a scheme, given whole: `mysqlsh --uri user:…@host:3306`, `mysqlsh user:…@host`.
  [['mysqlsh'], `${program('mysqlsh')}${REST_OF_COMMAND} (?:--uri[ =])?["']?(?:mysqlx?:\\/\\/)?[^\\s:@"'/]{1,100}:([^\\s@"']{1,1000})@`],
  // Poetry's repository credentials: `poetry config http-basic.<repo> <user> <password>`, `pypi-token.<repo> <token>`.
  [['poetry'], `${program('poetry')} {1,4}config {1,4}(?:http-basic\\.[\\w.-]{1,60} {1,4}\\S{1,100}|pypi-token\\.[\\w.-]{1,60}) {1,4}(?:${ARGUMENT_VALUE})`],
  // Fed to standard input: `echo '…' | sudo -S …`, `printf … | docker login --password-stdin`, `sudo -S … <<< '…'`;
  // and as `set -x` prints a pipe, a command a line: `+ echo …` then `+ docker login … --password-stdin`.
  [
    ['echo', 'printf'],
    `${program('echo|printf')}(?: {1,4}-[neE]{1,3})?(?: {1,4}(?:'%s[^'%]{0,4}'|"%s[^"%]{0,4}"))? {1,4}(?:${ARGUMENT_VALUE})(?: {0,4}\\| {0,4}|[ \\t]*\\r?\\n\\+{1,3} )${READS_PASSWORD}`,
  ],
  // IPMI's `-P`, Net-SNMP's `-A` (authentication) and `-X` (privacy) pass phrases, Oracle's wallet.
  [['ipmitool'], `${program('ipmitool')}${REST_OF_COMMAND} -P {1,4}(?:${ARGUMENT_VALUE})`],
  [['snmp'], `${program('snmp(?:walk|get|getnext|bulkwalk|bulkget|set|trap|table|status|df|netstat)')}${REST_OF_COMMAND} -A {1,4}(?:${ARGUMENT_VALUE})`],
  [['snmp'], `${program('snmp(?:walk|get|getnext|bulkwalk|bulkget|set|trap|table|status|df|netstat)')}${REST_OF_COMMAND} -X {1,4}(?:${ARGUMENT_VALUE})`],
  // SNMP v1 and v2c's community (`public` and `private`, the defaults, are every example's).
  [['snmp'], `${program('snmp(?:walk|get|getnext|bulkwalk|bulkget|set|trap|table|status|df|netstat)')}${REST_OF_COMMAND} -c {1,4}(?!(?:public|private)(?:\\s|$))(?:${ARGUMENT_VALUE})`],
  // `gh secret set NAME --body …` (GitHub's CLI: the secret's value given on the command line).
  [['gh secret'], `${program('gh')} {1,4}secret {1,4}set${REST_OF_COMMAND} (?:-b|--body)(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  [['cqlsh'], `${program('cqlsh')}${REST_OF_COMMAND} (?:-p|--password)(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  // Windows remoting and SMB tools: `evil-winrm -u u -p …`, `crackmapexec smb h -u u -p …` (and NetExec's `nxc`).
  [['evil-winrm', 'crackmapexec', 'nxc '], `${program('evil-winrm|crackmapexec|nxc')}${REST_OF_COMMAND} (?:-p|--password)(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  // `rdesktop -u u -p …`, NcFTP's `ncftpput -u u -p …`, Windows' `winrs -u:u -p:…`.
  [['desktop', 'ncftp'], `${program('rdesktop|ncftp(?:put|get|ls)?')}${REST_OF_COMMAND} -p {1,4}(?:${ARGUMENT_VALUE})`],
  [['winrs'], `${program('winrs')}${REST_OF_COMMAND} -p(?:assword)?:(?:${ATTACHED_VALUE})`],
  // A password file made on the spot: rsync's `--password-file=<(echo …)`.
  [['password-file'], `--password-file(?: {1,4}|=)<\\( {0,4}echo {1,4}(?:${ARGUMENT_VALUE}) {0,4}\\)`],
  // Vertica's `vsql -U u -w …`; .NET's `dotnet user-secrets set "Name" "…"` (every value it stores is a secret).
  [['vsql'], `${program('vsql')}${REST_OF_COMMAND} -w {1,4}(?:${ARGUMENT_VALUE})`],
  [['ser-secrets'], `user-secrets {1,4}set {1,4}${WORD} {1,4}(?:${ARGUMENT_VALUE})`],
  // SAP HANA's `hdbsql -u SYSTEM -p …`.
  [['hdbsql'], `${program('hdbsql')}${REST_OF_COMMAND} -p {1,4}(?:${ARGUMENT_VALUE})`],
  // etcd's `etcdctl --user root:…`.
  [['etcdctl'], `${program('etcdctl')}${REST_OF_COMMAND} --user(?: {1,4}|=)["']?[^\\s:"']{1,100}:([^\\s"']{1,1000})`],
  // Neo4j's `cypher-shell -u neo4j -p …`; DB2's `connect to DB user U using …`.
  [['cypher-shell'], `${program('cypher-shell')}${REST_OF_COMMAND} (?:-p|--password)(?: {1,4}|=)(?:${ARGUMENT_VALUE})`],
  [['connect'], `(?<![\\w-])connect {1,4}to {1,4}\\S{1,100} {1,4}user {1,4}\\S{1,100} {1,4}using {1,4}(?:${ARGUMENT_VALUE})`],
  [['mkstore'], `${program('mkstore')}${REST_OF_COMMAND} -(?:create|modify)Credential {1,4}${WORD} {1,4}${WORD} {1,4}(?:${ARGUMENT_VALUE})`],
  [['sudo', 'stdin', 'chpasswd'], `(?:${SUDO_S}|--password-stdin|--stdin|chpasswd)[^\\r\\n;&|<]{0,200}? {0,4}<<< {0,4}(?:${ARGUMENT_VALUE})`],
];

const SEVEN_ZIP = new RegExp(`${program('7z|7za|7zz|7zr')}${REST_OF_COMMAND} -p(?:${ATTACHED_VALUE})`, 'dg');

function findSevenZipPasswords(text: string): FoundSecret[] {
  if (!text.includes('7z')) return [];
  const found: FoundSecret[] = [];
  SEVEN_ZIP.lastIndex = 0;
  for (let match = SEVEN_ZIP.exec(text); match; match = SEVEN_ZIP.exec(text)) {
    const group = match.indices!.findIndex((span, i) => i > 0 && span !== undefined);
    const [start, end] = match.indices![group]!;
    if (!isPlaceholderValue(match[group]!)) found.push({ start, end });
  }
  return found;
}

/**
 * One rule a program (or a few alike): each regex starts with a program's name, found at once,
 * and runs only on text that names the program.
 */
export const COMMAND_LINE_RULES: readonly (PatternRule | ScanRule)[] = [
  ...FORMS.map(([keywords, form]) => ({
    id: 'command-line-password',
    pattern: new RegExp(form, 'dg'),
    gate: { keywords },
    // Not a placeholder, nor a secret's name in capitals standing for it (`curl -u USERNAME:API_TOKEN`).
    accept: (secret: string) => !secret.startsWith('-') && !isPlaceholderValue(secret) && !(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(secret) && isSensitiveKeyName(secret)),
  })),
  // HTTPie's bearer token: `http --auth-type=bearer --auth …` (a drawn token may start with `-`).
  {
    id: 'command-line-password',
    pattern: new RegExp(`${program('https?')}${REST_OF_COMMAND} (?:-A|--auth-type)(?: {1,4}|=)bearer${REST_OF_COMMAND} (?:-a|--auth)(?: {1,4}|=)(?:${ARGUMENT_VALUE})`, 'dg'),
    gate: { keywords: ['bearer'] },
    accept: (secret: string) => !isPlaceholderValue(secret),
  },
  // 7-Zip's `-p…` (attached): gated by its digit, as a keyword starting with `7` would slow the scan every text gets,
  // and looked for with indexOf first (most text holds a 7).
  { id: 'command-line-password', find: findSevenZipPasswords, gate: { characters: '7' } },
  // Windows' `setx NAME value`: the value by position after a variable's name that says it holds a secret (it may start with `-`).
  {
    id: 'command-line-password',
    pattern: new RegExp(`${program('setx|SETX')} {1,4}[\\w.-]{0,40}${KEYWORD}[\\w.-]{0,40} {1,4}(?:${ARGUMENT_VALUE})`, 'dg'),
    gate: { keywords: ['setx'] },
    accept: (secret: string) => !/^\/[A-Za-z]$/.test(secret) && !isPlaceholderValue(secret),
  },
];
