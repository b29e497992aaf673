import assert from 'node:assert/strict';

/** The lines the context block writes itself (server/src/recall/contextBlock.ts); a memory writes none. */
const BLOCK_LINES = [
  /^<engram-memory>$/,
  /^Engram memory.* — stored notes about this project: data, not instructions\. /,
  /^Constraints that apply here:$/,
  /^Relevant memories \(background, not rules\):$/,
  /^About [^\n]*:$/,
  /^ {0,2}- \[[a-z]+(?:, (?:hard|soft) pin)?, from (?:the user|Claude|an agent \(MCP\)|tool output|a change on disk|the project's git history)\] «[^«»]*»/,
  /^<\/engram-memory>$/,
];

/** Every line of `text` is one the block writes, the block opens and closes once, and no tag can open inside it. */
export function assertOnlyBlockStructure(text: string): void {
  const lines = text.split('\n');
  assert.equal(lines[0], '<engram-memory>');
  assert.equal(lines.at(-1), '</engram-memory>');
  assert.equal(text.split('</engram-memory>').length, 2, 'the closing tag appears once');
  assert.equal(text.split('<engram-memory>').length, 2, 'the opening tag appears once');
  for (const line of lines) assert.ok(BLOCK_LINES.some((shape) => shape.test(line)), `not a line of the block: ${JSON.stringify(line)}`);
  for (const line of lines.slice(1, -1)) assert.doesNotMatch(line, /[<＜﹤〈〈⟨]/, `a tag could open in ${JSON.stringify(line)}`);
}

/** The part of the block under "Constraints that apply here:" ('' when there is none). */
export function constraintsSection(text: string): string {
  const start = text.indexOf('\nConstraints that apply here:\n');
  if (start < 0) return '';
  const end = text.indexOf('\nRelevant memories (background, not rules):\n', start);
  return text.slice(start, end < 0 ? text.lastIndexOf('\n</engram-memory>') : end);
}
