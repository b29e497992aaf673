import { anyCasePrefix, ASSIGNED, token } from './secretPatterns';
import type { PatternRule } from './secretRules';

const ASSIGNED_TO = `${ASSIGNED}["']?`;

/**
 * Credentials with a shape of their own (a prefix, a length, an alphabet), found wherever they
 * sit: in code, a command, a prompt. Modelled on gitleaks' rules of the same names. A shape
 * that is one long run of token characters (`ghp_` and 36 more) is gated by that run, not by a
 * keyword: every keyword slows the scan all text gets, and few texts hold such a run.
 */
export const TOKEN_RULES: readonly PatternRule[] = [
  {
    id: 'aws-access-token',
    pattern: token('(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}', 'A-Za-z0-9'),
    gate: { keywords: ['a3t', 'akia', 'asia', 'abia', 'acca'] },
  },
  {
    id: 'aws-secret-access-key',
    pattern: new RegExp(`${anyCasePrefix('aws')}[\\w.-]{0,20}${anyCasePrefix('secret')}${ASSIGNED_TO}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`, 'dg'),
    gate: { keywords: ['aws'] },
  },
  { id: 'gcp-api-key', pattern: token('AIza[A-Za-z0-9_-]{35}'), gate: { tokenRun: 39 } },
  { id: 'gcp-oauth-client-secret', pattern: token('GOCSPX-[A-Za-z0-9_-]{28}'), gate: { tokenRun: 35 } },
  {
    id: 'azure-storage-key',
    pattern: /(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,100}={0,2})/dg,
    gate: { keywords: ['accountkey=', 'sharedaccesskey='] },
  },
  // Three characters, a digit, `Q~`, then 31 to 34 more: Entra ID (Azure AD) client secrets.
  { id: 'azure-ad-client-secret', pattern: token('[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}', 'A-Za-z0-9_~.-'), gate: { keywords: ['q~'] } },
  { id: 'github-pat', pattern: token('ghp_[A-Za-z0-9]{36,255}'), gate: { tokenRun: 40 } },
  { id: 'github-oauth', pattern: token('gho_[A-Za-z0-9]{36,255}'), gate: { tokenRun: 40 } },
  { id: 'github-app-token', pattern: token('(?:ghu|ghs)_[A-Za-z0-9]{36,255}'), gate: { tokenRun: 40 } },
  { id: 'github-refresh-token', pattern: token('ghr_[A-Za-z0-9]{36,255}'), gate: { tokenRun: 40 } },
  { id: 'github-fine-grained-pat', pattern: token('github_pat_[A-Za-z0-9_]{82,255}'), gate: { tokenRun: 93 } },
  { id: 'gitlab-pat', pattern: token('glpat-[A-Za-z0-9_-]{20,255}'), gate: { tokenRun: 26 } },
  // Deploy, pipeline-trigger, runner, CI-build, OAuth-app, feed and agent tokens.
  {
    id: 'gitlab-token',
    pattern: token('(?:gldt|glptt|glrt|glcbt|gloas|glsoat|glft|glimt|glagent)-[A-Za-z0-9_-]{20,255}'),
    gate: { tokenRun: 25 },
  },
  { id: 'slack-token', pattern: token('(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]{10,255}'), gate: { keywords: ['xox', 'xapp-'] } },
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
  // `SK`/`AC` and 32 hex digits: a two-letter keyword would let nearly every text through.
  { id: 'twilio-api-key', pattern: token('SK[0-9a-fA-F]{32}', 'A-Za-z0-9'), gate: { tokenRun: 34 } },
  { id: 'twilio-account-sid', pattern: token('AC[0-9a-f]{32}', 'A-Za-z0-9'), gate: { tokenRun: 34 } },
  { id: 'sendgrid-api-token', pattern: token('SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}'), gate: { keywords: ['sg.'] } },
  // `key-` and 32 hex digits, or three runs of hex digits joined by dashes: 36 at least.
  { id: 'mailgun-api-key', pattern: token('(?:pub)?key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}'), gate: { tokenRun: 36 } },
  { id: 'npm-access-token', pattern: token('npm_[A-Za-z0-9]{36,255}'), gate: { tokenRun: 40 } },
  { id: 'pypi-upload-token', pattern: token('pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}'), gate: { tokenRun: 70 } },
  { id: 'anthropic-api-key', pattern: token('sk-ant-[A-Za-z0-9_-]{20,300}'), gate: { tokenRun: 27 } },
  {
    id: 'openai-api-key',
    pattern: token('sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,300}|sk-[A-Za-z0-9]{21,300}'),
    gate: { tokenRun: 24 },
  },
  { id: 'huggingface-access-token', pattern: token('hf_[A-Za-z0-9]{30,40}'), gate: { tokenRun: 33 } },
  { id: 'digitalocean-token', pattern: token('do[opr]_v1_[a-f0-9]{64}'), gate: { tokenRun: 71 } },
  { id: 'shopify-token', pattern: token('shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}'), gate: { tokenRun: 38 } },
  // Service, batch and recovery tokens of HashiCorp Vault 1.10+ (`hvs.` and ~90 characters).
  { id: 'vault-token', pattern: token('hv[sbr]\\.[A-Za-z0-9_-]{24,300}', 'A-Za-z0-9_.-'), gate: { tokenRun: 24 } },
  // A letter and at least 23 more before the first dot.
  {
    id: 'discord-bot-token',
    pattern: token('[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}', 'A-Za-z0-9_.-'),
    gate: { tokenRun: 24 },
  },
  { id: 'telegram-bot-api-token', pattern: token('[0-9]{5,16}:A[A-Za-z0-9_-]{34}', 'A-Za-z0-9_:-'), gate: { keywords: [':a'] } },
  { id: 'databricks-api-token', pattern: token('dapi[a-f0-9]{32}(?:-[0-9])?', 'A-Za-z0-9'), gate: { tokenRun: 36 } },
  {
    id: 'heroku-api-key',
    pattern: new RegExp(
      `${anyCasePrefix('heroku')}${ASSIGNED_TO}([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})|(?<![\\w-])(HRKU-[A-Za-z0-9_-]{20,100})`,
      'dg',
    ),
    gate: { keywords: ['heroku', 'hrku-'] },
  },
  {
    id: 'jwt',
    pattern: token('eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}', 'A-Za-z0-9_.-'),
    gate: { keywords: ['eyj'] },
  },
];
