import { readEngramConfig } from '../config/engramConfig';

/** Where the team hub is and what goes there: from `engram.team.*` (config.json) or ENGRAM_TEAM_URL. */
export interface HubSettings {
  /** As given: credentials in it stay in memory, never in the store, a log line or an export. */
  readonly url: string;
  /** Also the project's decisions, gotchas, facts and diff memories, not only shared ones. */
  readonly syncAll: boolean;
}

/** The hub URL cannot be used; the message says what to change. */
export class HubSettingsError extends Error {}

/**
 * The settings, or null when no hub is configured (the usual case: Engram is local).
 * `configuredUrl`: the memory server's own `engram.team.url`, which may hold a password that
 * config.json does not (withoutPassword).
 */
export function hubSettings(env: NodeJS.ProcessEnv = process.env, configuredUrl?: string): HubSettings | null {
  const { config } = readEngramConfig(env);
  const url = (env.ENGRAM_TEAM_URL ?? '').trim() || (configuredUrl ?? config.team.url).trim();
  if (!url) return null;
  checkHubUrl(url);
  const syncAll = env.ENGRAM_TEAM_SYNC_ALL === undefined ? config.team.syncAll : env.ENGRAM_TEAM_SYNC_ALL === '1';
  return { url, syncAll };
}

function parsed(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new HubSettingsError(`the team hub URL is not a URL (expected postgres://user@host:5432/database): ${describeHubUrl(url)}`);
  }
}

/**
 * The URL to keep in config.json for the CLI, hooks and MCP servers: a password typed into the
 * setting stays with the memory server, in memory (those processes take it from PGPASSWORD or
 * the password file). Anything unparsable is kept as written, for the reader to report.
 */
export function withoutPassword(url: string): string {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return url;
  }
  if (!u.password && !u.searchParams.has('password')) return url;
  u.password = '';
  u.searchParams.delete('password');
  return u.toString();
}

export function checkHubUrl(url: string): void {
  const { protocol } = parsed(url);
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') throw new HubSettingsError(`the team hub URL must start with postgres:// (it is ${protocol}//…)`);
}

/**
 * The URL as it may be shown: user, host, port, database and sslmode, never the password (nor
 * other query parameters, which may carry one). Anything unparsable is not shown at all.
 */
export function describeHubUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '(an unreadable URL)';
  }
  const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
  const sslmode = u.searchParams.get('sslmode');
  return `${u.protocol}//${user}${u.host}${u.pathname}${sslmode ? `?sslmode=${sslmode}` : ''}`;
}
