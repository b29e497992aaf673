import { forEachRun, isTokenRunCharacter } from './sampledRuns';
import type { FoundSecret } from './secretRules';

/**
 * More of gitleaks' shapes that start with a fixed prefix, one rule each in gitleaks, here one
 * alternation read in one pass (a text with a long token run opens it), the matched prefix
 * naming the rule. Every one starts with letters or digits it names: a regex that starts with a
 * class or a look-behind is tried at every character.
 */
const PREFIXED_TOKENS: readonly (readonly [id: string, body: string])[] = [
  ['atlassian-api-token', 'ATATT3[A-Za-z0-9_=-]{150,300}|ATCTT3[A-Za-z0-9_=-]{150,300}'],
  ['bitbucket-app-password', 'ATBB[A-Za-z0-9]{32,40}'],
  ['dockerhub-token', 'dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,60}'],
  ['square-access-token', 'EAAA[A-Za-z0-9_-]{56,100}|sq0atp-[A-Za-z0-9_-]{22,60}|sq0csp-[A-Za-z0-9_-]{43,60}'],
  ['facebook-access-token', 'EAA[CM][A-Za-z0-9]{100,400}'],
  ['twitter-bearer-token', 'A{22}[A-Za-z0-9%]{60,140}'],
  ['gitlab-runner-registration-token', 'GR1348941[A-Za-z0-9_-]{20,50}'],
  ['gitlab-token', 'glffct-[A-Za-z0-9_-]{20,60}'],
  ['grafana-token', 'glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,3}|eyJrIjoi[A-Za-z0-9]{70,400}={0,3}'],
  ['new-relic-key', 'NR(?:AK|II|JS|IQ|AA)-[A-Za-z0-9_]{19,32}'],
  ['postman-api-token', 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}'],
  ['sentry-token', 'sntry[us]_[A-Za-z0-9+/=_]{64,400}'],
  // Service tokens name their config: `dp.st.prd.…`.
  ['doppler-token', 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.(?:[a-z0-9_-]{1,40}\\.)?[A-Za-z0-9]{40,50}'],
  ['pulumi-api-token', 'pul-[a-f0-9]{40}'],
  ['linear-api-key', 'lin_api_[A-Za-z0-9]{40}'],
  ['planetscale-token', 'pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}'],
  ['sendinblue-api-token', 'x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}'],
  ['supabase-token', 'sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,60}'],
  ['age-secret-key', 'AGE-SECRET-KEY-1[A-Z0-9]{58}'],
  ['adafruit-io-key', 'aio_[A-Za-z0-9]{28}'],
  ['cratesio-api-token', 'cio[A-Za-z0-9]{32}'],
  ['dependency-track-api-key', 'odt_[A-Za-z0-9]{32}'],
  ['nuget-api-key', 'oy2[a-z0-9]{43}'],
  ['sourcegraph-token', 'sgp_(?:[a-f0-9]{16}_|local_)?[a-f0-9]{40}'],
  ['tavily-api-key', 'tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}'],
  // New Relic's ingest license key: hex, with a region first (`eu01xx`), then `NRAL`.
  ['new-relic-key', '(?:[a-z]{2}[0-9]{2}xx[a-f0-9]{30}|[a-f0-9]{36})NRAL'],
  // A Salesforce session id: the org's id (`00D…`), `!`, then the session's part.
  ['salesforce-access-token', '00D[A-Za-z0-9]{12,15}![A-Za-z0-9_.]{80,120}'],
  // A PEM private key in base64, as an environment variable or a Kubernetes Secret holds it: `-----BEGIN … PRIVATE` encoded.
  ['private-key', 'LS0tLS1CRUdJTi[A-Za-z0-9+/]{0,30}?(?:UFJJVkFURS|QUklWQVRF|BSSVZBVE)[A-Za-z0-9+/]{40,12000}={0,2}'],
  // A Google credentials file in base64 (a service account's key, as a CI variable holds it): a JSON object whose first
  // key is `type`, encoded, as gcloud writes it (`{\n  "type`), minified (`{"type":"`) or unindented.
  ['gcp-service-account-key', '(?:ewogICJ0eXBl|eyJ0eXBlIjoi|ewoidHlwZSI6)[A-Za-z0-9+/]{400,12000}={0,2}'],
  // A Kerberos keytab in base64 (as a CI variable holds it): the file's version `05 02`, then its first entry's length.
  ['kerberos-keytab', 'BQIAAA[A-Za-z0-9+/]{40,40000}={0,2}'],
  // A BitLocker recovery password: eight groups of six digits, as `manage-bde -protectors -get` prints it.
  ['bitlocker-recovery-password', '[0-9]{6}(?:-[0-9]{6}){7}'],
  ['mapbox-secret-token', 'sk\\.eyJ[A-Za-z0-9_-]{30,300}\\.[A-Za-z0-9_-]{20,60}'],
  ['notion-api-token', 'ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43}'],
  ['replicate-api-token', 'r8_[A-Za-z0-9]{37}'],
  ['groq-api-key', 'gsk_[A-Za-z0-9]{52}'],
  ['resend-api-key', 're_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}'],
  ['perplexity-api-key', 'pplx-[A-Za-z0-9]{48}'],
  ['xai-api-key', 'xai-[A-Za-z0-9]{80}'],
  ['huggingface-access-token', 'api_org_[A-Za-z]{34}'],
  ['google-oauth-token', 'ya29\\.[A-Za-z0-9_-]{50,2000}|1//0[A-Za-z0-9_-]{40,300}'],
  ['rubygems-api-token', 'rubygems_[a-f0-9]{48}'],
  // Fly.io's macaroons, in base64 of either alphabet, several joined by commas after `FlyV1 `.
  ['flyio-access-token', 'fo1_[A-Za-z0-9_-]{43}|fm[12][ar]?_[A-Za-z0-9+/_-]{100,1000}={0,3}(?:,fm[12][ar]?_[A-Za-z0-9+/_-]{20,1000}={0,3}){0,8}'],
  ['onesignal-api-key', 'os_v2_(?:app|org)_[A-Za-z2-7]{56,120}'],
  ['figma-token', 'figd_[A-Za-z0-9_-]{40,50}'],
  ['netlify-token', 'nfp_[A-Za-z0-9]{36,40}'],
  ['readme-api-token', 'rdme_[a-z0-9]{70}'],
  ['prefect-api-token', 'pnu_[A-Za-z0-9]{36}'],
  ['shippo-api-token', 'shippo_(?:live|test)_[a-fA-F0-9]{40}'],
  ['easypost-api-token', 'EZ[AT]K[A-Za-z0-9]{54}'],
  ['dynatrace-api-token', 'dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}'],
  ['artifactory-token', 'AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59}'],
  ['alibaba-access-key-id', 'LTAI[A-Za-z0-9]{20}'],
  ['openshift-user-token', 'sha256~[A-Za-z0-9_-]{43}'],
  ['onepassword-token', 'ops_eyJ[A-Za-z0-9+/_-]{250,2000}={0,3}'],
  ['clojars-api-token', 'CLOJARS_[a-z0-9]{60}'],
  ['adobe-client-secret', 'p8e-[A-Za-z0-9]{32}'],
  ['scalingo-api-token', 'tk-us-[A-Za-z0-9_-]{48}'],
  ['cloudflare-origin-ca-key', 'v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}'],
  // 1Password's account secret key; a DER private key in base64 without its PEM lines (gitleaks' `private-key-non-pem-format`).
  ['onepassword-secret-key', 'A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}'],
  ['private-key', 'MII[BCEJ][A-Za-z0-9+/]{60,8000}={0,2}'],
  ['tailscale-key', 'tskey-(?:api|auth|client|future|scim|webhook)-[A-Za-z0-9]{6,20}-[A-Za-z0-9]{20,80}'],
  ['vercel-token', 'vc[pirak]_[A-Za-z0-9]{24,80}'],
  ['posthog-personal-api-key', 'phx_[A-Za-z0-9]{40,50}'],
  ['buildkite-token', 'bkua_[a-f0-9]{40}'],
  ['elevenlabs-api-key', 'sk_[a-f0-9]{48}'],
  // OpenAI's ephemeral Realtime client secret, as its session response returns it.
  ['openai-ephemeral-key', 'ek_[a-f0-9]{32}'],
  ['langsmith-api-key', 'lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}'],
  // Honeycomb's ingest and management keys (`hcaik_…`, `hcamk_…`); Statsig's server secret (`secret-…`, mixed).
  ['honeycomb-api-key', 'hc[a-z]{2,3}k_[A-Za-z0-9]{40,80}'],
  ['statsig-server-secret', 'secret-(?=[A-Za-z0-9]{0,60}[0-9])(?=[A-Za-z0-9]{0,60}[A-Z])(?=[A-Za-z0-9]{0,60}[a-z])[A-Za-z0-9]{30,60}'],
  // A Cloudflare Tunnel's token: base64 of `{"a":"<account>","t":"<tunnel>","s":"<secret>"}`.
  ['cloudflare-tunnel-token', 'eyJhIjoi[A-Za-z0-9+/_=-]{60,1000}'],
  // Adyen's API keys: `AQE` and a long base64 body.
  ['adyen-api-key', 'AQE[A-Za-z0-9+/=._-]{100,400}'],
  ['harness-api-key', '(?:pat|sat)\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}'],
];

const PREFIXED_TOKEN_AT = new RegExp(`(?:${PREFIXED_TOKENS.map(([, body]) => `(${body})`).join('|')})(?![A-Za-z0-9_-])`, 'y');

/** A token found after [A-Za-z0-9_.-] is part of a longer word. */
function continuesWord(c: number): boolean {
  return isTokenRunCharacter(c) || c === 46;
}

/** What the shapes hold besides run characters: `dp.pt.…`, `sha256~…`, `1//0…`, base64's `+/=`, Twitter's `%`, Salesforce's `!`. */
function isTokenCharacter(c: number): boolean {
  return continuesWord(c) || c === 126 || c === 43 || c === 47 || c === 61 || c === 37 || c === 33;
}

const MAX_PREFIX_BACK = 400;

/** What says a DER in base64 is a certificate: SAML metadata's `<ds:X509Certificate>`, a JWK's `"x5c": ["`. */
const CERTIFICATE_BEFORE = /(?:X509Certificate>|"x5c"[ \t]{0,4}:[ \t]{0,4}\[[ \t]{0,4}")\s{0,40}$/;

/** Whether `at` is inside a PEM block whose label says it is public (a certificate, a public key, a request). */
function insidePublicPem(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 8000), at);
  const begin = before.lastIndexOf('-----BEGIN ');
  if (begin < 0 || before.includes('-----END', begin)) return false;
  const label = /^-----BEGIN ([A-Z0-9 ]{1,40})-----/.exec(before.slice(begin, begin + 60));
  return label !== null && !label[1]!.includes('PRIVATE');
}

/**
 * Each token starts a word and holds a run of PREFIXED_TOKEN_RUN characters or more. Those runs
 * are found by sampling (as the gate does), and the shapes are tried only at the starts of the
 * words around them: one try per word, where a regex scan would try every character (and, on a
 * megabyte of `A`, read far from each).
 */
export function findPrefixedTokens(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  let next = 0;
  forEachRun(text, PREFIXED_TOKEN_RUN, isTokenRunCharacter, (runStart, runEnd) => {
    if (runEnd <= next) return;
    let from = runStart;
    while (from > next && runStart - from < MAX_PREFIX_BACK && isTokenCharacter(text.charCodeAt(from - 1))) from--;
    for (let at = from; at <= runStart; at++) {
      if (at > 0 && continuesWord(text.charCodeAt(at - 1))) continue;
      PREFIXED_TOKEN_AT.lastIndex = at;
      const match = PREFIXED_TOKEN_AT.exec(text);
      if (!match) continue;
      const which = match.slice(1).findIndex((group) => group !== undefined);
      // hiera-eyaml's ciphertext, made to be committed: `ENC[PKCS7,MIIB…]`.
      if (/ENC\[(?:PKCS7|GPG),$/.test(text.slice(Math.max(0, at - 10), at))) break;
      // A certificate's or a public key's DER, inside its PEM lines (`caBundle: |` then `-----BEGIN CERTIFICATE-----`).
      if (PREFIXED_TOKENS[which]![0] === 'private-key' && (insidePublicPem(text, at) || CERTIFICATE_BEFORE.test(text.slice(Math.max(0, at - 40), at)))) break;
      found.push({ start: at, end: at + match[0].length, rule: PREFIXED_TOKENS[which]![0] });
      next = at + match[0].length;
      break;
    }
  });
  return found;
}

/**
 * Every shape above holds a run of at least this many [A-Za-z0-9_-] (`LTAI` and 20 more; `NRJS-` and 19);
 * the base64 ones (`glc_`, `fm2_`, `ops_`) in practice, a `+` or `/` every 32 characters on average.
 */
export const PREFIXED_TOKEN_RUN = 24;
