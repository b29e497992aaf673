import os from 'node:os';
import type pgModule from 'pg';
import { describeHubUrl } from './hubSettings';
import { passwordFromFile, type PasswordFor } from './passwordFile';

/** The hub cannot be reached or refused a request; the message names the hub without its password. */
export class HubError extends Error {}

export type HubClient = pgModule.Client;

let loaded: typeof pgModule | undefined;

/**
 * node-postgres, loaded on first connection: `engram recall`, doctor and the memory server of a
 * project with no hub must not evaluate the driver at startup (~30 ms unbundled).
 */
function pg(): typeof pgModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  loaded ??= require('pg') as typeof pgModule;
  return loaded;
}

export interface ConnectOptions {
  /** Connecting and each statement give up after this long: a slow hub never holds Engram up for long. */
  readonly timeoutMs?: number;
  /** Where PGPASSWORD and PGPASSFILE are read (the CLI's environment). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * A connection to the hub. node-postgres takes the password from the URL, PGPASSWORD or the
 * PGPASSFILE (~/.pgpass) file and honours `sslmode` in the URL and PGSSLMODE; Engram keeps none of
 * them. Its search path is the hub's schema, then public (where pg_trgm may already live).
 */
export async function connectHub(url: string, options: ConnectOptions = {}): Promise<HubClient> {
  const timeout = options.timeoutMs ?? 15_000;
  const env = options.env ?? process.env;
  // Without a password in the URL: PGPASSWORD, else the password file (read only when the server asks for one).
  const password = new URL(url).password ? undefined : () => (env.PGPASSWORD ?? passwordFromFile(connectionTarget(url, env), env)) as string;
  const client = new (pg().Client)({ connectionString: libpqSslmode(url), connectionTimeoutMillis: timeout, query_timeout: timeout * 4, application_name: 'engram', keepAlive: true });
  // Set after construction: node-postgres lets the parsed URL's (absent) password replace a `password` option.
  if (password) (client as unknown as { password: () => string }).password = password;
  // A dropped connection is reported by the next query; without a listener it would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SET search_path TO engram, public');
  } catch (error) {
    await client.end().catch(() => undefined);
    throw hubError(url, error);
  }
  return client;
}

/**
 * The URL with `sslmode` meaning what it means to libpq and psql (`require`: encrypted, the
 * certificate not checked; `verify-full`: checked against the host name). node-postgres reads
 * `require` as `verify-full` unless asked for libpq's meaning, and warns on every process.
 */
export function libpqSslmode(url: string): string {
  const u = new URL(url);
  if (!u.searchParams.has('sslmode') || u.searchParams.has('uselibpqcompat')) return url;
  u.searchParams.set('uselibpqcompat', 'true');
  return u.toString();
}

/** Host, port, database and user of a URL, with libpq's defaults, to find its line in the password file. */
function connectionTarget(url: string, env: NodeJS.ProcessEnv): PasswordFor {
  const u = new URL(url);
  const user = decodeURIComponent(u.username) || env.PGUSER || os.userInfo().username;
  return {
    host: decodeURIComponent(u.hostname).replace(/^\[|\]$/g, '') || env.PGHOST || 'localhost',
    port: Number(u.port || env.PGPORT || 5432),
    database: decodeURIComponent(u.pathname.slice(1)) || env.PGDATABASE || user,
    user,
  };
}

/** A driver error as one line that names the hub (user, host, database) and what went wrong. */
export function hubError(url: string, error: unknown): HubError {
  if (error instanceof HubError) return error;
  const message = (error as Error).message || String(error);
  const code = (error as { code?: string }).code;
  return new HubError(`team hub ${describeHubUrl(url)}: ${message}${code && !message.includes(code) ? ` (${code})` : ''}`);
}

/** Runs `work` in one hub transaction: committed when it returns, rolled back when it throws. */
export async function inHubTransaction<T>(client: HubClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
