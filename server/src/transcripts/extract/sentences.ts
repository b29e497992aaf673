/**
 * Splits a message into the sentences the extractors look at. Code blocks, quoted lines and
 * inline code are left out or blanked: a rule the user quotes from a log or pastes in code is
 * not a rule they state.
 */
export function sentencesOf(text: string): string[] {
  const prose = text
    .replace(/```[\s\S]*?(```|$)/g, '\n')
    .split('\n')
    .filter((line) => !/^\s*>/.test(line))
    .join('\n');
  const sentences: string[] = [];
  for (const line of prose.split(/\n+/)) {
    for (const part of line.split(/(?<=[.!?])\s+(?=[A-Za-z`"'(*_-])|;\s+/)) {
      const sentence = part.trim();
      if (sentence) sentences.push(sentence);
    }
  }
  return sentences;
}

/**
 * The sentence as an instruction would begin: list markers, markdown emphasis and openers such
 * as "please", "also", "remember:" removed, lower-cased, with curly apostrophes made straight.
 */
export function normalizedSentence(sentence: string): string {
  let s = sentence.replace(/[\u2018\u2019]/g, "'").replace(/[*_]{1,2}/g, '').trim();
  s = s.replace(/^(?:[-+•]|\d+[.)])\s+/, '');
  const opener = /^(?:please|pls|also|and|but|so|oh|ok|okay|btw|fyi|note|important|rule|reminder|remember(?: that| to)?|one more thing|going forward|from now on|in (?:the )?future|as a rule)\b[,:!-]?\s*/i;
  for (let i = 0; i < 4 && opener.test(s); i++) s = s.replace(opener, '');
  return s.toLowerCase();
}
