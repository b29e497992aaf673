import type { FoundSecret } from './secretRules';
import { isPlaceholderValue, looksGenerated } from './secretValues';

/**
 * Secrets told in a sentence rather than assigned, as a prompt or a chat pastes them: `api key
 * for the weather service: …`, `I changed the root pw to … on all boxes`, `creds for grafana are
 * admin/…`. A secret's word, up to six words, then `:`, `is`, `are`, `was` or `to`, then one word
 * that reads as generated (a user and password pair after `creds` or `login`): names, paths and
 * words stay, as does code (`token: tokenValue` is judged by keyedSecrets.ts).
 */

/**
 * The secret's word starts a word (looked behind after its letters: a regex that starts with a
 * look-behind is tried at every character); `password`, `token` and `secret` need a word or a
 * verb before the value, since with a bare `:` they are code the keyed rules read.
 */
const PROSE =
  /(?:(api key|(?:my|our|your|the) key|pw|pwd|creds|credentials|login)|(password|passwd|passphrase|token|secret))s?(?<![\w-](?:api key|(?:my|our|your|the) key|pw|pwd|creds|credentials|login|password|passwd|passphrase|token|secret)s?)((?:[ \t]{1,2}[\w.@'-]{1,30}){0,6}?)(:|[ \t]{1,2}(?:is|are|was|to)(?:[ \t]now)?:?)[ \t]{1,4}([^\s"'`<>()[\]{},;|]{6,200})/dgi;

/**
 * A password quoted after `is` or `was`: `the password is 'Secret123'`, `the password for user
 * 'postgres' is 'admin'`. The quotes mark the exact string to type, so a word counts too.
 */
const QUOTED_PASSWORD =
  /(?:password|passwd|passphrase|pwd|pw)(?<![\w-](?:password|passwd|passphrase|pwd|pw))(?:[ \t]{1,2}[\w.@'-]{1,30}){0,6}?[ \t]{1,2}(?:is|was)(?:[ \t]now)?:?[ \t]{1,4}(["'])([^"'\s]{4,64})\1(?!\w)/dgi;

/**
 * The same told in other languages: a password's or an API key's word, a few words, then what
 * says "is" (`lautet`, `est`, `es`, `は`, `是`, a colon of either width), then the value, which
 * must read as chosen or drawn (chosenOrDrawn): `Das Passwort … lautet Stag1ng-Berl!n`.
 */
const FOREIGN_WORDS = ['password del', 'passwort', 'kennwort', 'mot de passe', 'clé api', "clé d'api", 'contraseña', 'clave', 'senha', 'palavra-passe', 'パスワード', '密码', '密碼', '口令', 'пароль', 'hasło', 'wachtwoord', 'lösenord', 'salasana', 'adgangskode'];
const FOREIGN_PROSE = new RegExp(
  `(?:${FOREIGN_WORDS.join('|')})[^\\r\\n.。!?]{0,60}?(?:[ \\t]?[:：]|[ \\t](?:lautet|ist|est|es|é|è|er|jest|är|on|is)(?=[ \\t])|は|是|为|為)[ \\t]{0,4}([^\\s"'\`<>()[\\]{},;|，。、]{6,200})`,
  'dgiu',
);
// Whole words: a gate of `mot` would open on every `remote`.
const FOREIGN_KEYWORDS = FOREIGN_WORDS.map((word) => (word.startsWith('clé') ? 'clé' : word));

/** A value that reads as a password someone chose (three of: small letters, capitals, digits, symbols) or as drawn. */
function chosenOrDrawn(value: string): boolean {
  if (value.includes('/') || isPlaceholderValue(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((kind) => kind.test(value)).length;
  return (value.length >= 8 && classes >= 3) || looksGenerated(value);
}

/** Words joined by `_`, `-` or `.` with numbers (`v2_migration_2024`, `release-1.4`): written, not drawn. */
const WRITTEN = /^(?:[a-z]+|[0-9]+|v[0-9]+)(?:[_.-](?:[a-z]+|[0-9]+|v[0-9]+))*$/;
/** A word as written in code or prose: lower, camel, Pascal or upper case. */
const WORD_SHAPE = /^(?:[a-z]+|[a-z]+(?:[A-Z][a-z]+)+|[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z]+)$/;
const USER_AND_PASSWORD = /^[\w.@+-]{1,64}[/:]/;

export const PROSE_KEYWORDS = ['api key', 'my key', 'our key', 'your key', 'the key', 'pw', 'cred', 'login', 'pass', 'token', 'secret', ...FOREIGN_KEYWORDS];

export function findProseSecrets(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  PROSE.lastIndex = 0;
  for (let match = PROSE.exec(text); match; match = PROSE.exec(text)) {
    const [, pairWord, codeWord, words, separator, raw] = match;
    if (codeWord !== undefined && words === '' && separator === ':') continue;
    const value = raw!.replace(/[.!?:]+$/, '');
    let start = match.indices![5]![0];
    let secret = value;
    const pair = /^(?:creds|credentials|login)$/i.test(pairWord ?? '') ? USER_AND_PASSWORD.exec(value) : null;
    if (pair) {
      start += pair[0].length;
      secret = value.slice(pair[0].length);
      if (secret.length < 6 || secret.includes('/') || WORD_SHAPE.test(secret) || isPlaceholderValue(secret)) continue;
    } else if (value.includes('/') || WRITTEN.test(value) || !looksGenerated(value)) continue;
    found.push({ start, end: start + secret.length });
  }
  FOREIGN_PROSE.lastIndex = 0;
  for (let match = FOREIGN_PROSE.exec(text); match; match = FOREIGN_PROSE.exec(text)) {
    const value = match[1]!.replace(/[.,?:]+$/, '');
    const start = match.indices![1]![0];
    if (chosenOrDrawn(value)) found.push({ start, end: start + value.length });
  }
  QUOTED_PASSWORD.lastIndex = 0;
  for (let match = QUOTED_PASSWORD.exec(text); match; match = QUOTED_PASSWORD.exec(text)) {
    const [start, end] = match.indices![2]!;
    if (!isPlaceholderValue(match[2]!)) found.push({ start, end });
  }
  return found;
}
