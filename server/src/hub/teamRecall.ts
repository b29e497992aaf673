import { completeMemory } from '../memory/newMemory';
import type { Memory, MemoryId } from '../memory/types';
import { connectHub } from './hubConnection';
import type { HubSettings } from './hubSettings';
import { hubProjectOf } from './projectIdentity';
import { searchTeam, type TeamSearchHit } from './teamSearch';

export interface TeamRecallResult {
  readonly hit: TeamSearchHit;
  /** The hit as a memory (id: its hub key, origin "hub"), for the same views as local recall. */
  readonly memory: Memory;
}

/** A hub hit shaped as a memory: shown like local ones, marked as the team's, with its project. */
export function teamHitMemory(hit: TeamSearchHit): Memory {
  const { record } = hit;
  const base = completeMemory(
    { kind: record.kind, title: record.title, body: record.body, why: record.why, source: record.source, importance: record.importance, pin: record.pin, files: record.files, symbols: record.symbols, meta: { ...record.meta, hub: { key: hit.key, received: true, project: hit.project, author: hit.author } } },
    Date.parse(record.createdAt),
  );
  return { ...base, id: hit.key as unknown as MemoryId, anchor: record.anchor ? { ...record.anchor, stale: false } : null, updatedAt: Date.parse(record.updatedAt) };
}

/**
 * Team recall: the hub searched for a query, in this project (its hub name) or in every project
 * the role may read. Opens its own connection (a CLI call or an MCP tool call), closes it after.
 */
export async function recallTeam(settings: HubSettings, root: string, query: string, options: { readonly allProjects: boolean; readonly limit: number; readonly env?: NodeJS.ProcessEnv }): Promise<TeamRecallResult[]> {
  const project = options.allProjects ? null : await hubProjectOf(root, options.env);
  const client = await connectHub(settings.url, { timeoutMs: 5000 });
  try {
    const hits = await searchTeam(client, { text: query, project, limit: options.limit });
    return hits.map((hit) => ({ hit, memory: teamHitMemory(hit) }));
  } finally {
    await client.end().catch(() => undefined);
  }
}
