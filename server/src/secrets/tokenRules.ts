import { anyCasePrefix, ASSIGNED, token } from './secretPatterns';
import type { FoundSecret, PatternRule, ScanRule } from './secretRules';
import { isHighEntropy, readsAsWords } from './secretValues';

const ASSIGNED_TO = `${ASSIGNED}["']?`;

const UUID = /(?<![\w-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\w-])/g;

/** Each UUID whose line names Postmark and then a token before it (read back from the UUID: they are rare). */
function findPostmarkTokens(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  UUID.lastIndex = 0;
  for (let uuid = UUID.exec(text); uuid; uuid = UUID.exec(text)) {
    const lineStart = Math.max(text.lastIndexOf('\n', uuid.index) + 1, uuid.index - 200);
    if (/postmark[^\r\n]*?token/i.test(text.slice(lineStart, uuid.index))) found.push({ start: uuid.index, end: uuid.index + uuid[0].length });
  }
  return found;
}

/**
 * Credentials with a shape of their own (a prefix, a length, an alphabet), found wherever they
 * sit: in code, a command, a prompt. Modelled on gitleaks' rules of the same names. A shape
 * that is one long run of token characters (`ghp_` and 36 more) is gated by that run, not by a
 * keyword: every keyword slows the scan all text gets, and few texts hold such a run.
 */
/**
 * Azure's identifiable keys (microsoft/security-utilities): a service's signature at a fixed place
 * of a base64 key, 64 bytes (storage `+ASt`, Batch `+ABa`, ML `+AMC`, Cosmos `ACDb`, API Management
 * `APIM`), 32 bytes (Relay `+ARm`, Event Hub `+AEh`, Service Bus `+ASb`, IoT `AIoT`, Redis `AzCa`,
 * Event Grid `AZEG`), or 39 bytes (Container Registry `+ACR`). The signature is looked for first,
 * the key's length then read back from it: a regex that starts with 76 base64 characters is
 * tried at every character.
 */
// Two regexes, each starting with one character: V8 then skips to it rather than trying every place.
const PLUS_SIGNATURE = /\+A(?:St|Ba|MC|Rm|Eh|Sb|CR)/g;
const LETTER_SIGNATURE = /A(?:CDb|PIM|IoT|zCa|ZEG)/g;
const LONG_KEY_SIGNATURES = new Set(['+ASt', '+ABa', '+AMC', 'ACDb', 'APIM']);

function isBase64Character(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
}

const findIdentifiableKeys = (signatures: RegExp) => (text: string): FoundSecret[] => {
  const found: FoundSecret[] = [];
  signatures.lastIndex = 0;
  for (let match = signatures.exec(text); match; match = signatures.exec(text)) {
    const signature = match[0];
    const [before, after] = LONG_KEY_SIGNATURES.has(signature) ? [76, /^[A-Za-z0-9+/]{5}[AQgw]==(?![A-Za-z0-9+/=])/] : signature === '+ACR' ? [42, /^[A-Za-z0-9+/]{6}(?![A-Za-z0-9+/=])/] : [33, /^[A-Za-z0-9+/]{6}=(?![A-Za-z0-9+/=])/];
    const start = match.index - before;
    if (start < 0 || (start > 0 && isBase64Character(text.charCodeAt(start - 1)))) continue;
    let ok = true;
    for (let at = start; at < match.index && ok; at++) ok = isBase64Character(text.charCodeAt(at));
    const tail = ok ? after.exec(text.slice(match.index + 4, match.index + 4 + 12)) : null;
    if (tail) found.push({ start, end: match.index + 4 + tail[0].length });
  }
  return found;
};

export const TOKEN_RULES: readonly (PatternRule | ScanRule)[] = [
  {
    id: 'aws-access-token',
    pattern: token('(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}', 'A-Za-z0-9'),
    gate: { keywords: ['a3t', 'akia', 'asia', 'abia', 'acca'] },
    // AWS's documentation example, `AKIAIOSFODNN7EXAMPLE` (gitleaks allows it too).
    accept: (secret) => !secret.endsWith('EXAMPLE'),
  },
  {
    id: 'aws-secret-access-key',
    pattern: new RegExp(`${anyCasePrefix('aws')}[\\w.-]{0,20}${anyCasePrefix('secret')}${ASSIGNED_TO}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`, 'dg'),
    gate: { keywords: ['aws'] },
    // AWS's documentation example, `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`.
    accept: (secret) => !secret.endsWith('EXAMPLEKEY'),
  },
  { id: 'gcp-api-key', pattern: token('AIza[A-Za-z0-9_-]{35}'), gate: { tokenRun: 39 } },
  { id: 'gcp-oauth-client-secret', pattern: token('GOCSPX-[A-Za-z0-9_-]{28}'), gate: { tokenRun: 35 } },
  {
    id: 'azure-storage-key',
    pattern: /(?:AccountKey|SharedAccessKey|accountkey|sharedaccesskey|ACCOUNTKEY)[ \t]{0,4}=[ \t]{0,4}([A-Za-z0-9+/]{40,100}={0,2})/dg,
    gate: { keywords: ['accountkey', 'sharedaccesskey'] },
  },
  // An Azure Data Factory self-hosted integration runtime's key: `IR@<id>@<factory>@<region>@<key>`.
  { id: 'azure-ir-key', pattern: /IR@[0-9a-f-]{36}@[\w-]{1,100}@[a-z]{1,10}@[A-Za-z0-9+/]{40,60}={0,2}/dg, gate: { keywords: ['ir@'] } },
  // An AWS session token: every one starts with the same encoded bytes.
  { id: 'aws-session-token', pattern: token('IQoJb3JpZ2luX2Vj[A-Za-z0-9+/]{100,4000}={0,2}', 'A-Za-z0-9+/='), gate: { keywords: ['iqojb3jpz2lux2vj'] } },
  // Functions' `AzFu` and Cognitive Search's `AzSe` keys, of letters and digits: see findIdentifiableKeys for the others.
  { id: 'azure-identifiable-key', find: findIdentifiableKeys(PLUS_SIGNATURE), gate: { characters: '+' } },
  { id: 'azure-identifiable-key', find: findIdentifiableKeys(LETTER_SIGNATURE), gate: { keywords: ['acdb', 'apim', 'aiot', 'azca', 'azeg'] } },
  {
    id: 'azure-identifiable-key',
    // After a `=` too: a Functions key is most often a URL's `code=…`.
    pattern: /(?<![A-Za-z0-9_-])(?:[A-Za-z0-9_-]{44}AzFu[A-Za-z0-9_-]{5}[AQgw]==|[A-Za-z0-9]{42}AzSe[A-D][A-Za-z0-9]{5})(?![A-Za-z0-9_=-])/dg,
    gate: { tokenRun: 52 },
  },
  // A PKCS#12 bundle (a .pfx, with its private key) in base64: its DER header is always the same.
  { id: 'pfx-bundle', pattern: token('MII[A-Za-z0-9+/]{2}QIBAzCC[A-Za-z0-9+/]{100,40000}={0,2}', 'A-Za-z0-9+/='), gate: { keywords: ['ibazcc'] } },
  { id: 'mercadopago-access-token', pattern: token('APP_USR-[0-9]{16}-[0-9]{6}-[a-f0-9]{32}-[0-9]{6,10}'), gate: { keywords: ['app_usr-'] } },
  { id: 'openrouter-api-key', pattern: token('sk-or-v1-[a-f0-9]{64}'), gate: { keywords: ['sk-or-v1-'] } },
  // A Firebase Cloud Messaging server key: the project's number encoded, `:APA91b`, then ~134 more.
  { id: 'fcm-server-key', pattern: /(?<![A-Za-z0-9_-])AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{120,160}/dg, gate: { keywords: ['apa91b'] } },
  // `aws configure` asking for the key, and the answer typed after it.
  { id: 'aws-secret-access-key', pattern: /AWS Secret Access Key \[[^\]\r\n]{0,40}\]:[ \t]{0,4}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/dg, gate: { keywords: ['aws secret access key ['] } },
  // Three characters, a digit, `Q~`, then 31 to 34 more: Entra ID (Azure AD) client secrets.
  { id: 'azure-ad-client-secret', pattern: token('[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}', 'A-Za-z0-9_~.-'), gate: { keywords: ['q~'] } },
  { id: 'github-pat', pattern: token('ghp_[A-Za-z0-9]{36,255}'), gate: { tokenRun: 40 } },
  { id: 'github-oauth', pattern: token('gho_[A-Za-z0-9]{36,255}'), gate: { tokenRun: 40 } },
  { id: 'github-app-token', pattern: token('(?:ghu|ghs)_[A-Za-z0-9]{36,255}'), gate: { tokenRun: 40 } },
  // An installation token of a GitHub App as some SDKs print it: `ghs_`, the installation's id, then a JWT.
  { id: 'github-app-token', pattern: token('ghs_[0-9]{1,12}_eyJ[A-Za-z0-9_.-]{30,4000}', 'A-Za-z0-9_.-'), gate: { keywords: ['ghs_'] } },
  { id: 'github-refresh-token', pattern: token('ghr_[A-Za-z0-9]{36,255}'), gate: { tokenRun: 40 } },
  { id: 'github-fine-grained-pat', pattern: token('github_pat_[A-Za-z0-9_]{82,255}'), gate: { tokenRun: 93 } },
  // Its prefix tells it even glued to a word before it (`ourgithub_pat_…`).
  { id: 'github-fine-grained-pat', pattern: /github_pat_[A-Za-z0-9_]{82,255}/dg, gate: { keywords: ['github_pat_'] } },
  { id: 'gitlab-pat', pattern: token('glpat-[A-Za-z0-9_-]{20,255}'), gate: { tokenRun: 26 } },
  // Deploy, pipeline-trigger, runner, CI-build, OAuth-app, feed and agent tokens.
  {
    id: 'gitlab-token',
    // Trigger, OAuth-app, mail and agent tokens have lengths of their own: `glptt-` and 40, `gloas-` and 64, `glimt-` and 25.
    pattern: token('(?:gldt|glrt|glcbt|glsoat|glft)-[A-Za-z0-9_-]{20,255}|glptt-[A-Za-z0-9_-]{40}|gloas-[A-Za-z0-9_-]{64}|glimt-[A-Za-z0-9_-]{25}|glagent-[A-Za-z0-9_-]{50,1024}'),
    gate: { tokenRun: 25 },
  },
  {
    id: 'slack-token',
    pattern: token('(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]{10,255}'),
    gate: { keywords: ['xox', 'xapp-'] },
    // Every Slack token ends in a part with digits and holds letters: `xoxb-my-bot-token`, `xoxp-1234567890` and `…-AccessTokenHere` are placeholders.
    accept: (secret) => /[0-9]/.test(secret.slice(secret.lastIndexOf('-'))) && /[A-Za-z]/.test(secret.slice(5)),
  },
  {
    id: 'slack-webhook-url',
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9+/_-]{20,200})/dg,
    gate: { keywords: ['hooks.slack.com/'] },
  },
  {
    id: 'stripe-access-token',
    pattern: token('(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,255}'),
    gate: { keywords: ['k_live_', 'k_test_', 'k_prod_'] },
  },
  { id: 'stripe-webhook-secret', pattern: token('whsec_[A-Za-z0-9]{24,255}'), gate: { tokenRun: 30 } },
  // `SK` and 32 hex digits: a two-letter keyword would let nearly every text through. An account's SID (`AC…`) is its
  // name, in every API path and log line, and no credential (docs/decisions.md).
  { id: 'twilio-api-key', pattern: token('SK[0-9a-fA-F]{32}', 'A-Za-z0-9'), gate: { tokenRun: 34 } },
  { id: 'sendgrid-api-token', pattern: token('SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}'), gate: { keywords: ['sg.'] } },
  // Its exact lengths (22 and 43) tell it even glued to the words around it (`…somSG.…where`).
  { id: 'sendgrid-api-token', pattern: /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/dg, gate: { keywords: ['sg.'] } },
  // `key-` and 32 hex digits, or three runs of hex digits joined by dashes: 36 at least.
  { id: 'mailgun-api-key', pattern: token('(?:pub)?key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}'), gate: { tokenRun: 36 } },
  { id: 'npm-access-token', pattern: token('npm_[A-Za-z0-9]{36,255}'), gate: { tokenRun: 40 } },
  { id: 'pypi-upload-token', pattern: token('pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}'), gate: { tokenRun: 70 } },
  { id: 'anthropic-api-key', pattern: token('sk-ant-[A-Za-z0-9_-]{20,300}'), gate: { tokenRun: 27 } },
  {
    id: 'openai-api-key',
    pattern: token('sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,300}|sk-[A-Za-z0-9]{21,300}'),
    gate: { tokenRun: 24 },
    // A test's token that says what it is (`sk-tooshortT3BlbkFJtooshort`): a drawn one spells no word this long.
    accept: (secret) => !/short|example|invalid|dummy/i.test(secret),
  },
  { id: 'huggingface-access-token', pattern: token('hf_[A-Za-z0-9]{30,40}'), gate: { tokenRun: 33 } },
  { id: 'digitalocean-token', pattern: token('do[opr]_v1_[a-f0-9]{64}'), gate: { tokenRun: 71 } },
  { id: 'shopify-token', pattern: token('shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32,40}'), gate: { tokenRun: 38 } },
  // Service, batch and recovery tokens of HashiCorp Vault 1.10+ (`hvs.` and ~90 characters).
  // A sentence's period may follow it (`result was hvr.….`).
  { id: 'vault-token', pattern: /(?<![A-Za-z0-9_.-])hv[sbr]\.[A-Za-z0-9_-]{24,300}(?![A-Za-z0-9_-]|\.[A-Za-z0-9_-])/dg, gate: { tokenRun: 24 } },
  // Vault's batch tokens before 1.10: `b.AAAAAQ…`, a hundred characters and more.
  { id: 'vault-token', pattern: token('b\\.AAAAAQ[A-Za-z0-9_-]{60,600}', 'A-Za-z0-9_.-'), gate: { tokenRun: 60 } },
  // Vault's tokens before 1.10: `s.` and 24 letters and digits, in a text that names Vault (as gitleaks reads them).
  {
    id: 'vault-token',
    pattern: token('s\\.[A-Za-z0-9]{24}', 'A-Za-z0-9_.-'),
    gate: { tokenRun: 24 },
    accept: (s, text) => /[0-9]/.test(s) && /[A-Z]/.test(s) && /[a-z]/.test(s.slice(2)) && /vault/i.test(text),
  },
  // A letter and at least 23 more before the first dot.
  {
    id: 'discord-bot-token',
    pattern: token('[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}', 'A-Za-z0-9_.-'),
    gate: { tokenRun: 24 },
  },
  // Alone, or in the Bot API's URL: `https://api.telegram.org/bot<token>/sendMessage`.
  {
    id: 'telegram-bot-api-token',
    pattern: /[0-9]{5,16}:A[A-Za-z0-9_-]{33,34}(?![A-Za-z0-9_:-])/dg,
    gate: { keywords: [':a'] },
    // Digits first, where they are, then what precedes them (a look-behind first is tried at every character).
    accept: (_secret, text, _span, matchStart) => matchStart === 0 || !/[A-Za-z0-9_:-]/.test(text[matchStart - 1]!) || text.endsWith('/bot', matchStart),
  },
  // Okta's API token after its scheme: `Authorization: SSWS 00…`.
  { id: 'okta-api-token', pattern: /SSWS[ \t]{1,4}(00[A-Za-z0-9_-]{40})(?![A-Za-z0-9_-])/dg, gate: { keywords: ['ssws'] } },
  // A Microsoft Teams incoming webhook's path: its group and tenant ids with its secret parts, as gitleaks takes the
  // URL whole (whoever holds it can post; the ids alone tell a reader nothing worth keeping), with the signature
  // newer ones end in (`/V2…`).
  {
    id: 'teams-webhook-url',
    pattern: /webhook(?:b2)?\/([0-9a-f-]{36}@[0-9a-f-]{36}\/[A-Za-z]{1,40}\/[0-9a-f]{32}\/[0-9a-f-]{36}(?:\/[A-Za-z0-9_-]{20,100}(?![A-Za-z0-9_-])|(?![0-9a-f-])))/dg,
    gate: { keywords: ['ebhook'] },
  },
  // A Convex deploy key: `prod:<deployment>|<key>` (`dev:`, `preview:`), whole.
  { id: 'convex-deploy-key', pattern: /(?<![\w-])(?:prod|dev|preview):[a-z0-9-]{3,64}\|[A-Za-z0-9_=-]{40,200}(?![\w=-])/dg, gate: { tokenRun: 40 } },
  // An Unleash API token: `<project>:<environment>.<sha256>` (`*:*.…` for an admin's); longer than a Git hash.
  { id: 'unleash-api-token', pattern: /(?<![\w*-])(?:\*|[a-z][\w-]{0,40}):(?:\*|[a-z][\w-]{0,40})\.([0-9a-f]{48,80})(?![0-9a-f])/dg, gate: { tokenRun: 48 } },
  // An Azure Function's key in its URL: `https://app.azurewebsites.net/api/fn?code=…`.
  { id: 'azure-function-key', pattern: /azurewebsites\.net\/api\/[^\s?#"'`]{1,200}\?(?:[^\s#"'`]{0,500}&)?code=([A-Za-z0-9_-]{20,200}={0,2})/dg, gate: { keywords: ['azurewebsites.net'] } },
  // A Cloudinary URL's API key and secret together (`cloudinary://<key>:<secret>@<cloud>`): the pair is the credential.
  { id: 'cloudinary-url', pattern: /cloudinary:\/\/([0-9]{10,20}:[A-Za-z0-9_-]{20,40})@/dg, gate: { keywords: ['://'] } },
  // Postmark's server and account tokens are UUIDs: one after a token's word in a line that names Postmark
  // (`X-Postmark-Server-Token: …`, "Postmark server API token …: …").
  { id: 'postmark-server-token', find: findPostmarkTokens, gate: { keywords: ['postmark'] } },
  // A ThingsBoard device's access token, the one part of its HTTP API's path that is secret.
  {
    id: 'thingsboard-access-token',
    pattern: /api\/v1\/([A-Za-z0-9]{20})\/(?:telemetry|attributes|rpc|claim)(?![\w-])/dg,
    gate: { keywords: ['api/v1/'] },
  },
  // SonarQube's token under its login option or variable: `-Dsonar.login=…`, `$sonarLogin = "…"`.
  {
    id: 'sonarqube-token',
    pattern: new RegExp(`${anyCasePrefix('sonar')}[._-]?(?:login|Login|LOGIN|token|Token|TOKEN)${ASSIGNED_TO}((?:sq[apu]_)?[a-f0-9]{40})(?![A-Za-z0-9])`, 'dg'),
    gate: { keywords: ['sonar'] },
  },
  // A Discord webhook's id and token: the two together are what posts.
  { id: 'discord-webhook-url', pattern: /discord(?:app)?\.com\/api\/webhooks\/([0-9]{17,20}\/[A-Za-z0-9_-]{60,80})(?![A-Za-z0-9_-])/dg, gate: { tokenRun: 60 } },
  // An AWS key pair told together: `AKIA… / …`, `AKIA…:…` (the secret key after its id).
  { id: 'aws-secret-access-key', pattern: /(?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z0-9]{16}[ \t]{0,2}[/:,][ \t]{0,2}([A-Za-z0-9+/]{40})(?![A-Za-z0-9+/=])/dg, gate: { keywords: ['akia', 'asia', 'a3t'] } },
  // Deploy hooks: whoever has the URL deploys. Vercel's path whole (its project id with the hook's, as Teams' webhooks), Netlify's build hook.
  { id: 'vercel-deploy-hook', pattern: /api\.vercel\.com\/(v1\/integrations\/deploy\/prj_[A-Za-z0-9]{10,60}\/[A-Za-z0-9]{6,60})(?![A-Za-z0-9])/dg, gate: { keywords: ['integrations/deploy'] } },
  // An Azure Logic Apps (and Power Automate, Teams workflows) trigger URL: the workflow's id to the `sig` that lets anyone run it.
  {
    id: 'azure-logic-app-url',
    pattern: /\.logic\.azure\.com(?::443)?\/(workflows\/[0-9a-f]{32}\/triggers\/[^\s"'`<>]{0,300}?[?&]sig=[A-Za-z0-9_%-]{20,100})/dg,
    gate: { keywords: ['logic.azure.com'] },
  },
  { id: 'netlify-build-hook', pattern: /api\.netlify\.com\/build_hooks\/([0-9a-f]{24})(?![0-9a-f])/dg, gate: { keywords: ['build_hooks'] } },
  // Dropbox's short-lived access token, and Yandex Cloud's static access key's secret.
  { id: 'dropbox-api-token', pattern: token('sl\\.[A-Za-z0-9_=-]{130,160}'), gate: { tokenRun: 130 } },
  { id: 'yandex-access-key', pattern: token('YC[A-Za-z0-9_-]{38}'), gate: { tokenRun: 40 }, accept: (secret) => isHighEntropy(secret) },
  // Sidekiq Enterprise's and Pro's gem credentials, `user:password` of hex: `bundle config enterprise.contribsys.com …`, `BUNDLE_GEMS__CONTRIBSYS__COM=…`.
  {
    id: 'sidekiq-secret',
    pattern: /(?:(?:enterprise|gems)\.contribsys\.com[ \t]{1,4}|(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM["']?[ \t]{0,4}[=:][ \t]{0,4}["']?)([0-9a-f]{8}:[0-9a-f]{8})(?![0-9a-f])/dg,
    gate: { keywords: ['contribsys'] },
  },
  // A Yandex Cloud IAM token (`yc iam create-token`).
  { id: 'yandex-iam-token', pattern: token('t1\\.[A-Za-z0-9_-]{40,200}={0,2}\\.[A-Za-z0-9_-]{80,100}={0,2}', 'A-Za-z0-9_.=-'), gate: { keywords: ['t1.'] } },
  // Asana's personal access token (`2/<user>/<app>:<32 hex>`, the older `0/<32 hex>`) and Flutterwave's secret keys.
  { id: 'asana-pat', pattern: token('[0-9]/[0-9]{12,20}(?:/[0-9]{12,20})?:[0-9a-f]{32}|0/[0-9a-f]{32}', 'A-Za-z0-9_/:-'), gate: { tokenRun: 32 } },
  // Weights & Biases: `wandb.login(key="…")`, 40 hex digits.
  { id: 'wandb-api-key', pattern: /wandb\.login\([^()\r\n]{0,100}?key\s{0,4}=\s{0,4}\\{0,3}["']([0-9a-f]{40})\\{0,3}["']/dg, gate: { keywords: ['wandb.login('] } },
  // A Discord bot token: the bot's id in base64, a timestamp, an HMAC (`client.run("…")`).
  {
    id: 'discord-bot-token',
    pattern: token('[A-Za-z0-9_-]{24,26}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}', 'A-Za-z0-9_.-'),
    gate: { tokenRun: 24 },
    // The shape alone is a dotted triple of random text: a bot's context just before names it (as gitleaks asks for `discord`).
    accept: (s, text, span) =>
      /[0-9]/.test(s.slice(0, 24)) && /[A-Z]/.test(s.slice(0, 24)) && /[a-z]/.test(s.slice(0, 24)) && /discord|\bbot\b|client\.run\(|token/i.test(text.slice(Math.max(0, span.start - 120), span.start)),
  },
  // Cloudflare's global API key (37 hex digits) given to its client: `CloudFlare(email=…, key="…")`.
  { id: 'cloudflare-global-api-key', pattern: /CloudFlare\([^()\r\n]{0,200}?key\s{0,4}=\s{0,4}["']([0-9a-f]{37})["']/dg, gate: { keywords: ['cloudflare('] } },
  // Lob's API keys: `live_`/`test_` and 35 hex, the publishable `live_pub_` and 31.
  { id: 'lob-api-key', pattern: token('(?:live|test)_(?:pub_[a-f0-9]{31}|[a-f0-9]{35})'), gate: { tokenRun: 31 } },
  // Airtable's personal access token: `pat`, 14 letters and digits, `.`, 64 hex.
  { id: 'airtable-pat', pattern: token('pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}'), gate: { tokenRun: 64 } },
  { id: 'flutterwave-secret-key', pattern: token('FLWSECK(?:_TEST)?-[a-h0-9]{32}-X|FLWSECK_TEST[a-h0-9]{12}'), gate: { keywords: ['flwseck'] } },
  // Defined Networking's API key.
  { id: 'defined-networking-api-token', pattern: token('dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}'), gate: { keywords: ['dnkey-'] } },
  // Octopus Deploy's API key.
  { id: 'octopus-api-key', pattern: token('API-[A-Z0-9]{26}'), gate: { tokenRun: 30 } },
  // LaunchDarkly's server-side SDK key and API access token: `sdk-` or `api-` and a UUID (its mobile key, `mob-`, ships in apps).
  { id: 'launchdarkly-key', pattern: token('(?:sdk|api)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'), gate: { tokenRun: 40 } },
  { id: 'databricks-api-token', pattern: token('dapi[a-f0-9]{32}(?:-[0-9])?', 'A-Za-z0-9'), gate: { tokenRun: 36 } },
  {
    id: 'heroku-api-key',
    pattern: new RegExp(
      `${anyCasePrefix('heroku')}${ASSIGNED_TO}([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})|(?<![\\w-])(HRKU-[A-Za-z0-9_-]{20,100})`,
      'dg',
    ),
    gate: { keywords: ['heroku', 'hrku-'] },
  },
  // JFrog Artifactory's API keys (`AKC` and 10 or more) and encrypted passwords (`AP`, a digit or A–F, 8 or more): detect-secrets'
  // shapes, at a value's start (the text's, or after a space, `=`, `:` or a quote). Capitals and small letters after the prefix,
  // no words, and for `AP…` a digit, so identifiers (`APDataHandler`, `AP2PClientManager`, `APIEndpoint`) are none.
  {
    id: 'artifactory-token',
    pattern: /A(?:KC[A-Za-z0-9]{10}|P[0-9A-F][A-Za-z0-9]{8})[A-Za-z0-9]{0,300}(?![A-Za-z0-9])/dg,
    // A run of 11 would lower the token gate's sampling step for every text (redact.ts): keywords cost less.
    gate: { keywords: ['akc', ...[...'0123456789abcdef'].map((c) => `ap${c}`)] },
    accept: (secret, text, _span, matchStart) =>
      (matchStart === 0 || /[\s=:"']/.test(text[matchStart - 1]!)) &&
      (secret.startsWith('AKC') || /[0-9]/.test(secret)) &&
      /[a-z]/.test(secret) &&
      /[A-Z]/.test(secret.slice(3)) &&
      !readsAsWords(secret),
  },
  // `…-us21`: 32 hex digits and the data center.
  { id: 'mailchimp-api-key', pattern: token('[0-9a-f]{32}-us[0-9]{1,2}'), gate: { tokenRun: 36 } },
  { id: 'terraform-cloud-token', pattern: token('[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,70}', 'A-Za-z0-9_.=-'), gate: { keywords: ['atlasv1'] } },
  // Gated by its suffix: a regex that starts with a class is tried at every character, and most code holds a run of 40.
  { id: 'maxmind-license-key', pattern: token('[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk'), gate: { keywords: ['mmk'] } },
  {
    id: 'jwt',
    // The signature may be missing (an unsigned token, or one cut at its last dot): header and claims are enough.
    pattern: token('eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}(?:\\.[A-Za-z0-9_-]{10,})?', 'A-Za-z0-9_.-'),
    gate: { keywords: ['eyj'] },
  },
];
