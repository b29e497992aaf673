#!/usr/bin/env node
import type { BundledCommand } from './cli/launch';
import { gateRuntime } from './cli/runtimeGate';
import { standardOutput } from './cli/standardOutput';
import { viaMemoryServer, type ViaServer } from './cli/viaMemoryServer';
import { writeAllSync } from './cli/writeAllSync';

/** Every command and the bundle its code is in: filled in by scripts/build.mjs. */
declare const ENGRAM_COMMANDS: readonly BundledCommand[];

// The `engram` executable: the CLI, and through `engram lsp` the memory server. It stays small;
// each command's code is in its own bundle next to it, loaded when the command runs — unless the
// window's memory server answers it (cli/viaMemoryServer.ts).
if (typeof ENGRAM_COMMANDS === 'undefined') {
  process.stderr.write('engram: server/src/engram.ts runs as the bundle scripts/build.mjs makes: `npm run build`, then dist/engram.js\n');
  process.exitCode = 1;
} else {
  const argv = process.argv.slice(2);
  const err = (text: string) => void process.stderr.write(text);
  const stdout = standardOutput(err);
  const io = { out: stdout.write, outClosed: stdout.closed, err, cwd: process.cwd(), env: process.env };
  let via: ViaServer = { ran: false, io };
  try {
    via = viaMemoryServer(argv, io);
  } catch {
    // Asking the server must never cost the command: it runs here.
  }
  if (via.ran) {
    writeAllSync(1, via.stdout);
    writeAllSync(2, via.stderr);
    process.exitCode = via.exitCode;
  } else {
    const gate = gateRuntime(argv, via.io);
    if (!gate.run) {
      process.exitCode = gate.exitCode;
    } else {
      // Required here, not imported: a command the server answers never evaluates the launcher.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- required on use, see above
      void (require('./cli/launch') as typeof import('./cli/launch')).launch(argv, via.io, ENGRAM_COMMANDS, __dirname).then((code) => {
        process.exitCode = stdout.failed() ? Math.max(code, 1) : code;
      });
    }
  }
}
