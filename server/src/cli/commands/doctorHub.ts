import type { Project } from '../../project';
import type { CliIO } from '../command';
import { hubStatusLines } from '../teamHubCommands';

/** The doctor's line for the team hub: its shape is the doctor's own `Check`. */
export interface HubCheck {
  readonly name: 'team hub';
  readonly ok: boolean;
  readonly warning?: boolean;
  readonly detail: string;
}

/**
 * Whether the team hub works for this project (docs/team.md): reachable, its schema, what is
 * pending and the last error, as `engram team status` says it, on one line. A hub that is down
 * is a warning: local memory works and changes wait. An unusable URL is an error.
 */
export async function checkTeamHub(project: Project, io: CliIO): Promise<HubCheck> {
  try {
    const { lines, problem } = await hubStatusLines(project, io);
    const detail = lines.map((line) => line.trim().replace(/^team hub: /, '')).join('; ');
    return problem ? { name: 'team hub', ok: true, warning: true, detail } : { name: 'team hub', ok: true, detail };
  } catch (error) {
    return { name: 'team hub', ok: false, detail: (error as Error).message };
  }
}
