import type { FoundSecret } from './secretRules';
import { callArguments } from './callArguments';
import { entropy, isPlaceholderValue, namesASecret } from './secretValues';

/**
 * Secrets passed by position to well-known APIs, where no key name marks them: a driver's or
 * client's `(host, user, password)`, a credentials object's `(id, secret)`, a session's
 * `login(user, password)`. Only a quoted literal in the password's place is a secret
 * (`new PDO($dsn, $user, $pass)` holds none); a word such as `"password"` stays.
 */

interface Call {
  /** Regex sources of the callee, each ending where `(` may follow. */
  readonly names: readonly string[];
  /** Which argument, from 0, holds the secret. */
  readonly secretArgument: number;
  /** Twilio's `Client(sid, token)`: a name this common counts only with an account SID first. */
  readonly firstArgument?: RegExp;
}

const CALLS: readonly Call[] = [
  {
    names: [
      'new\\s{1,4}(?:PDO|mysqli)', 'mysqli?_connect', 'DriverManager\\.getConnection', 'new\\s{1,4}Sequelize', '(?:pymysql|MySQLdb)\\.connect',
      'ftp_login', 'ssh2_auth_password', 'ldap_bind', 'smtp\\.PlainAuth', 'DBI->connect',
      // Python's `FTP_TLS(host, user, passwd)`, LuaSQL's `env:connect(db, user, password)`.
      'FTP(?:_TLS)?', 'connect(?<=:connect)',
      // .NET's LDAP entry `(path, user, password)`, in C# or PowerShell's `New-Object`.
      '(?:new|New-Object)\\s{1,4}(?:System\\.)?(?:DirectoryServices\\.)?DirectoryEntry',
    ],
    secretArgument: 2,
  },
  // A PHP stack trace's frame: `mysqli->__construct('host', 'user', '…', 'db')`, `PDO->__construct('mysql:…', 'user', '…', Array)`.
  { names: ['(?:mysqli|PDO)->__construct'], secretArgument: 2 },
  // PHP's `mysqli_real_connect($link, host, user, …)` and C's `mysql_real_connect(conn, host, user, …)`.
  { names: ['mysqli?_real_connect'], secretArgument: 3 },
  // Django's `User.objects.create_superuser("admin", "admin@…", "…")` and `create_user(…)`: user, email, password.
  { names: ['create_superuser', 'create_user(?<=\\.create_user)'], secretArgument: 2 },
  {
    names: [
      '(?:new\\s{1,4})?postmark\\.(?:ServerClient|AccountClient|NewClient)', 'meraki\\.DashboardAPI',
      // Puppet's `pw_hash('…', 'SHA-512', salt)`, bcrypt's `hashpw(b"…", …)` and `hash("…", 10)`, PHP's
      // `password_hash("…", …)`: each hashes the password it is given.
      'pw_hash', 'bcrypt\\.(?:hashpw|hash|hashSync)', 'password_hash',
      // MessageBird's Node client: `require('messagebird')('…')`, `messagebird.initClient('…')`.
      'messagebird\\.initClient', 'require\\(\\s{0,4}["\']messagebird["\']\\s{0,4}\\)(?:\\.initClient)?',
    ],
    secretArgument: 0,
  },
  // Pusher's `(appId, key, secret)`.
  { names: ['(?:new\\s{1,4})?Pusher'], secretArgument: 2 },
  { names: ['Net::SMTP\\.start'], secretArgument: 4 },
  {
    names: [
      // A session's or connection's method: `smtp.login(user, "…")`, `conn.simple_bind_s(dn, "…")`, Go's `l.Bind(dn, "…")`.
      '(?:login|simple_bind_s|bind_s|Bind|authenticate)(?<=\\.[a-zA-Z_]{4,13})', '(?:httr::)?authenticate', 'oci_connect', 'cx_Oracle\\.connect',
      '(?:new\\s{1,4})?NetworkCredential', 'AcsClient',
      // Puppet's `postgresql::postgresql_password('user', '…')`, which hashes the password it is given.
      '(?:postgresql::)?postgresql_password', 'new\\s{1,4}(?:UsernamePasswordCredentials|PasswordAuthentication|UsernamePasswordAuthenticationToken|BasicAWSCredentials|AWS\\.Credentials)',
      'AwsBasicCredentials\\.create', 'credentials\\.NewStaticCredentials(?:Provider)?',
      '(?:new\\s{1,4})?Twilio(?:RestClient)?', 'TwilioClient\\.Init', 'twilio', 'Twilio::REST::Client\\.new', 'require\\(\\s{0,4}["\']twilio["\']\\s{0,4}\\)',
    ],
    secretArgument: 1,
  },
  { names: ['pass_(?<=\\.pass_)'], secretArgument: 0 },
  // A JSON Web Token's signing key as a literal: jsonwebtoken's `jwt.sign(payload, "…")` and
  // `jwt.verify(token, "…")`, PyJWT's `jwt.encode(payload, "…", …)` and `jwt.decode(…)`, Ruby's `JWT.encode`.
  { names: ['(?:jwt|JWT)\\.(?:sign|verify|encode|decode)'], secretArgument: 1 },
  { names: ['Client'], secretArgument: 1, firstArgument: /sid|^["']AC[0-9a-f]{32}["']$/i },
  // An HMAC's key: Python's `hmac.new(b"…", msg, sha256)`, Node's `crypto.createHmac("sha256", "…")`, Ruby's `OpenSSL::HMAC.hexdigest("SHA256", "…", data)`.
  { names: ['hmac\\.new'], secretArgument: 0 },
  { names: ['(?:crypto\\.)?createHmac', 'OpenSSL::HMAC\\.(?:hexdigest|digest|base64digest)'], secretArgument: 1 },
  // Trino's and Presto's Python clients: `auth=BasicAuthentication("user", "…")`.
  { names: ['BasicAuthentication'], secretArgument: 1 },
  // Jenkins' Groovy init scripts: `hudsonRealm.createAccount("admin", "…")` on a security realm.
  { names: ['createAccount(?<=[Rr]ealm\\.createAccount)'], secretArgument: 1 },
  // Alibaba Cloud's Java SDK: `DefaultProfile.getProfile(region, accessKeyId, secret)`.
  { names: ['DefaultProfile\\.getProfile'], secretArgument: 2 },
  // Mosquitto's C client: `mosquitto_username_pw_set(mosq, user, password)`.
  { names: ['mosquitto_username_pw_set'], secretArgument: 2 },
  // Python ldap3's `Connection(server, user, password)`: only with a server first (a `Connection(…)` is everywhere).
  { names: ['Connection'], secretArgument: 2, firstArgument: /^(?:server|srv|ldap_server|ldap|Server\(.*\))$/ },
];

/** Every callee starts with its own letters (a method's dot is looked behind for after them): see WEAK_KEYWORD. */
const CALL_SCAN = new RegExp(`(?:${CALLS.map((call) => `(${call.names.join('|')})`).join('|')})\\(`, 'g');

/**
 * Lowercase parts of the callees with their `(`, one in every match: the rule's gate. Narrow, so
 * that code which merely mentions a client or a login skips the rule; they start with letters
 * other keywords start with (see KEYWORD_GATE).
 */
export const POSITIONAL_KEYWORDS = [
  'pdo(', 'sqli', 'construct(', 'pw_set(', 'getprofile(', 'createaccount(', 'eal_connect(', 'sql_connect(', 'dbi->connect(', 'connection(', 'sequelize(', 'pymysql', 'sqldb', 'login(', 'bind(', 'bind_s(', 'authenticate(', 'auth_password(',
  'plainauth(', 'smtp.start(', 'ci_connect(', 'cx_oracle', 'etworkcredential(', 'passwordcredentials(', 'awscredentials(',
  'aws.credentials(', 'asiccredentials.create(', 'staticcredentials', 'passwordauth', 'twilio', 'client(', 'pass_(', 'ectoryentry(', 'pusher(', 'postmark.', 'essagebird', 'pw_hash(', 'create_superuser(', 'create_user(', 'bcrypt.hash', 'password_hash(', 'ftp(', 'ftp_tls(', ':connect(', 'dashboardapi(', 'acsclient(', 'postgresql_password(',
  'jwt.', 'basicauthentication(', 'hmac',
];

const WORD = /^(?:[a-z]+(?:[_-][a-z]+)*|[A-Z][a-z]+|[A-Z]+)$/;
/** Google's app password as it is shown: four groups of four letters. */
const APP_PASSWORD = /^[A-Za-z]{4}(?: [A-Za-z]{4}){3}$/;
/** 16 small letters or more in no word's order (Gmail's app passwords): drawn, not a word. */
const DRAWN_LETTERS = /^[a-z]{16,64}$/;

export function findPositionalSecrets(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  CALL_SCAN.lastIndex = 0;
  for (let match = CALL_SCAN.exec(text); match; match = CALL_SCAN.exec(text)) {
    // Not the end of a longer name (`myTwilio(`); a method's name is preceded by its dot.
    if (match.index > 0 && /[\w$]/.test(text[match.index - 1]!)) {
      CALL_SCAN.lastIndex = match.index + 1;
      continue;
    }
    const call = CALLS[match.slice(1).findIndex((group) => group !== undefined)]!;
    const args = callArguments(text, CALL_SCAN.lastIndex, call.secretArgument + 1);
    const arg = args[call.secretArgument];
    if (!arg?.literal) continue;
    if (call.firstArgument && !call.firstArgument.test(text.slice(args[0]!.start, args[0]!.end))) continue;
    const value = text.slice(arg.literal.start, arg.literal.end);
    if ((/\s|\$\{/.test(value) && !APP_PASSWORD.test(value)) || (WORD.test(value) && !(DRAWN_LETTERS.test(value) && entropy(value) >= 3.3)) || isPlaceholderValue(value) || namesASecret(value)) continue;
    found.push({ start: arg.literal.start, end: arg.literal.end });
  }
  return found;
}
