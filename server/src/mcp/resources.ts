import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { isRuleCandidate } from '../memory/ruleCandidate';
import type { Project } from '../project';
import { fullMemoryOf, fullMemoryText } from './fullMemory';
import { memoryLines } from './memoryView';

export const CONSTRAINTS_URI = 'engram://constraints';
export const MEMORY_URI_TEMPLATE = 'engram://memory/{id}';
/** "Resource not found" in the MCP specification. */
const RESOURCE_NOT_FOUND = -32002;
const CONSTRAINTS_MAX = 500;

function constraintsMarkdown(project: Project): string {
  const constraints = project.store.reads.byRowids(project.lists.activeConstraints(CONSTRAINTS_MAX + 1));
  if (!constraints.length) return `# Engram constraints of ${project.root}\n\nNone recorded yet.`;
  const shown = constraints.slice(0, CONSTRAINTS_MAX);
  const groups = [
    ['Hard-pinned: must always hold', shown.filter((c) => c.pin === 'hard')],
    ['Soft-pinned', shown.filter((c) => c.pin === 'soft')],
    ['Not pinned', shown.filter((c) => c.pin === 'none' && !isRuleCandidate(c))],
    ['Rule candidates: extracted from prompts, not rules until a person accepts them', shown.filter(isRuleCandidate)],
  ] as const;
  const lines = [`# Engram constraints of ${project.root}`];
  for (const [heading, group] of groups) {
    if (group.length) lines.push('', `## ${heading}`, ...group.map((c) => memoryLines(c)));
  }
  if (constraints.length > CONSTRAINTS_MAX) lines.push('', `(only the first ${CONSTRAINTS_MAX}; use the constraints tool with a file to narrow down)`);
  return lines.join('\n');
}

/** `engram://constraints` (every active constraint) and `engram://memory/{id}` (one memory in full). */
export function registerResources(server: McpServer, project: Project): void {
  server.registerResource(
    'constraints',
    CONSTRAINTS_URI,
    {
      title: 'Project constraints',
      description: 'Every active constraint of the project (rules code must follow), hard pins first, with scope and why.',
      mimeType: 'text/markdown',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: constraintsMarkdown(project) }] }),
  );

  server.registerResource(
    'memory',
    new ResourceTemplate(MEMORY_URI_TEMPLATE, { list: undefined }),
    {
      title: 'A memory',
      description: 'One memory in full by id: text, why, where it applies, a diff\'s patch, and links.',
      mimeType: 'text/markdown',
    },
    (uri, variables) => {
      const id = decodeURIComponent(String(variables.id ?? ''));
      const memory = project.store.get(id);
      if (!memory) throw new McpError(RESOURCE_NOT_FOUND, `no memory with id ${id}`, { uri: uri.href });
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: fullMemoryText(memory, fullMemoryOf(project, memory)) }] };
    },
  );
}
