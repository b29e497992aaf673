import path from 'node:path';
import { engramHome, userHome } from '../paths/engramPaths';
import { claudeConfigDir } from '../transcripts/projectFolder';
import { CLAUDE_HOOK_TIMEOUT_S, ENGRAM_HOOKS } from './hookSet';
import { readJsonObject, writeJsonObject, type JsonObject } from './jsonFile';
import { commandProgram, posixQuote, toShellPath } from './shellQuote';
import { currentShimTarget, launcherPath, shimPath, writeShim, type ShimTarget } from './shim';

const MCP_NAME = 'engram';

export interface ConnectionState {
  readonly settingsFile: string;
  readonly hooks: readonly string[];
  readonly mcp: 'local' | 'project' | null;
  readonly connected: boolean;
}

export interface ConnectResult extends ConnectionState {
  /** Files written (none when everything was already in place). */
  readonly changed: readonly string[];
  readonly backups: readonly string[];
}

interface HookEntry {
  type?: unknown;
  command?: unknown;
  timeout?: unknown;
}
interface HookGroup {
  matcher?: unknown;
  hooks?: HookEntry[];
}

/** Claude Code runs hook commands with a POSIX shell on every OS (Git Bash on Windows). */
export function hookCommand(env: NodeJS.ProcessEnv, hook: string, platform: NodeJS.Platform = process.platform): string {
  return `${posixQuote(toShellPath(shimPath(env), platform))} hook ${hook}`;
}

/**
 * Engram's own entries are the ones that run its shim with `hook`, however the path was quoted
 * (earlier versions wrote it in double quotes, and on Windows as engram.cmd with backslashes).
 */
function isEngramHook(entry: HookEntry, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (typeof entry.command !== 'string' || !/ hook [a-z-]+$/.test(entry.command)) return false;
  const program = commandProgram(entry.command);
  if (!program) return false;
  const comparable = (file: string) => {
    const slashed = toShellPath(file, platform).replace(/\.cmd$/i, '');
    return platform === 'win32' ? slashed.toLowerCase() : slashed;
  };
  return comparable(program) === comparable(shimPath(env));
}

/**
 * How Claude Code starts Engram's MCP server. It starts it with no shell: the POSIX shim where a
 * script can be started so; on Windows the runtime itself with Engram's launcher.
 */
export function mcpServerEntry(root: string, env: NodeJS.ProcessEnv, target: ShimTarget, platform: NodeJS.Platform = process.platform): JsonObject {
  const args = ['mcp', '--project', root];
  if (platform !== 'win32') return { type: 'stdio', command: shimPath(env), args, env: {} };
  return { type: 'stdio', command: target.runtime, args: [launcherPath(env), ...args], env: { ELECTRON_RUN_AS_NODE: '1', ENGRAM_RUNTIME_ORIGIN: target.origin } };
}

function backupDir(env: NodeJS.ProcessEnv): string {
  return path.join(engramHome(env), 'backups');
}

function settingsFile(root: string): string {
  return path.join(root, '.claude', 'settings.local.json');
}

function claudeJsonFile(env: NodeJS.ProcessEnv): string {
  // With CLAUDE_CONFIG_DIR, .claude.json lives inside it; else in the home folder (claude-code.md).
  return env.CLAUDE_CONFIG_DIR ? path.join(claudeConfigDir(env), '.claude.json') : path.join(userHome(env), '.claude.json');
}

function hookGroups(settings: JsonObject, event: string): HookGroup[] {
  const hooks = settings.hooks;
  if (!hooks || typeof hooks !== 'object') return [];
  const groups = (hooks as JsonObject)[event];
  return Array.isArray(groups) ? (groups as HookGroup[]) : [];
}

/** The Claude Code events for which the project's `.claude/settings.local.json` runs Engram's hook (the connector's). */
export function connectedHookEvents(root: string, env: NodeJS.ProcessEnv): string[] {
  const settings = readJsonObject(settingsFile(root)).value;
  return ENGRAM_HOOKS.filter(({ event }) => hookGroups(settings, event).some((g) => g.hooks?.some((h) => isEngramHook(h, env)))).map((h) => h.event);
}

/** Which of Engram's hooks and MCP registrations a project has now. */
export function connectionState(root: string, env: NodeJS.ProcessEnv): ConnectionState {
  const file = settingsFile(root);
  const hooks = connectedHookEvents(root, env);
  const local = readJsonObject(claudeJsonFile(env)).value;
  const projects = (local.projects ?? {}) as Record<string, { mcpServers?: Record<string, unknown> }>;
  const project = readJsonObject(path.join(root, '.mcp.json')).value as { mcpServers?: Record<string, unknown> };
  const mcp = projects[root]?.mcpServers?.[MCP_NAME] ? 'local' : project.mcpServers?.[MCP_NAME] ? 'project' : null;
  return { settingsFile: file, hooks, mcp, connected: hooks.length === ENGRAM_HOOKS.length };
}

/**
 * Connects Claude Code to Engram for one project: merges Engram's hooks into the project's
 * `.claude/settings.local.json` (personal, not committed) — every other hook and setting kept,
 * nothing added twice, the old file backed up — and registers `engram mcp` with Claude Code
 * (local scope in `.claude.json`, or the project's `.mcp.json` when `share`). Idempotent.
 */
export function connectClaude(root: string, env: NodeJS.ProcessEnv, options: { share?: boolean; target?: ShimTarget } = {}): ConnectResult {
  const changed: string[] = [];
  const backups: string[] = [];
  const target = options.target ?? currentShimTarget(env);
  const shim = writeShim(env, target);
  if (shim.changed) changed.push(shim.path);

  const file = settingsFile(root);
  const { value: settings, existed } = readJsonObject(file);
  const hooks = (settings.hooks && typeof settings.hooks === 'object' ? settings.hooks : {}) as Record<string, HookGroup[]>;
  let edited = false;
  for (const { event, hook, matcher } of ENGRAM_HOOKS) {
    const command = hookCommand(env, hook);
    const groups = Array.isArray(hooks[event]) ? hooks[event] : [];
    const present = groups.some((g) => g.hooks?.some((h) => h.command === command));
    if (present) continue;
    // A stale Engram entry (an older shim path) is replaced, not duplicated.
    for (const group of groups) if (group.hooks) group.hooks = group.hooks.filter((h) => !isEngramHook(h, env));
    hooks[event] = [...groups.filter((g) => !g.hooks || g.hooks.length), { matcher, hooks: [{ type: 'command', command, timeout: CLAUDE_HOOK_TIMEOUT_S }] }];
    edited = true;
  }
  if (edited) {
    const backup = writeJsonObject(file, { ...settings, hooks }, existed, backupDir(env));
    changed.push(file);
    if (backup) backups.push(backup);
  }

  const server = mcpServerEntry(root, env, target);
  if (options.share) {
    const mcpFile = path.join(root, '.mcp.json');
    const { value, existed: mcpExisted } = readJsonObject(mcpFile);
    const servers = (value.mcpServers ?? {}) as Record<string, unknown>;
    if (JSON.stringify(servers[MCP_NAME]) !== JSON.stringify(server)) {
      const backup = writeJsonObject(mcpFile, { ...value, mcpServers: { ...servers, [MCP_NAME]: server } }, mcpExisted, backupDir(env));
      changed.push(mcpFile);
      if (backup) backups.push(backup);
    }
  } else {
    const claudeJson = claudeJsonFile(env);
    const { value, existed: claudeExisted } = readJsonObject(claudeJson);
    const projects = (value.projects ?? {}) as Record<string, JsonObject>;
    const entry = projects[root] ?? {};
    const servers = (entry.mcpServers ?? {}) as Record<string, unknown>;
    if (JSON.stringify(servers[MCP_NAME]) !== JSON.stringify(server)) {
      const next = { ...value, projects: { ...projects, [root]: { ...entry, mcpServers: { ...servers, [MCP_NAME]: server } } } };
      const backup = writeJsonObject(claudeJson, next, claudeExisted, backupDir(env));
      changed.push(claudeJson);
      if (backup) backups.push(backup);
    }
  }
  return { ...connectionState(root, env), changed, backups };
}

/** Removes exactly what `connectClaude` added: Engram's hook entries and its MCP registrations. */
export function disconnectClaude(root: string, env: NodeJS.ProcessEnv): ConnectResult {
  const changed: string[] = [];
  const backups: string[] = [];
  const file = settingsFile(root);
  const { value: settings, existed } = readJsonObject(file);
  if (existed && settings.hooks && typeof settings.hooks === 'object') {
    const hooks = settings.hooks as Record<string, HookGroup[]>;
    let edited = false;
    for (const [event, groups] of Object.entries(hooks)) {
      if (!Array.isArray(groups)) continue;
      const kept = groups
        .map((g) => (g.hooks ? { ...g, hooks: g.hooks.filter((h) => !isEngramHook(h, env)) } : g))
        .filter((g, i) => !g.hooks || g.hooks.length || !groups[i]!.hooks?.length);
      if (kept.length !== groups.length || kept.some((g, i) => g.hooks?.length !== groups[i]!.hooks?.length)) edited = true;
      if (kept.length) hooks[event] = kept;
      else delete hooks[event];
    }
    if (edited) {
      const next = { ...settings };
      if (Object.keys(hooks).length) next.hooks = hooks;
      else delete next.hooks;
      const backup = writeJsonObject(file, next, true, backupDir(env));
      changed.push(file);
      if (backup) backups.push(backup);
    }
  }
  const claudeJson = claudeJsonFile(env);
  const local = readJsonObject(claudeJson);
  const projects = (local.value.projects ?? {}) as Record<string, JsonObject>;
  const servers = (projects[root]?.mcpServers ?? {}) as Record<string, unknown>;
  if (servers[MCP_NAME]) {
    const { [MCP_NAME]: _removed, ...rest } = servers;
    const backup = writeJsonObject(claudeJson, { ...local.value, projects: { ...projects, [root]: { ...projects[root], mcpServers: rest } } }, true, backupDir(env));
    changed.push(claudeJson);
    if (backup) backups.push(backup);
  }
  const mcpFile = path.join(root, '.mcp.json');
  const shared = readJsonObject(mcpFile);
  const sharedServers = (shared.value.mcpServers ?? {}) as Record<string, unknown>;
  if (shared.existed && sharedServers[MCP_NAME]) {
    const { [MCP_NAME]: _removed, ...rest } = sharedServers;
    const backup = writeJsonObject(mcpFile, { ...shared.value, mcpServers: rest }, true, backupDir(env));
    changed.push(mcpFile);
    if (backup) backups.push(backup);
  }
  return { ...connectionState(root, env), changed, backups };
}
