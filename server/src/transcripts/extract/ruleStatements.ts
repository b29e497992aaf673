import { normalizedSentence, sentencesOf } from './sentences';

/**
 * Constraint candidates: sentences of a user's prompt that state a standing rule ("never …",
 * "always …", "don't …", "must not …", "we use X, not Y"). Deliberately narrow — a missed rule
 * can still be pinned by hand, a wrong one is noise in every later prompt. The patterns and
 * their measured precision and recall are in docs/extraction.md.
 */

/** Openers that are not instructions: "never mind", "don't worry", "always fails on CI". */
const NOT_AN_INSTRUCTION =
  /^(?:never\s+mind|never\s+(?:was|were|is|has|had|did|does|worked|works|got|seen|been|happened|understood|thought|knew|imagined|expected|realized|noticed)|always\s+(?:was|were|is|has|had|did|does|fails?|failing|failed|breaks?|crashes|crashed|returns|happens|seems|seemed|works|worked|gets|got|shows?|times out|hangs|the same)|(?:do not|don't|dont)\s+(?:worry|bother|know|understand|think|see|get|remember|care|mind|forget|make me|have|need to worry)|(?:do not|don't|dont|never)\s+\w+\s+(?:those|these|that one|them|it)\b|don't you)\b/;

/** One-off scope: an instruction about this task, not a rule that keeps holding. */
const TEMPORARY =
  /\b(?:for now|right now|just now|yet|this time|today|at the moment|for the moment|temporarily|until (?:i|we) |in this (?:pr|commit|change|branch|session|task|step)|for this (?:pr|task|change|commit|run|test run|one)|in the (?:next|following) (?:step|commit)|you're (?:drafting|writing)|must not have|must have)\b/;

const IMPERATIVE_START = [
  /^(?:never|always)\s+\w/,
  /^(?:do not|don't|dont|must not|mustn't|must never|must always|should never|should always|shouldn't|should not|under no circumstances)\b/,
  /^avoid\s+\w/,
  /^(?:make sure|ensure|be sure)\b.*\b(?:always|never|don't|do not|only|every|all|any)\b/,
  /^only (?:ever )?(?:use|call|write|import|touch|run|commit|edit)\b/,
  /^(?:use|prefer|write|keep|put)\s+[^;]{1,80}?\s*,?\s+(?:instead of|rather than|over|not)\s+\S/,
  /^no\s+(?:`|\w+(?:\s+\w+)?\s+(?:into|anywhere|ever|allowed|in (?:this|the) (?:repo|project|codebase))\b)/,
  /^nothing\b.*\b(?:should|must|may|can)\b/,
  /^stop\s+\w+ing\b/,
  /^we only (?:ever )?\w+/,
  /^keep (?:all|every|each)\b/,
];

/** A duty stated in general terms: a modal verb plus a word that makes it general. */
const DUTY = /\b(?:must|has to|have to|needs? to|shall)\b/;
const GENERAL = /\b(?:every|all|always|never|any|anything|anywhere|everywhere|nothing|each|every time|only)\b/;

const RULE_ANYWHERE = [
  /\b(?:we|you|i|everyone|all code|code|this project|the project|this repo|the repo|this codebase|the codebase|our team|tests)\s+(?:must|should|shall|need to|have to)\s+(?:never|always|not)\b/,
  /\b(?:must|should|shall|may) never\b|\bmust not\b|\bmustn't\b/,
  /\b(?:we|this project|the project|this repo|the codebase|this codebase|our team|the team)\s+(?:always\s+|only\s+)?(?:use|uses|go with)\s+[^,;.]{1,60}?,?\s+(?:not|never|instead of|rather than)\s+\S/,
  /\b(?:is|are)\s+(?:not allowed|forbidden|prohibited|banned|never allowed)\b/,
  /\b(?:from now on|going forward|as a rule|in the future|for the future|for future reference|hard rule|rule for this (?:project|repo)|for the whole (?:repo|project|codebase)|anywhere in the (?:repo|codebase|project)|every time|everywhere)\b/,
  /(?:,|[—–]|\s-)\s*(?:never|always|don't|do not)\s+\w/,
  /(?<!\bi )\b(?:always|never)\s+(?:use|call|write|put|add|run|commit|import|return|throw|log|store|keep|name|prefix|wrap|check|validate|await|let|spam|block|hardcode|hard-code)\b/,
];

/** "Rule for this project: …", "When you write SQL: …": the instruction is what follows the colon. */
function afterLabel(s: string): string | null {
  const colon = /^[^:]{2,60}:\s+(.+)$/.exec(s);
  return colon ? colon[1]! : null;
}

function isRule(s: string): boolean {
  if (s.length < 8 || NOT_AN_INSTRUCTION.test(s) || TEMPORARY.test(s)) return false;
  return IMPERATIVE_START.some((p) => p.test(s)) || RULE_ANYWHERE.some((p) => p.test(s)) || (DUTY.test(s) && GENERAL.test(s));
}

export function isRuleStatement(sentence: string): boolean {
  const raw = sentence.trim();
  if (raw.endsWith('?')) return false;
  // The openers stripped by normalizedSentence include "from now on", so the raw text counts too.
  const lowered = raw.toLowerCase().replace(/[\u2018\u2019]/g, "'");
  const s = normalizedSentence(raw);
  const labelled = afterLabel(s);
  return isRule(s) || (labelled !== null && isRule(labelled)) || (!TEMPORARY.test(lowered) && !NOT_AN_INSTRUCTION.test(s) && RULE_ANYWHERE.slice(4, 5).some((p) => p.test(lowered)));
}

/** The rule sentences of a user prompt, in order. */
export function ruleStatements(prompt: string): string[] {
  return sentencesOf(prompt).filter(isRuleStatement);
}
