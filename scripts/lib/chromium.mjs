// The end-to-end tests drive VS Code through Debian's Chromium: the one system package the tests
// need that a fresh machine lacks (npm's browser downloads are not reachable here). Installed with
// apt when we may (root), else the one command to run is named.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.ENGRAM_CHROMIUM ?? '/usr/bin/chromium';

/** A Chromium for the e2e tests: resolves to its path, or rejects with one line saying what to run. */
export function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  const command = 'apt-get install -y chromium';
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`The end-to-end tests need Chromium at ${CHROMIUM_PATH}: run \`sudo ${command}\` (or set ENGRAM_CHROMIUM to a Chromium), then npm test again.`);
  }
  process.stderr.write(`engram: installing Debian's chromium for the end-to-end tests (${command}, ~1 min)…\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) throw new Error(`\`apt-get ${args.join(' ')}\` failed (exit ${result.status ?? result.signal}); install Chromium by hand: \`${command}\`.`);
  }
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium, but not at ${CHROMIUM_PATH}; set ENGRAM_CHROMIUM to it.`);
  return CHROMIUM_PATH;
}
