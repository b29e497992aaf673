import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, runEngram } from './engramProcess';
import { startLsp, type LspSession } from './lspClient';
import type { MemorySummary } from '../../contracts/protocol';

/**
 * Developers sharing one repository, each with a clone of the demo workspace, an ENGRAM_HOME of
 * their own and a real memory server over LSP: the setting of the team memory and team hub tests.
 */
export interface Clone {
  readonly name: string;
  readonly root: string;
  env: NodeJS.ProcessEnv;
  lsp: LspSession;
  version: number;
}

export type HoverResult = { contents: { value: string } } | null;

/** A developer's clone at `root` (not made yet: seedOrigin and cloneOrigin make it). */
export function newClone(name: string, root: string, env: NodeJS.ProcessEnv = {}): Clone {
  return { name, root, env, lsp: undefined as unknown as LspSession, version: 1 };
}

/** git as a developer: a fixed identity, merges on pull. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.invalid', '-c', 'pull.rebase=false', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A bare repository at `origin` holding the demo workspace as its first commit. */
export function seedOrigin(origin: string): void {
  git(path.dirname(origin), 'init', '-q', '--bare', '-b', 'main', origin);
  const seed = path.join(path.dirname(origin), 'seed');
  cpSync(path.join(REPO_ROOT, 'demo'), seed, { recursive: true });
  git(seed, 'init', '-q', '-b', 'main');
  git(seed, 'add', '.');
  git(seed, 'commit', '-qm', 'demo');
  git(seed, 'push', '-q', origin, 'main');
}

export function cloneOrigin(origin: string, clone: Clone): void {
  git(path.dirname(clone.root), 'clone', '-q', origin, clone.root);
}

/** The clone's memory server, initialized on its folder. */
export async function startServer(clone: Clone, initializationOptions?: unknown): Promise<void> {
  clone.lsp = startLsp(clone.env);
  await clone.lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(clone.root).href, name: clone.name }], capabilities: {}, initializationOptions });
  await clone.lsp.connection.sendNotification('initialized', {});
}

export function dbUri(clone: Clone): string {
  return pathToFileURL(path.join(clone.root, 'src', 'db.ts')).href;
}

/** The editor opens (or re-reads) src/db.ts as it is on disk now. */
export async function openDb(clone: Clone): Promise<void> {
  const text = readFileSync(path.join(clone.root, 'src', 'db.ts'), 'utf8');
  if (clone.version > 1) await clone.lsp.connection.sendNotification('textDocument/didClose', { textDocument: { uri: dbUri(clone) } });
  await clone.lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: dbUri(clone), languageId: 'typescript', version: ++clone.version, text } });
}

/** The developer pins lines 5–13 of src/db.ts (the query helper) as a hard rule for the team. */
export async function pinDbRuleForTeam(clone: Clone, rule: string): Promise<MemorySummary> {
  return (await clone.lsp.connection.sendRequest('engram/pinConstraint', {
    uri: dbUri(clone),
    range: { start: { line: 4, character: 0 }, end: { line: 13, character: 0 } },
    rule,
    scope: 'code',
    strength: 'hard',
    shared: true,
  })) as MemorySummary;
}

export function hoverDb(clone: Clone, line: number): Promise<HoverResult> {
  return clone.lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri: dbUri(clone) }, position: { line, character: 2 } }) as Promise<HoverResult>;
}

/** The real CLI in the clone, as its developer. */
export function engramIn(clone: Clone, args: string[], stdin?: string) {
  return runEngram(args, { env: clone.env, cwd: clone.root, stdin });
}
