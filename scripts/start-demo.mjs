// `npm start`: builds and packs Engram, installs the VSIX into a real VS Code (code-server,
// installed on first use into .cache/), seeds a copy of demo/ with memories in a throwaway
// ENGRAM_HOME, and serves it on 127.0.0.1 until Ctrl+C. Nothing outside temp folders is touched.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installVsix, startCodeServer } from './lib/codeServer.mjs';
import { prepareDemo } from './lib/demo.mjs';
import { ensureCodeServer, modernNode } from './lib/toolchain.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const port = Number(process.env.ENGRAM_DEMO_PORT ?? 8732);
const base = path.join(os.tmpdir(), 'engram-demo');
const vsix = path.join(base, 'engram.vsix');

await ensureCodeServer();
const node = await modernNode();
execFileSync(process.execPath, [path.join(root, 'scripts', 'package.mjs'), '--out', vsix], { cwd: root, stdio: 'inherit' });
const { workspaceDir, engramHome, ids } = prepareDemo({ workspaceDir: path.join(base, 'shop'), engramHome: path.join(base, 'engram-home'), node });
const extensionsDir = path.join(base, 'extensions');
const userDataDir = path.join(base, 'user-data');
await installVsix({ vsix, extensionsDir, userDataDir });
const server = await startCodeServer({ folder: workspaceDir, extensionsDir, userDataDir, port, env: { ENGRAM_HOME: engramHome } });

console.log(`
Engram demo is running in VS Code (code-server ${server.url}).

  Open:      ${server.folderUrl}
  Workspace: ${workspaceDir} (a copy of demo/)
  Memories:  ${ids.length} seeded into ENGRAM_HOME=${engramHome}
  Try:       open src/db.ts and hover inside query(); run "Engram: Show Memory Stats";
             ENGRAM_HOME=${engramHome} ${node === process.execPath ? 'node' : node} dist/engram.js recall --project ${workspaceDir} --file src/db.ts

Press Ctrl+C to stop.`);

const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
