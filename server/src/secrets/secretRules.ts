import { BARE_TOKEN_CHARACTERS, findBareTokens } from './bareTokens';
import { CODE_LITERAL_RULES } from './codeLiteralSecrets';
import { COMMAND_LINE_RULES } from './commandLineRules';
import { CONFIG_FILE_RULES, findTableSecrets } from './configFileSecrets';
import { CREDENTIAL_SYNTAX_RULES } from './credentialSyntaxRules';
import { DEVICE_CONFIG_RULES } from './deviceConfigSecrets';
import { findKeyedSecrets } from './keyedSecrets';
import { findListedValues } from './listedValues';
import { LOGIN_TOOL_RULES } from './loginToolSecrets';
import { findNamedValues } from './namedValues';
import { findPositionalSecrets, POSITIONAL_KEYWORDS } from './positionalSecrets';
import { findPrivateKeyBlocks, holdsPlaceholder } from './privateKeyBlocks';
import { findPrintedSecrets, PRINTED_SECRET_KEYWORDS } from './printedSecrets';
import { findForeignScriptSecrets, findProseSecrets, findQualifiedKeys, PROSE_CHARACTERS, PROSE_KEYWORDS } from './proseSecrets';
import { KEYWORD_GATE } from './secretPatterns';
import { findSentenceSecrets, SENTENCE_KEYWORDS } from './sentenceSecrets';
import { findPrefixedTokens, PREFIXED_TOKEN_RUN } from './prefixedTokens';
import { SERVER_CONFIG_RULES } from './serverConfigSecrets';
import { findSqlInsertSecrets, SQL_INSERT_KEYWORDS } from './sqlInsertValues';
import { findXmlRpcPasswords, XML_RPC_KEYWORDS } from './xmlRpcSecrets';
import { TOKEN_RULES } from './tokenRules';
import { findTruncatedTokens } from './truncatedTokens';

/**
 * The secret shapes Engram removes before anything is stored, modelled on gitleaks' default
 * rules plus the forms a coding session writes them in (commands, configs, DSNs).
 */

/** A half-open span of the scanned text that holds a secret. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
}

/** A secret a scan found; `rule` names it when the scan knows several forms (else the rule's id). */
export interface FoundSecret extends SecretSpan {
  readonly rule?: string;
}

/**
 * What every match of a rule contains, cheap to look for before the rule runs (gitleaks'
 * keywords): one of some lowercase strings, or, for shapes with no fixed part, a run of at least
 * `tokenRun` characters from [A-Za-z0-9_-], or one of some `characters`: one outside ASCII (`…`),
 * which a text of ASCII alone is known not to hold without reading it, or the quotes and brackets
 * a bare value stands between. Most text holds none, and skips the rule.
 */
export type RuleGate = { readonly keywords: readonly string[] } | { readonly tokenRun: number } | { readonly characters: string };

export interface PatternRule {
  readonly id: string;
  /**
   * Global regex with the `d` flag. The first capture group that took part in the match is the
   * secret (so key names and URL hosts stay readable); without groups the whole match is.
   */
  readonly pattern: RegExp;
  readonly gate: RuleGate;
  /**
   * Rejects look-alikes the pattern cannot rule out by itself, e.g. `token = getToken()`; the
   * scan then goes on from the character after `matchStart`, so a match inside it is still found.
   */
  readonly accept?: (secret: string, text: string, span: SecretSpan, matchStart: number) => boolean;
}

export interface ScanRule {
  readonly id: string;
  /** For shapes a regex cannot find in linear time, such as multi-line PEM blocks. */
  readonly find: (text: string) => FoundSecret[];
  readonly gate: RuleGate;
}

export type SecretRule = PatternRule | ScanRule;

/** Specific shapes first: when spans overlap, the earlier rule names the redaction. */
export const SECRET_RULES: readonly SecretRule[] = [
  {
    id: 'gcp-service-account-key',
    pattern: /"private_key"\s{0,4}:\s{0,4}"(-----BEGIN[^"]{0,10000})"/dg,
    gate: { keywords: ['"private_key"'] },
    accept: (secret) => !holdsPlaceholder(secret),
  },
  { id: 'private-key', find: findPrivateKeyBlocks, gate: { keywords: ['private key'] } },
  ...TOKEN_RULES,
  { id: 'prefixed-token', find: findPrefixedTokens, gate: { tokenRun: PREFIXED_TOKEN_RUN } },
  { id: 'truncated-token', find: findTruncatedTokens, gate: { characters: '…' } },
  ...COMMAND_LINE_RULES,
  ...CREDENTIAL_SYNTAX_RULES,
  ...CONFIG_FILE_RULES,
  ...SERVER_CONFIG_RULES,
  ...DEVICE_CONFIG_RULES,
  ...LOGIN_TOOL_RULES,
  ...CODE_LITERAL_RULES,
  { id: 'table-secret', find: findTableSecrets, gate: { keywords: ['pass', 'pwd', 'secret', 'token', 'key'] } },
  { id: 'positional-password', find: findPositionalSecrets, gate: { keywords: POSITIONAL_KEYWORDS } },
  { id: 'positional-password', find: findSqlInsertSecrets, gate: { keywords: SQL_INSERT_KEYWORDS } },
  { id: 'positional-password', find: findXmlRpcPasswords, gate: { keywords: XML_RPC_KEYWORDS } },
  { id: 'generic-assignment', find: findKeyedSecrets, gate: { keywords: KEYWORD_GATE } },
  { id: 'named-value', find: findNamedValues, gate: { keywords: KEYWORD_GATE } },
  { id: 'listed-secret', find: findListedValues, gate: { keywords: [':\n', ':\r\n', '<<<'] } },
  { id: 'prose-secret', find: findProseSecrets, gate: { keywords: PROSE_KEYWORDS } },
  { id: 'prose-secret', find: findForeignScriptSecrets, gate: { characters: PROSE_CHARACTERS } },
  { id: 'prose-secret', find: findQualifiedKeys, gate: { keywords: ['key'] } },
  { id: 'prose-secret', find: findSentenceSecrets, gate: { keywords: SENTENCE_KEYWORDS } },
  { id: 'printed-secret', find: findPrintedSecrets, gate: { keywords: PRINTED_SECRET_KEYWORDS } },
  // Last: a value found by a rule above is named by it.
  { id: 'high-entropy-string', find: findBareTokens, gate: { characters: BARE_TOKEN_CHARACTERS } },
];

export const USER_PATTERN_RULE_ID = 'user-pattern';
