import * as vscode from 'vscode';

/**
 * Every `engram.*` setting the extension reads, typed, in one place. Values are read without a
 * default of our own: VS Code answers with the default package.json contributes, so that file is
 * the one list of defaults (test/unit/settingsDefaults.test.ts holds the server's to it).
 */
export interface EngramSettings {
  readonly nodePath: string;
  /** What the memory server is started with (server/src/lsp/initializationOptions.ts parses it). */
  readonly server: {
    readonly capture: { readonly coalesceMinutes: number; readonly exclude: readonly string[]; readonly bulkThreshold: number };
    readonly redact: { readonly patterns: readonly string[] };
    readonly recall: { readonly weights: Readonly<Record<string, number>> };
    readonly capacity: { readonly high: number; readonly low: number; readonly consolidateAfterDays: number };
    readonly hooks: { readonly sessionStartBudget: number; readonly promptBudget: number; readonly timeoutMs: number };
    readonly team: { readonly url: string; readonly syncAll: boolean };
  };
}

/** The sections whose change needs the memory server restarted (it reads them once, at start). */
export const SERVER_SETTINGS = ['engram.nodePath', 'engram.capture', 'engram.exclude', 'engram.redact', 'engram.recall', 'engram.capacity', 'engram.hooks', 'engram.team'] as const;

export function readEngramSettings(configuration: Pick<vscode.WorkspaceConfiguration, 'get'> = vscode.workspace.getConfiguration('engram')): EngramSettings {
  const get = <T>(key: string): T => configuration.get<T>(key) as T;
  return {
    nodePath: get<string>('nodePath'),
    server: {
      capture: { coalesceMinutes: get('capture.coalesceMinutes'), exclude: get('exclude'), bulkThreshold: get('capture.bulkThreshold') },
      redact: { patterns: get('redact.patterns') },
      recall: { weights: get('recall.weights') },
      capacity: { high: get('capacity.high'), low: get('capacity.low'), consolidateAfterDays: get('capacity.consolidateAfterDays') },
      hooks: { sessionStartBudget: get('hooks.sessionStartBudget'), promptBudget: get('hooks.promptBudget'), timeoutMs: get('hooks.timeoutMs') },
      team: { url: get('team.url'), syncAll: get('team.syncAll') },
    },
  };
}
