// `npm run lint`: ESLint over every TypeScript folder (eslint.config.mjs: the walls between the
// parts, and typescript-eslint's rules that need no type information). The cache keeps a rerun
// to the files that changed; it is keyed by content, so a fresh checkout is no excuse to skip.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const FOLDERS = ['client/src', 'server/src', 'webview/src', 'test', 'bench'];

const eslint = new ESLint({ cwd: root, cache: true, cacheStrategy: 'content', cacheLocation: path.join(root, '.cache', 'eslint') + path.sep });
const started = performance.now();
const results = await eslint.lintFiles(FOLDERS);
const output = (await eslint.loadFormatter('stylish')).format(results);
if (output) process.stdout.write(output);
const failed = results.some((r) => r.errorCount > 0);
process.stderr.write(`engram: lint ${failed ? 'failed' : 'passed'}: ${results.length} files in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(failed ? 1 : 0);
