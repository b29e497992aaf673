import type { SecretSpan } from './secretRules';

/** The fixed starts of the token shapes in tokenRules.ts, at a word's start. */
export const TOKEN_PREFIX =
  /(?<![A-Za-z0-9])(?:gh[pousr]_|github_pat_|gl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt|agent)-|xox[abeoprs]-|xapp-|[sr]k_(?:live|test|prod)_|whsec_|SG\.|npm_|pypi-|sk-|hf_|do[opr]_v1_|shp(?:at|ca|pa|ss)_|hv[sbr]\.|eyJ|AIza|GOCSPX-|A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|dapi|HRKU-)/;
const MAX_RUN = 300;
/** A piece with less of its body than this says too little of the token to matter. */
const MIN_BODY = 4;

/** [A-Za-z0-9_.+=-]: a token, or the base64 or dotted parts some have. */
function isPieceCharacter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46 || c === 43 || c === 61;
}

/**
 * Tokens cut short by an ellipsis: a title or summary shortened before it was stored. With its
 * end gone no rule recognizes the token's shape, but its prefix still does; the piece is
 * redacted from the prefix to the ellipsis.
 */
export function findTruncatedTokens(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (let at = text.indexOf('…'); at >= 0; at = text.indexOf('…', at + 1)) {
    let start = at;
    while (start > 0 && at - start < MAX_RUN && isPieceCharacter(text.charCodeAt(start - 1))) start--;
    const prefix = TOKEN_PREFIX.exec(text.slice(start, at));
    if (prefix && at - (start + prefix.index) >= prefix[0].length + MIN_BODY) spans.push({ start: start + prefix.index, end: at });
  }
  return spans;
}
