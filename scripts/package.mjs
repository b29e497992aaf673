// Builds production bundles and packs the VSIX with @vscode/vsce: no node_modules (everything
// but the native bindings is bundled), only the files .vscodeignore lets through.
import { createVSIX } from '@vscode/vsce';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { name, version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const out = path.resolve(root, process.argv[2] ?? `${name}-${version}.vsix`);

mkdirSync(path.dirname(out), { recursive: true });
execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--production'], { cwd: root, stdio: 'inherit' });
await createVSIX({ cwd: root, packagePath: out, dependencies: false, allowMissingRepository: true, rewriteRelativeLinks: false });
console.log(`${path.relative(process.cwd(), out)}: ${(statSync(out).size / 1024 / 1024).toFixed(2)} MiB`);
