/**
 * `text` with CRLF line breaks made LF. Anchors, diffs and rules compare lines, and a file saved
 * with Windows line endings holds the same lines as one saved with Unix endings.
 */
export function withLfEndings(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n/g, '\n') : text;
}
