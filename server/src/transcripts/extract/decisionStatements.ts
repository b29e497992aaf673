import { normalizedSentence, sentencesOf } from './sentences';

/**
 * Decision candidates: a choice stated together with its reason ("decided / chose / going with X
 * because …", "X instead of Y — …"). A choice without a reason is left out: the reason is what
 * makes a decision worth remembering. The reason may be the sentence right after a firm choice
 * ("I opted for X. Scoring every row would …"). Measured in docs/extraction.md.
 */

/** Words that state a choice made (or being made now). */
const CHOICE =
  /\b(?:decided|decide to|we decide|chose|choosing|chosen|went with|gone with|going with|go with|opted (?:for|to)|settled on|picked|we'll use|we will use|i'll use|i will use|let's use|let's go with|let's not|we'll go with|i'll go with|we'll stick with|stick with|sticking with|switched|switching|we're using|we are using|we use|we store|we're moving|moving \S+(?: \S+){0,4} to|moved to|replaced \S+(?: \S+){0,4} with|ended up|standardi[sz]ing on|standardi[sz]ed on|final answer|the plan:|i kept|i've kept|we kept|keeping|i removed|i used|i've used|i put|made it)\b/;

/** "X instead of Y", "X rather than Y", "X, not Y": a choice by contrast. */
const CONTRAST = /\b(?:instead of|rather than)\b|,\s+not\s+\w|\band not\b|\bover\s+(?:`|[a-z0-9.-]+\s+(?:for|because|since|—))/;

/** A firm choice (not just "use X instead of Y") may carry its reason in the next sentence. */
const FIRM_CHOICE = /\b(?:decided|chose|chosen|went with|gone with|opted|settled on|switched|switching|ended up|standardi[sz]|final answer|the plan:|i kept|i've kept|we kept|i removed|i used|going with|stick with|we'll stick|we're moving)\b/;

const REASON =
  /\b(?:because|since|so that|so (?:we|it|the|that|deleting|a|an)|due to|given that|to avoid|in order to|as (?:it|this|that|they|we|the)|which (?:means|makes|keeps|avoids|lets|gives)|that (?:lets|makes|keeps|way|means)|the reason|reasoning|for (?:speed|safety|simplicity|performance|consistency|compatibility))\b|\s[—–]\s|\s-\s|:\s/;

/** Offers, questions and narration of the agent's own steps are not decisions. */
const NOT_A_DECISION =
  /\b(?:i'd suggest|i would suggest|i suggest|i recommend|i'd recommend|want me to|shall i|should i|should we|would you like|do you want|if you (?:want|prefer)|could we|we could|maybe we|the \w+ tool|tool with|branch\b|first because|first, since|let me)\b/;

function isQuestion(sentence: string): boolean {
  return sentence.trim().endsWith('?');
}

/** The decision in `sentences[i]`, joined with the next sentence when that one holds the reason; null when none. */
function decisionAt(sentences: readonly string[], i: number): string | null {
  const raw = sentences[i]!.trim();
  if (isQuestion(raw)) return null;
  const s = normalizedSentence(raw);
  if (/^(?:if|should|could|would|can|do|does|did|why|whether|maybe|perhaps)\b/.test(s) || NOT_A_DECISION.test(s)) return null;
  const choice = CHOICE.exec(s) ?? CONTRAST.exec(s);
  if (!choice) return null;
  // The reason follows the choice ("X because Y"), not some clause before it.
  if (REASON.test(s.slice(choice.index + choice[0].length)) || (CONTRAST.test(s) && REASON.test(s))) return raw;
  const next = sentences[i + 1];
  if (next && FIRM_CHOICE.test(s) && !isQuestion(next) && !/^(?:can you|could you|please|now|then|next|also|ok|okay|thanks)\b/i.test(next.trim())) {
    return `${raw} ${next.trim()}`;
  }
  return null;
}

/** The decisions of a prompt or an assistant message, in order (each with its reason). */
export function decisionStatements(text: string): string[] {
  const sentences = sentencesOf(text);
  const found: string[] = [];
  for (let i = 0; i < sentences.length; i++) {
    const decision = decisionAt(sentences, i);
    if (decision) found.push(decision);
  }
  return found;
}
