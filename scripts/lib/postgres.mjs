// The team hub's tests run a real PostgreSQL (test/support/postgres.ts): Debian's `postgresql`
// package, its programs in /usr/lib/postgresql/N/bin. Installed with apt when we may (root), else
// the one command to run is named.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

function postgresBin() {
  if (process.env.ENGRAM_PG_BIN) return existsSync(path.join(process.env.ENGRAM_PG_BIN, 'initdb')) ? process.env.ENGRAM_PG_BIN : null;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const version = readdirSync(base).filter((v) => /^\d+$/.test(v) && existsSync(path.join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))[0];
  return version ? path.join(base, version, 'bin') : null;
}

/** PostgreSQL's bin folder for the tests: resolves to it, or throws one line saying what to run. */
export function ensurePostgres() {
  const found = postgresBin();
  if (found) return found;
  const command = 'apt-get install -y postgresql';
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`The team hub tests need PostgreSQL (initdb, pg_ctl): run \`sudo ${command}\` (or set ENGRAM_PG_BIN to its bin folder), then npm test again.`);
  }
  process.stderr.write(`engram: installing Debian's postgresql for the team hub tests (${command})…\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'postgresql']]) {
    const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) throw new Error(`\`apt-get ${args.join(' ')}\` failed (exit ${result.status ?? result.signal}); install PostgreSQL by hand: \`${command}\`.`);
  }
  const installed = postgresBin();
  if (!installed) throw new Error('apt-get installed postgresql, but no initdb is in /usr/lib/postgresql/*/bin; set ENGRAM_PG_BIN to its bin folder.');
  return installed;
}
