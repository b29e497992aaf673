// `node scripts/screenshots.mjs`: retakes the README's screenshots of the memory panel and the
// timeline. It runs the end-to-end test that takes them in a real VS Code (test/e2e/views.test.ts)
// and asks it to copy them to docs/screenshots/; a plain test run leaves docs/ alone.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './lib/chromium.mjs';
import { modernNode } from './lib/toolchain.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function step(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

step(process.execPath, [path.join(root, 'scripts', 'build.mjs')]);
ensureChromium();
step(await modernNode(), ['--import', 'tsx', '--test', path.join('test', 'e2e', 'views.test.ts')], { ...process.env, ENGRAM_UPDATE_SCREENSHOTS: path.join(root, 'docs', 'screenshots') });
console.log('docs/screenshots/ updated: review them with git diff before committing.');
