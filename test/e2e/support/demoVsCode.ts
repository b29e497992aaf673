import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../support/engramProcess';

/** A code-server the e2e suites drive (scripts/lib/codeServer.mjs). */
export interface CodeServer {
  readonly folderUrl: string;
  readonly userDataDir: string;
  readonly logFile: string;
  /** Its temporary HOME and XDG folders, the runtime directory among them. */
  readonly tempDir: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export interface DemoVsCode {
  readonly server: CodeServer;
  /** The copy of demo/ the window has open. */
  readonly demoDir: string;
  readonly engramHome: string;
  /** The memories the demo was seeded with. */
  readonly seededIds: string[];
}

/**
 * What every e2e suite starts from: the extension packed as a VSIX and installed into a real VS
 * Code (code-server) with throwaway user-data and extensions folders, open on a seeded copy of the
 * demo workspace, with Engram's data in a throwaway folder too.
 */
export async function startDemoVsCode(work: string, settings: Record<string, unknown> = {}, options: { hideNode?: boolean } = {}): Promise<DemoVsCode> {
  const toolchain = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'toolchain.mjs'));
  const codeServer = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'codeServer.mjs'));
  const demo = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'demo.mjs'));
  await toolchain.ensureCodeServer();
  const vsix = path.join(work, 'engram.vsix');
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'package.mjs'), '--out', vsix], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const prepared = demo.prepareDemo({ workspaceDir: path.join(work, 'shop'), engramHome: path.join(work, 'engram-home') });
  const extensionsDir = path.join(work, 'extensions');
  const userDataDir = path.join(work, 'user-data');
  await codeServer.installVsix({ vsix, extensionsDir, userDataDir });
  const server = (await codeServer.startCodeServer({ folder: prepared.workspaceDir, extensionsDir, userDataDir, env: { ENGRAM_HOME: prepared.engramHome }, settings, ...options })) as CodeServer;
  return { server, demoDir: prepared.workspaceDir, engramHome: prepared.engramHome, seededIds: prepared.ids };
}
