// `npm run typecheck`: each side against its own platform (tsconfig.base.json holds what they
// share). The wire contracts see no platform, the server Node and no DOM, the webview the DOM
// and no Node, the extension Node and the editor API; the tests and benches see all of them.
// One `tsc` at a time, in order.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

for (const project of ['contracts/tsconfig.json', 'server/tsconfig.json', 'client/tsconfig.json', 'webview/tsconfig.json', 'tsconfig.json']) {
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--noEmit'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`engram: typecheck failed in ${project}\n`);
    process.exit(result.status ?? 1);
  }
}
