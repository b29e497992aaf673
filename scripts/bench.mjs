// `npm run bench`: the production bundles (what the VSIX ships, and what the benches' processes
// run), then bench/run.ts on a Node.js Engram runs on (this one if it is 22 or newer, else Node 24
// from the npm registry), with the arguments given.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { modernNode } from './lib/toolchain.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--production'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const result = spawnSync(await modernNode(), ['--import', 'tsx', path.join(root, 'bench', 'run.ts'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
