import type { Project } from '../project';
import { hubError, type HubClient } from './hubConnection';
import { hubIdentity } from './hubSchema';
import { pullChanges, type PullReport } from './pullChanges';
import { pushChanges, type HubProject } from './pushChanges';

export interface HubSyncReport extends PullReport {
  readonly pushed: number;
  readonly hubProject: string;
}

/** The message kept and shown for a failed sync: one line, credentials redacted, a grant named when one is missing. */
export function syncFailure(url: string, hubProject: string, error: unknown): string {
  const code = (error as { code?: string }).code;
  const base = hubError(url, error).message;
  // 42501: insufficient privilege, and a row-level-security refusal.
  return code === '42501' ? `${base}; this role has no grant for project ${hubProject} (the hub's owner runs \`engram team grant ROLE\` in it)` : base;
}

/**
 * One sync of a project with the hub: the hub is checked (its schema, and that it is the hub this
 * store followed: another one starts over), the outbox is pushed, then the hub's changes since the
 * cursor are pulled. What fails is recorded for `engram team status` and thrown; nothing local is
 * lost by a failure, and the next sync goes on from where this one stopped.
 */
export async function syncProject(project: HubProject & Pick<Project, 'redactor'>, client: HubClient, url: string, hubProject: string, syncAll: boolean, now: number = Date.now()): Promise<HubSyncReport> {
  try {
    const { hubId } = await hubIdentity(client);
    const state = project.hub.state();
    if (!state.following || state.hubId !== hubId || state.project !== hubProject) project.hub.follow(hubId, hubProject);
    const pushed = await pushChanges(project, client, hubProject, syncAll);
    const pulled = await pullChanges(project, client, hubProject);
    project.hub.synced(now);
    return { ...pulled, pushed, hubProject };
  } catch (error) {
    const message = project.redactor.text(syncFailure(url, hubProject, error));
    project.hub.failed(message, now);
    throw Object.assign(new Error(message), { cause: error });
  }
}
