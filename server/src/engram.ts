#!/usr/bin/env node
import { main } from './cli/main';

// The `engram` executable: the CLI, and through `engram lsp` the memory server.
void main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
