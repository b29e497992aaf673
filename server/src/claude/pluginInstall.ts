import path from 'node:path';
import { claudeConfigDir } from '../transcripts/projectFolder';
import { readJsonObject, type JsonObject } from './jsonFile';

/** The plugin's name in its manifest: installed as `engram@<marketplace>`. */
export const PLUGIN_NAME = 'engram';

export interface PluginInstall {
  /** `engram@<marketplace>`. */
  readonly id: string;
  readonly version: string | null;
  readonly installPath: string | null;
  /** Enabled for this project (user settings, then the project's shared and local settings). */
  readonly enabled: boolean;
}

function readOrEmpty(file: string): JsonObject {
  try {
    return readJsonObject(file).value;
  } catch {
    return {};
  }
}

function enabledPlugins(settings: JsonObject): Record<string, unknown> {
  const value = settings.enabledPlugins;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Engram's Claude Code plugin as Claude Code records it (observed with 2.1.330:
 * `plugins/installed_plugins.json` in its config folder, `enabledPlugins` in the settings), or
 * null when it is not installed. Read only; never throws.
 */
export function engramPlugin(root: string, env: NodeJS.ProcessEnv): PluginInstall | null {
  const configDir = claudeConfigDir(env);
  const installed = readOrEmpty(path.join(configDir, 'plugins', 'installed_plugins.json')).plugins;
  if (!installed || typeof installed !== 'object') return null;
  const id = Object.keys(installed).find((key) => key.split('@')[0] === PLUGIN_NAME);
  if (!id) return null;
  const entries = (installed as Record<string, unknown>)[id];
  const entry = (Array.isArray(entries) ? entries[0] : null) as { version?: unknown; installPath?: unknown } | null;
  let enabled = false;
  // Later scopes override earlier ones, as Claude Code applies its settings.
  for (const file of [path.join(configDir, 'settings.json'), path.join(root, '.claude', 'settings.json'), path.join(root, '.claude', 'settings.local.json')]) {
    const value = enabledPlugins(readOrEmpty(file))[id];
    if (typeof value === 'boolean') enabled = value;
  }
  return {
    id,
    version: typeof entry?.version === 'string' ? entry.version : null,
    installPath: typeof entry?.installPath === 'string' ? entry.installPath : null,
    enabled,
  };
}
