/**
 * Lines of a Claude Code transcript (../shared/docs/claude-code.md), written as the CLI writes
 * them: one JSON record per line, uuids r-1, r-2, … and a second apart, for one session in `cwd`.
 */
export function transcriptRecords(sessionId: string, cwd: string) {
  let n = 0;
  const line = (fields: Record<string, unknown>) =>
    `${JSON.stringify({ sessionId, uuid: `r-${++n}`, parentUuid: null, timestamp: new Date(Date.UTC(2026, 10, 1, 10, 0, n)).toISOString(), cwd, isSidechain: false, ...fields })}\n`;
  return {
    line,
    prompt: (text: string) => line({ type: 'user', message: { role: 'user', content: text } }),
    said: (text: string) => line({ type: 'assistant', message: { id: `m-${n}`, role: 'assistant', content: [{ type: 'text', text }] } }),
    call: (id: string, name: string, input: Record<string, unknown>) => line({ type: 'assistant', message: { id: `m-${n}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } }),
    result: (id: string, content: string, isError = false, toolUseResult?: unknown) =>
      line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] }, ...(toolUseResult ? { toolUseResult } : {}) }),
  };
}
