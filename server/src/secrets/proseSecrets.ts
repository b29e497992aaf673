import type { FoundSecret } from './secretRules';
import { isSensitiveKeyName } from './keyNames';
import { characterClasses, holdsDrawnRun, isHighEntropy, isPlaceholderValue, looksGenerated, namesASecret, saidNotToBe } from './secretValues';

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
 * verb before the value, since with a bare `:` they are code the keyed rules read. Ten words at most
 * between (`the password for the shared jupyterhub account on the gpu box: …`), and a remark in
 * parentheses (`admin API key (NOT the search-only one): …`); a word said not to be one
 * (`Account SID (not secret, …): …`) is none.
 */
const PROSE =
  /(?:(api key|(?:my|our|your|the) key|pw|pwd|creds|credentials|login)|(password|passwd|passphrase|token|secret))s?(?<![\w](?:api key|(?:my|our|your|the) key|pw|pwd|creds|credentials|login|password|passwd|passphrase|token|secret)s?)((?:[ \t]{1,2}[\w.@'-]{1,30}){0,10}?(?:[ \t]{1,2}\([^()\r\n]{1,60}\))?)(:|[ \t]{1,2}(?:is|are|was|to)(?:[ \t]now)?:?)[ \t]{1,4}([^\s"'`<>()[\]{},;|]{6,200})/dgi;

/** A variable named for a secret, set in a sentence: ``I set `CLOUDFLARE_API_TOKEN` to `…` `` (an agent's summary). */
const SET_TO =
  /(?:set|changed|updated|rotated|put)[ \t]{1,4}`?([A-Za-z][\w.-]{0,80})`?[ \t]{1,4}(?:to|=)[ \t]{1,4}`?([^\s`'"<>()[\]{},;|]{8,200})/dgi;

/**
 * A note in a comment or a message that names which one it is: `temp key is …`, `# old pw …`,
 * `scratch: staging bearer = …`. The value must read as chosen or drawn.
 */
const QUALIFIED = qualified('pw|pwd|pass|password|token|bearer|secret');
/** The same for a key (`temp key is …`, `New key: …`): a rule of its own, gated by `key`, which the prose rules are not. */
const QUALIFIED_KEY = qualified('key');

/** A qualifier, then one of `nouns` (an alternation), then perhaps `is` or `=`, then the value. */
function qualified(nouns: string): RegExp {
  const qualifier = 'temp|tmp|old|new|current|staging|prod|test|dev|live';
  return new RegExp(
    `(?:${qualifier})(?<![\\w-](?:${qualifier}))(?:[ \\t]{1,2}|:[ \\t]{1,2})(?:${nouns})(?:[ \\t]{1,2}(?:is|was)(?=[ \\t])|[ \\t]{0,2}[=:])?[ \\t]{1,4}([^\\s"'\`<>()[\\]{},;|]{6,4000})`,
    'dgi',
  );
}

/**
 * A key's or token's word, then a drawn value with no verb between, as a commit message or a
 * note has it: `hardcode api key … to unblock demo`, `the token … expires Friday`. Only a value
 * long and random enough to be drawn counts; a word, a path or a name stays.
 */
const NAMED_DRAWN =
  /(?:api[ \t]key|secret[ \t]key|token|secret)(?<![\w-](?:api[ \t]key|secret[ \t]key|token|secret))(?:['’][a-zıiuü]{1,3})?[ \t]{1,2}([A-Za-z0-9_+=.-]{20,200})(?![\w/+=.-])/dgi;
/**
 * The same with a few words between and the value perhaps in parentheses: `hardcode staging token
 * so QA can test (…)`. Further from its word, the value must mix capitals, small letters and
 * digits: a commit's hash or an id a few words after `token` is not one. Words, not a command's
 * flags: `vault token lookup -accessor …` names a token's accessor, which is not secret.
 */
const NAMED_DRAWN_LATER =
  /(?:api[ \t]key|token|secret)(?<![\w-](?:api[ \t]key|token|secret))(?:[ \t]{1,2}[\w'][\w'-]{0,19}){1,6}?[ \t]{1,2}\(?([A-Za-z0-9_+=.-]{20,200})(?![\w/+=.-])/dgi;

/** A login told as two code spans: ``login `admin` / `…` ``, ``login is `admin` / `…` ``. */
const LOGIN_SPANS = /(?:login|creds|credentials)(?<![\w-](?:login|creds|credentials))(?:[ \t]{1,2}(?:is|was|are))?[ \t:]{1,4}`[^`\s]{1,64}`[ \t]{0,2}\/[ \t]{0,2}`([^`\s]{4,64})`/dgi;

/** A device's default login told as `admin / …`, `root / …` (a router's sticker, a lab's note), perhaps in code spans. */
const ADMIN_SLASH = /(?:admin|root|administrator)(?<![\w-](?:admin|root|administrator))`?[ \t]{1,2}\/[ \t]{1,2}`?([^\s"'`<>()[\]{},;|/]{8,64})/dgi;

/** Steps to log in as a user and password in code spans: ``Log in to https://… as `qa-user` / `…` ``, ``Login with user `…` / `…` ``. */
const LOG_IN_AS = /(?:log|sign)[ \t]?in(?<![\w-](?:log|sign)[ \t]?in)[^\r\n`]{0,120}?[ \t](?:as|with)(?:[ \t]{1,2}(?:user(?:name)?|account))?[ \t]{1,2}`[^`\s]{1,64}`[ \t]{0,2}(?:\/|and|with)[ \t]{0,2}`([^`\s]{4,64})`/dgi;

/** An account told as `<user> / <password>` after `is`: `the staging admin for the Strapi panel is admin@acme.io / …`. */
const ACCOUNT_IS_USER_SLASH =
  /(?:admin|login|account)(?<![\w-](?:admin|login|account))[^\r\n/]{0,80}?[ \t](?:is|are|was)[ \t]{1,2}`?[\w.@+-]{1,64}`?[ \t]{1,2}\/[ \t]{1,2}`?([^\s"'`<>()[\]{},;|/]{6,64})/dgi;

/** Hinglish, the value before its verb: `prod server ka password Mumbai@2781 hai`. */
const HINGLISH = /(?:password|pasword|passwd)(?<![\w-](?:password|pasword|passwd))[ \t]{1,2}([^\s"'`<>()[\]{},;|]{6,64})[ \t]{1,2}(?:hai|hain|he)(?![\w])/dgi;

/** Steps to log in told with no code spans: `Login to https://… with ops@acme.io / …`; the password must read as one. */
const LOG_IN_WITH = /(?:log|sign)[ \t]?in(?<![\w-](?:log|sign)[ \t]?in)[^\r\n`]{0,120}?[ \t](?:as|with)[ \t]{1,2}(?:user(?:name)?[ \t]{1,2})?[\w.@+-]{1,64}[ \t]{1,2}\/[ \t]{1,2}([^\s"'`<>()[\]{},;|]{6,64})/dgi;

/**
 * A password's word, then its value in a code span or quotes with no verb between (``and password `An4lytics!` ``), or
 * in parentheses as a commit message puts it (`hardcode staging admin password (…) until …`; not a ticket's key).
 */
const PASSWORD_SPAN = /(?:password|passwd|pwd)(?<![\w-](?:password|passwd|pwd))[ \t]{1,2}(?:(`|")([^`"\s]{6,64})\1|\(([^()\s=]{6,64})\))/dgi;

/** The same a few words on, in a code span: ``the password you pasted (`…`)``. */
const PASSWORD_WORDS_SPAN = /(?:password|passwd|passphrase)(?<![\w-](?:password|passwd|passphrase))(?:[ \t]{1,2}[\w'’-]{1,20}){1,5}?[ \t]{1,2}\(?`([^`\s"'=]{8,64})`/dgi;

/** A user and password told with spaces around their `/`: `the staging DB creds are app / …`. */
const CREDS_WITH_SPACES =
  /(?:creds|credentials|login)(?<![\w-](?:creds|credentials|login))(?:[ \t]{1,2}[\w.@'-]{1,30}){0,6}?(?::|[ \t]{1,2}(?:is|are|was))[ \t]{1,4}[\w.@+-]{1,64}[ \t]{1,2}\/[ \t]{1,2}([^\s"'`<>()[\]{},;|]{6,200})/dgi;

/** The same after an account's word, in English and other languages (`Tài khoản test …: tester / …`); the password must read as one. */
const ACCOUNT_WITH_SPACES =
  /(?:account|konto|compte|cuenta|conta|tài khoản|accesso)(?<![\w-](?:account|konto|compte|cuenta|conta|tài khoản|accesso))[^\r\n:：]{0,80}[:：][ \t]{1,4}[\w.@+-]{1,64}[ \t]{1,2}\/[ \t]{1,2}([^\s"'`<>()[\]{},;|]{6,200})/dgi;

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
const FOREIGN_WORDS = ['password del', 'passwort', 'kennwort', 'mot de passe', 'clé api', "clé d'api", 'contraseña', 'clave', 'chiave', 'senha', 'palavra-passe', 'パスワード', '密码', '密碼', '口令', 'пароль', 'hasło', 'wachtwoord', 'lösenord', 'salasana', 'adgangskode', 'mật khẩu', 'كلمة المرور', 'كلمة السر', 'jeton', 'chave', 'deploy-key', 'schlüssel', 'キー', 'トークン', 'lösen', 'heslo', 'κωδικός', 'סיסמה'];
// "Is", then perhaps "now" or "for now" (`is nu`, `тимчасово`: Ukrainian says it with no verb).
// Or what it was set to (`auf … gesetzt`, `changé à …`, `cambiada a …`, `alterada para …`, `gezet op …`, `zmienione na …`).
const FOREIGN_VERBS =
  '(?:[ \\t]?[:：]|[ \\t](?:lautet|ist|est|es|é|è|er|jest|je|är|on|is|to|là|είναι|היא|הוא|هي|هو|тимчасово|временно|auf|à|a|para|op|naar|na|in)(?=[ \\t])|[ \\t]c[\\x27’]est(?=[ \\t])|[ \\t][—–](?=[ \\t])|は|是|为|為)' +
  '(?:[ \\t](?:nu|now|jetzt|maintenant|ahora|agora|adesso|ora|teď|nyní|тепер|теперь|сейчас|tijdelijk|tillfälligt|dočasně)(?=[ \\t]))?';
// Within quotes (`es «…»`, `is "…"`) or none: the quotes are not the value's.
const VALUE = `[«„“‚‘"']?([^\\s"'\`<>()[\\]{},;|，。、„“”«»‚‘’]{6,200})`;
/**
 * Languages that put the value after the word with no verb between (Turkish `root şifresi …,`) or
 * the verb after the value (Korean `API 키는 … 입니다`, Hindi `पासवर्ड … है`): the word, then the value.
 */
const VALUE_AFTER_WORDS = [
  '키는', '비밀번호는', '비밀번호', '암호는', 'şifresi', 'şifre', 'parolası', 'parola', 'पासवर्ड',
  // Or a password told with no verb at all: `la contraseña Paella…`, `Passwort Brezel…`.
  'contraseña', 'passwort', 'senha', 'wachtwoord', 'كلمة المرور', 'пароль', 'kata sandinya', 'kata sandi',
];

const startsWithAscii = (word: string) => /^[\x00-\x7f]/.test(word);

/**
 * The foreign forms for some of the words: those written in ASCII's letters and the others are
 * two rules (secretRules.ts), each gated by what its words start with.
 */
function foreignFinder(ascii: boolean): (text: string) => FoundSecret[] {
  const words = FOREIGN_WORDS.filter((word) => startsWithAscii(word) === ascii);
  const after = VALUE_AFTER_WORDS.filter((word) => startsWithAscii(word) === ascii);
  const verbAfter = new RegExp(`(?:${words.join('|')})[^\\r\\n.。!?]{0,60}?${FOREIGN_VERBS}[ \\t]{0,4}${VALUE}`, 'dgiu');
  const valueAfter = new RegExp(`(?:${after.join('|')})(?:[ \\t]{0,2}[:：=])?[ \\t]{1,4}${VALUE}`, 'dgiu');
  return (text) => {
    const found: FoundSecret[] = [];
    for (const pattern of [verbAfter, valueAfter]) {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
        let value = match[1]!.replace(/[.,?:]+$/, '');
        let start = match.indices![1]![0];
        // In corner brackets (`「…」です`), the value is what they hold; Chinese or Japanese glued to it otherwise is the
        // rest of a sentence (`1Passwordの「本番DB」に保存`), not a password.
        const bracketed = /^[「『]([^」』]{6,200})[」』]/.exec(value);
        if (bracketed) {
          value = bracketed[1]!;
          start += 1;
        } else if (/[\u3000-\u9fff\uff00-\uffef]/.test(value)) continue;
        if (chosenOrDrawn(value)) found.push({ start, end: start + value.length });
      }
    }
    return found;
  };
}

const findAsciiForeignProse = foreignFinder(true);
/** Prose in languages whose words for a password start outside ASCII: gated by those characters. */
export const findForeignScriptSecrets = foreignFinder(false);

// Whole words: a gate of `mot` would open on every `remote`.
const FOREIGN_KEYWORDS = [...FOREIGN_WORDS.map((word) => (word.startsWith('clé') ? 'clé' : word)), ...VALUE_AFTER_WORDS];

const AWS_SECRET_SHAPE = /^[A-Za-z0-9+/]{40}$/;

/** A value that reads as a password someone chose (three of: small letters, capitals, digits, symbols) or as drawn. */
function chosenOrDrawn(value: string): boolean {
  if (isPlaceholderValue(value)) return false;
  // A `/` makes a path, but for drawn base64 of an AWS secret key's length (`AWSのシークレットキー: …/…`).
  if (value.includes('/')) return AWS_SECRET_SHAPE.test(value) && looksGenerated(value) && isHighEntropy(value);
  const classes = characterClasses(value);
  // Capitals and small letters in no word's order (`PYOFMoTitGDw`) are drawn too.
  return (value.length >= 8 && (classes >= 3 || (classes === 2 && /[a-z]/.test(value) && /[A-Z]/.test(value) && !WORD_SHAPE.test(value)))) || looksGenerated(value);
}

/** Words joined by `_`, `-` or `.` with numbers (`v2_migration_2024`, `release-1.4`): written, not drawn. */
const WRITTEN = /^(?:[a-z]+|[0-9]+|v[0-9]+)(?:[_.-](?:[a-z]+|[0-9]+|v[0-9]+))*$/;
/** A word as written in code or prose: lower, camel, Pascal or upper case. */
const WORD_SHAPE = /^(?:[a-z]+|[a-z]+(?:[A-Z][a-z]+)+|[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z]+)$/;
const USER_AND_PASSWORD = /^[\w.@+-]{1,64}[/:]/;
/** Words for a password, which people choose (`the password is UyAPro09!`): a token or a key is drawn. */
const PASSWORD_WORD = /^(?:pw|pwd|password|passwd|passphrase)$/i;

// `conta` with what follows it: alone it starts `contains`, `container`, `contact`.
const ALL_KEYWORDS = ['account', 'konto', 'compte', 'cuenta', 'conta ', 'conta:', 'tài khoản', 'accesso', 'api key', 'my key', 'our key', 'your key', 'the key', 'key is', 'key was', 'key =', 'bearer', 'pw', 'cred', 'login', 'log in', 'sign in', 'signin', 'admin', 'oot', 'pass', 'token', 'secret', ...FOREIGN_KEYWORDS];
/**
 * The rule's gates: its words that start with a letter of ASCII, and the first characters of
 * the others (a keyword starting with a character no other keyword starts with slows the scan
 * every text gets: secretPatterns.ts), which a text of ASCII alone is known not to hold.
 */
export const PROSE_KEYWORDS = ALL_KEYWORDS.filter(startsWithAscii);
export const PROSE_CHARACTERS = [...new Set(ALL_KEYWORDS.filter((word) => !startsWithAscii(word)).flatMap((word) => [word[0]!, word[0]!.toUpperCase()]))].join('');

function qualifiedValues(pattern: RegExp, text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const value = match[1]!.replace(/[.,!?:]+$/, '');
    const start = match.indices![1]![0];
    if ((chosenOrDrawn(value) || isHighEntropy(value)) && !namesASecret(value)) found.push({ start, end: start + value.length });
  }
  return found;
}

/** A key named for which one it is (QUALIFIED_KEY). */
export function findQualifiedKeys(text: string): FoundSecret[] {
  return qualifiedValues(QUALIFIED_KEY, text);
}

export function findProseSecrets(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  PROSE.lastIndex = 0;
  for (let match = PROSE.exec(text); match; match = PROSE.exec(text)) {
    const [, pairWord, codeWord, words, separator, raw] = match;
    if (codeWord !== undefined && words === '' && separator === ':') continue;
    if (saidNotToBe(text, match.index)) continue;
    const value = raw!.replace(/[.!?:]+$/, '');
    let start = match.indices![5]![0];
    let secret = value;
    const pair = /^(?:creds|credentials|login)$/i.test(pairWord ?? '') ? USER_AND_PASSWORD.exec(value) : null;
    if (pair) {
      start += pair[0].length;
      secret = value.slice(pair[0].length);
      if (secret.length < 6 || secret.includes('/') || WORD_SHAPE.test(secret) || isPlaceholderValue(secret)) continue;
    } else if (value.includes('/') || WRITTEN.test(value) || !(looksGenerated(value) || (PASSWORD_WORD.test(pairWord ?? codeWord ?? '') && chosenOrDrawn(value)))) continue;
    found.push({ start, end: start + secret.length });
  }
  found.push(...findAsciiForeignProse(text));
  SET_TO.lastIndex = 0;
  for (let match = SET_TO.exec(text); match; match = SET_TO.exec(text)) {
    const value = match[2]!.replace(/[.!?:]+$/, '');
    const start = match.indices![2]![0];
    if (isSensitiveKeyName(match[1]!) && looksGenerated(value) && !isPlaceholderValue(value)) found.push({ start, end: start + value.length });
  }
  const drawnRun = holdsDrawnRun(text);
  NAMED_DRAWN.lastIndex = drawnRun ? 0 : text.length;
  for (let match = NAMED_DRAWN.exec(text); match; match = NAMED_DRAWN.exec(text)) {
    const [start, end] = match.indices![1]!;
    if (looksGenerated(match[1]!) && isHighEntropy(match[1]!) && !isPlaceholderValue(match[1]!)) found.push({ start, end });
  }
  NAMED_DRAWN_LATER.lastIndex = drawnRun ? 0 : text.length;
  for (let match = NAMED_DRAWN_LATER.exec(text); match; match = NAMED_DRAWN_LATER.exec(text)) {
    const [start, end] = match.indices![1]!;
    if (/[A-Z]/.test(match[1]!) && /[a-z]/.test(match[1]!) && /[0-9]/.test(match[1]!) && looksGenerated(match[1]!) && isHighEntropy(match[1]!) && !isPlaceholderValue(match[1]!)) found.push({ start, end });
  }
  ADMIN_SLASH.lastIndex = 0;
  for (let match = ADMIN_SLASH.exec(text); match; match = ADMIN_SLASH.exec(text)) {
    const [start, end] = match.indices![1]!;
    if (chosenOrDrawn(match[1]!) && !namesASecret(match[1]!)) found.push({ start, end });
  }
  for (const pattern of [LOGIN_SPANS, LOG_IN_AS]) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const [start, end] = match.indices![1]!;
      if (!isPlaceholderValue(match[1]!) && !namesASecret(match[1]!) && !WORD_SHAPE.test(match[1]!)) found.push({ start, end });
    }
  }
  for (const pattern of [HINGLISH, LOG_IN_WITH, ACCOUNT_IS_USER_SLASH]) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const value = match[1]!.replace(/[.!?:]+$/, '');
      const start = match.indices![1]![0];
      if (chosenOrDrawn(value) && !namesASecret(value)) found.push({ start, end: start + value.length });
    }
  }
  PASSWORD_SPAN.lastIndex = 0;
  for (let match = PASSWORD_SPAN.exec(text); match; match = PASSWORD_SPAN.exec(text)) {
    const group = match[2] !== undefined ? 2 : 3;
    const [start, end] = match.indices![group]!;
    const value = match[group]!;
    if (chosenOrDrawn(value) && !namesASecret(value) && !(group === 3 && /^[A-Z][A-Z0-9]{1,9}-[0-9]{1,7}$/.test(value))) found.push({ start, end });
  }
  PASSWORD_WORDS_SPAN.lastIndex = 0;
  for (let match = PASSWORD_WORDS_SPAN.exec(text); match; match = PASSWORD_WORDS_SPAN.exec(text)) {
    const [start, end] = match.indices![1]!;
    if (chosenOrDrawn(match[1]!) && !namesASecret(match[1]!)) found.push({ start, end });
  }
  found.push(...qualifiedValues(QUALIFIED, text));
  CREDS_WITH_SPACES.lastIndex = text.includes(' / ') ? 0 : text.length;
  for (let match = CREDS_WITH_SPACES.exec(text); match; match = CREDS_WITH_SPACES.exec(text)) {
    const value = match[1]!.replace(/[.!?:]+$/, '');
    const start = match.indices![1]![0];
    if (value.length >= 6 && !value.includes('/') && !WORD_SHAPE.test(value) && !isPlaceholderValue(value)) found.push({ start, end: start + value.length });
  }
  ACCOUNT_WITH_SPACES.lastIndex = text.includes(' / ') ? 0 : text.length;
  for (let match = ACCOUNT_WITH_SPACES.exec(text); match; match = ACCOUNT_WITH_SPACES.exec(text)) {
    const value = match[1]!.replace(/[.!?:]+$/, '');
    const start = match.indices![1]![0];
    if (!value.includes('/') && chosenOrDrawn(value)) found.push({ start, end: start + value.length });
  }
  QUOTED_PASSWORD.lastIndex = 0;
  for (let match = QUOTED_PASSWORD.exec(text); match; match = QUOTED_PASSWORD.exec(text)) {
    const [start, end] = match.indices![2]!;
    if (!isPlaceholderValue(match[2]!)) found.push({ start, end });
  }
  return found;
}
