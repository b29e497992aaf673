import { grantProject, grantStatements, revokeProject } from '../hub/grantAccess';
import { connectHub, HubError, type HubClient } from '../hub/hubConnection';
import { HUB_SCHEMA_VERSION, hubIdentity, initHub } from '../hub/hubSchema';
import { describeHubUrl, hubSettings, HubSettingsError, type HubSettings } from '../hub/hubSettings';
import { hubProjectOf, ProjectIdentityError } from '../hub/projectIdentity';
import { syncProject } from '../hub/syncProject';
import type { Project } from '../project';
import { CliError, type CliIO } from './command';

/** The hub settings, or the one line saying how to configure one. */
export function requireHub(io: CliIO): HubSettings {
  const settings = configuredHub(io);
  if (!settings) throw new CliError('no team hub configured: set `engram.team.url` in VS Code or ENGRAM_TEAM_URL to postgres://user@host:5432/database (docs/team.md)');
  return settings;
}

function configuredHub(io: CliIO): HubSettings | null {
  try {
    return hubSettings(io.env);
  } catch (error) {
    if (error instanceof HubSettingsError) throw new CliError(error.message);
    throw error;
  }
}

export async function withHub<T>(settings: HubSettings, use: (client: HubClient) => Promise<T>, timeoutMs = 10_000): Promise<T> {
  let client: HubClient;
  try {
    client = await connectHub(settings.url, { timeoutMs });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  try {
    return await use(client);
  } catch (error) {
    if (error instanceof HubError) throw new CliError(error.message);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function hubProjectFor(project: Project, io: CliIO): Promise<string> {
  try {
    return await hubProjectOf(project.root, io.env);
  } catch (error) {
    if (error instanceof ProjectIdentityError) throw new CliError(error.message);
    throw error;
  }
}

/** `engram team init`: creates or migrates the hub schema (idempotent; two machines at once take turns). */
export async function initCommand(io: CliIO): Promise<number> {
  const settings = requireHub(io);
  return withHub(settings, async (client) => {
    let report;
    try {
      report = await initHub(client);
    } catch (error) {
      throw new CliError(`team hub ${describeHubUrl(settings.url)}: ${(error as Error).message}`);
    }
    const what = report.from === report.to ? `already at schema version ${report.to}` : report.from === 0 ? `created (schema version ${report.to})` : `migrated from schema version ${report.from} to ${report.to}`;
    io.out(`team hub ${describeHubUrl(settings.url)} (${report.hubId}): ${what}\n`);
    return 0;
  });
}

/** `engram team sync`: pushes this project's queued changes and pulls the team's. */
export async function syncCommand(project: Project, io: CliIO): Promise<number> {
  const settings = requireHub(io);
  const hubProject = await hubProjectFor(project, io);
  return withHub(settings, async (client) => {
    let report;
    try {
      report = await syncProject(project, client, settings.url, hubProject, settings.syncAll);
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    io.out(`synced ${hubProject} with ${describeHubUrl(settings.url)}: ${report.pushed} pushed; ${report.added} added, ${report.updated} changed, ${report.removed} forgotten from the team\n`);
    for (const problem of report.problems) io.out(`${problem}\n`);
    return report.problems.length ? 1 : 0;
  });
}

/** `engram team grant ROLE` / `revoke ROLE`: run by the hub's owner; `--sql` prints the statements instead. */
export async function grantCommand(project: Project, io: CliIO, role: string, revoke: boolean, sqlOnly: boolean): Promise<number> {
  const hubProject = await hubProjectFor(project, io);
  if (sqlOnly) {
    const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
    const statements = revoke
      ? [`DELETE FROM engram.grants WHERE project = ${literal(hubProject)} AND role = ${literal(role)}`]
      : [...grantStatements(role), `INSERT INTO engram.grants (project, role) VALUES (${literal(hubProject)}, ${literal(role)}) ON CONFLICT DO NOTHING`];
    io.out(statements.map((s) => `${s};\n`).join(''));
    return 0;
  }
  const settings = requireHub(io);
  return withHub(settings, async (client) => {
    try {
      if (revoke) {
        const removed = await revokeProject(client, role, hubProject);
        io.out(removed ? `${role} no longer reads or writes ${hubProject}\n` : `${role} had no grant for ${hubProject}\n`);
      } else {
        await grantProject(client, role, hubProject);
        io.out(`${role} may read and write ${hubProject} on ${describeHubUrl(settings.url)}\n`);
      }
    } catch (error) {
      throw new CliError(`team hub ${describeHubUrl(settings.url)}: ${(error as Error).message}`);
    }
    return 0;
  });
}

function ago(at: number | null, now: number): string {
  if (at === null) return 'never';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  return seconds < 120 ? `${seconds} s ago` : `${Math.round(seconds / 60)} min ago`;
}

/** The hub lines of `engram team status`: the hub, the project, the cursor, what is pending, the last error. */
export async function hubStatusLines(project: Project, io: CliIO): Promise<{ readonly lines: string[]; readonly problem: boolean }> {
  const settings = configuredHub(io);
  if (!settings) return { lines: ['team hub: none (set engram.team.url or ENGRAM_TEAM_URL to share through PostgreSQL)'], problem: false };
  const state = project.hub.state();
  const now = Date.now();
  const lines = [`team hub: ${describeHubUrl(settings.url)}${settings.syncAll ? ' (syncAll)' : ''}`];
  let problem = false;
  let hubProject: string | null = null;
  try {
    hubProject = await hubProjectOf(project.root, io.env);
  } catch (error) {
    lines.push(`  project: ${(error as Error).message}`);
    problem = true;
  }
  if (hubProject) lines.push(`  project: ${hubProject}`);
  try {
    await withHub(
      settings,
      async (client) => {
        const { version } = await hubIdentity(client);
        const counted = hubProject ? await client.query<{ n: string; top: string | null }>('SELECT count(*) FILTER (WHERE NOT deleted) AS n, max(seq) AS top FROM engram.memories WHERE project = $1', [hubProject]) : null;
        const row = counted?.rows[0];
        lines.push(`  hub: reachable, schema version ${version}${version === HUB_SCHEMA_VERSION ? '' : ' (run `engram team init`)'}${row ? `, ${row.n} memories of this project visible to this role` : ''}`);
        if (row?.top) lines.push(`  behind: ${Math.max(0, Number(row.top) - state.cursor)} hub versions not pulled yet`);
      },
      5000,
    );
  } catch (error) {
    lines.push(`  hub: offline (${(error as Error).message})`);
    problem = true;
  }
  lines.push(`  cursor: ${state.following ? `hub version ${state.cursor}` : 'not synced yet'}; pending: ${project.hub.pendingCount()} local changes; linked: ${project.hub.linkCount()} memories`);
  lines.push(`  last sync: ${ago(state.lastSyncAt, now)}${state.lastError ? `; last error (${ago(state.lastErrorAt, now)}): ${state.lastError}` : ''}`);
  return { lines, problem };
}
