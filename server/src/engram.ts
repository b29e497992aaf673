#!/usr/bin/env node
import { launch, type BundledCommand } from './cli/launch';

/** Every command and the bundle its code is in: filled in by scripts/build.mjs. */
declare const ENGRAM_COMMANDS: readonly BundledCommand[];

// The `engram` executable: the CLI, and through `engram lsp` the memory server. It stays small;
// each command's code is in its own bundle next to it, loaded when the command runs.
if (typeof ENGRAM_COMMANDS === 'undefined') {
  process.stderr.write('engram: server/src/engram.ts runs as the bundle scripts/build.mjs makes: `npm run build`, then dist/engram.js\n');
  process.exitCode = 1;
} else {
  void launch(process.argv.slice(2), { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text), cwd: process.cwd(), env: process.env }, ENGRAM_COMMANDS, __dirname).then((code) => {
    process.exitCode = code;
  });
}
