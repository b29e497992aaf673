import { inHubTransaction, type HubClient } from './hubConnection';

/** A role name PostgreSQL accepts unquoted or quoted: refused here rather than half-granted. */
const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/;

/**
 * The SQL `engram team grant ROLE --project P` runs (docs/team.md shows it to run by hand): the
 * role may use the hub's tables, and the project's rows become visible and writable to it (and to
 * the roles that are members of it) through row-level security. Run by the hub's owner.
 */
export function grantStatements(role: string): string[] {
  const quoted = `"${role.replaceAll('"', '""')}"`;
  return [
    `GRANT USAGE ON SCHEMA engram TO ${quoted}`,
    `GRANT SELECT ON engram.hub, engram.grants, engram.my_projects TO ${quoted}`,
    `GRANT SELECT, INSERT, UPDATE ON engram.memories, engram.revisions TO ${quoted}`,
    `GRANT USAGE ON SEQUENCE engram.change_seq TO ${quoted}`,
  ];
}

export async function grantProject(client: HubClient, role: string, project: string): Promise<void> {
  if (!ROLE_NAME.test(role)) throw new Error(`"${role}" is not a role name Engram grants (letters, digits, _ $ -)`);
  await inHubTransaction(client, async () => {
    for (const statement of grantStatements(role)) await client.query(statement);
    await client.query('INSERT INTO engram.grants (project, role) VALUES ($1, $2) ON CONFLICT DO NOTHING', [project, role]);
  });
}

/** Takes a project away from a role: its rows are invisible to it from the next statement on. */
export async function revokeProject(client: HubClient, role: string, project: string): Promise<boolean> {
  const { rowCount } = await client.query('DELETE FROM engram.grants WHERE project = $1 AND role = $2', [project, role]);
  return (rowCount ?? 0) > 0;
}
