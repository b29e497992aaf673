export declare const QUIET_SETTINGS: Record<string, unknown>;

export interface InstallVsixOptions {
  vsix: string;
  extensionsDir: string;
  userDataDir: string;
}
/** Installs a .vsix with code-server's CLI; resolves to its output, throws with it on failure. */
export declare function installVsix(options: InstallVsixOptions): Promise<string>;

export interface StartCodeServerOptions {
  /** Workspace folder to open; folderUrl points at it. */
  folder?: string;
  /** Defaults to a folder in the run's temp dir. */
  extensionsDir?: string;
  /** Defaults to a folder in the run's temp dir; User/settings.json is (re)written there. */
  userDataDir?: string;
  /** Added to process.env; HOME/XDG_* given here replace the temporary ones. */
  env?: Record<string, string>;
  /** 0 picks a free port. */
  port?: number;
  /** Passes --vscode-option enable-smoke-test-driver (needed to run extension tests in the host). */
  smokeTestDriver?: boolean;
  /** Merged over QUIET_SETTINGS into the user settings. */
  settings?: Record<string, unknown>;
  /** More code-server flags. */
  extraArgs?: string[];
  /** Gives code-server, and all it starts, a PATH with no `node` on it (scripts/lib/hideNode.mjs). */
  hideNode?: boolean;
}

export interface CodeServer {
  url: string;
  port: number;
  /** url with ?folder=<abs folder> (or url when no folder was given). */
  folderUrl: string;
  /** code-server's stdout and stderr. Deleted by stop() unless ENGRAM_E2E_KEEP_TMP is set. */
  logFile: string;
  /** Holds HOME, XDG dirs and the log of this run. */
  tempDir: string;
  userDataDir: string;
  extensionsDir: string;
  /** code-server's pid, which is also its process group id. */
  pid: number;
  /** Ends the whole process group (SIGTERM, SIGKILL after 3 s); resolves when it is gone. */
  stop(): Promise<void>;
}

export declare function startCodeServer(options?: StartCodeServerOptions): Promise<CodeServer>;
/** A free TCP port on 127.0.0.1. */
export declare function freePort(): Promise<number>;
/** Whether any process of that group is still running (zombies do not count). */
export declare function processGroupAlive(pgid: number): boolean;
/**
 * Workbench URL that loads an extension from source and runs its tests inside the extension host
 * (a module exporting `run()`, as with @vscode/test-electron). Needs smokeTestDriver: true; the
 * result arrives through Workbench.automationExit (0 = passed).
 */
export declare function extensionTestsUrl(
  server: Pick<CodeServer, 'url' | 'port'>,
  options: { folder?: string; extensionDevelopmentPath: string; extensionTestsPath?: string },
): string;
