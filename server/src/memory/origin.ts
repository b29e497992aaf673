import { isFromHub } from '../hub/hubMark';
import { isFromTeamFile } from '../team/teamMark';
import type { Memory } from './types';

/**
 * Whose words a memory holds, as an agent is told: a rule the user set weighs differently from a
 * line a failed command printed. `source` says which channel stored a memory; the origin says
 * who wrote its text (a prompt read from a Claude Code transcript is the user's, not Claude's).
 */
export const MEMORY_ORIGINS = ['user', 'claude', 'agent', 'tool-output', 'disk', 'git', 'team', 'hub'] as const;
export type MemoryOrigin = (typeof MEMORY_ORIGINS)[number];

/** "from …" in the context given to agents, which read "you" as themselves: hence "the user". */
export const ORIGIN_LABELS: Readonly<Record<MemoryOrigin, string>> = {
  user: 'from the user',
  claude: 'from Claude',
  agent: 'from an agent (MCP)',
  'tool-output': 'from tool output',
  disk: 'from a change on disk',
  // A commit's message is its author's, who may be anyone whose work the repository holds.
  git: "from the project's git history",
  // Whoever can push to the repository writes the team file; a pinned constraint there is the team's rule (docs/team.md).
  team: "from the project's team memory (.engram/memories.jsonl)",
  // A teammate's memory through the team hub (PostgreSQL): their words, as the file's are.
  hub: "from the project's team hub (a teammate's memory)",
};

export function originOf(memory: Pick<Memory, 'kind' | 'source' | 'meta'>): MemoryOrigin {
  // Its text came from the team file, whatever channel first stored it in the sharer's clone.
  if (isFromTeamFile(memory)) return 'team';
  if (isFromHub(memory)) return 'hub';
  switch (memory.source) {
    case 'user':
    case 'editor':
      return 'user';
    case 'disk':
      return 'disk';
    case 'git':
      return 'git';
    case 'mcp':
      return 'agent';
    case 'claude':
      // Transcript gotchas quote what a failed tool printed (transcriptMemories.ts).
      if (memory.kind === 'gotcha') return 'tool-output';
      // Prompts, the rules they state and the choices the user made in them.
      if (memory.kind === 'intent' || memory.meta.extractor === 'rule-statement' || memory.meta.by === 'user') return 'user';
      return 'claude';
  }
}
