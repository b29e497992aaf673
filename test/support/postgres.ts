// A real PostgreSQL for the team hub's tests and bench (docs/team.md): a cluster made by initdb in
// a temporary folder, on a free loopback port, with its socket in that folder. initdb and postgres
// refuse to run as root, so as root (a Debian container, CI) they run as `nobody` through runuser.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const SUPERUSER = 'engram_admin';
export const SUPERUSER_PASSWORD = 'admin-password-for-tests';

export interface PostgresCluster {
  readonly port: number;
  readonly dir: string;
  /** postgres://user:password@127.0.0.1:port/database */
  url(database: string, user?: string, password?: string): string;
  /** Runs SQL as the superuser in a database. */
  sql(database: string, text: string, values?: unknown[]): Promise<pg.QueryResult>;
  start(): void;
  /** `pg_ctl stop -m immediate` kills the server as a crash would; `fast` shuts it down cleanly. */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Stops the server and removes its folder. */
  destroy(): void;
}

/** Where Debian's (or the user's) PostgreSQL programs are: ENGRAM_PG_BIN, else the newest /usr/lib/postgresql/N/bin. */
export function postgresBin(): string | null {
  if (process.env.ENGRAM_PG_BIN) return existsSync(path.join(process.env.ENGRAM_PG_BIN, 'initdb')) ? process.env.ENGRAM_PG_BIN : null;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => /^\d+$/.test(v) && existsSync(path.join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0]!, 'bin') : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL program as a user it accepts: this one, or `nobody` when this one is root. */
function asClusterUser(bin: string, program: string, args: readonly string[]): void {
  const root = process.getuid?.() === 0;
  const command = root ? 'runuser' : path.join(bin, program);
  const argv = root ? ['-u', 'nobody', '--', path.join(bin, program), ...args] : [...args];
  const result = spawnSync(command, argv, { cwd: '/', encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}`);
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('The team hub tests need PostgreSQL: `apt-get install postgresql` (or set ENGRAM_PG_BIN to its bin folder).');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-pg-'));
  if (process.getuid?.() === 0) {
    const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
    chownSync(dir, nobody, nobody);
  }
  chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const pwfile = path.join(dir, 'pw');
  writeFileSync(pwfile, `${SUPERUSER_PASSWORD}\n`, { mode: 0o644 });
  // Passwords over TCP (as a team's server would ask), trust on the socket only the test can reach.
  asClusterUser(bin, 'initdb', ['-D', data, '-U', SUPERUSER, `--pwfile=${pwfile}`, '--auth-host=scram-sha-256', '--auth-local=trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  rmSync(pwfile);
  const port = await freePort();
  // fsync off for speed; synchronous_commit stays on so an immediate stop loses no committed write.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60`;
  const start = () => asClusterUser(bin, 'pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '60', '-o', options, 'start']);
  const stop = (mode: 'fast' | 'immediate' = 'fast') => asClusterUser(bin, 'pg_ctl', ['-D', data, '-w', '-m', mode, 'stop']);
  start();
  let running = true;
  const url = (database: string, user = SUPERUSER, password = user === SUPERUSER ? SUPERUSER_PASSWORD : undefined) =>
    `postgres://${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@127.0.0.1:${port}/${database}`;
  const cluster: PostgresCluster = {
    port,
    dir,
    url,
    async sql(database, text, values) {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return await client.query(text, values);
      } finally {
        await client.end();
      }
    },
    start() {
      start();
      running = true;
    },
    stop(mode) {
      stop(mode);
      running = false;
    },
    destroy() {
      if (running) {
        try {
          stop('immediate');
        } catch (error) {
          process.stderr.write(`stopping the test PostgreSQL failed: ${(error as Error).message}\n`);
        }
        running = false;
      }
      rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
    },
  };
  // A test or bench that dies (or is stopped with Ctrl-C or kill) must not leave a server running.
  const stopNow = () => {
    if (!running) return;
    running = false;
    spawnSync(process.getuid?.() === 0 ? 'runuser' : path.join(bin, 'pg_ctl'), process.getuid?.() === 0 ? ['-u', 'nobody', '--', path.join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'] : ['-D', data, '-m', 'immediate', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopNow);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopNow();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  }
  return cluster;
}
