import { connectedHookEvents } from './connector';

/**
 * Engram reaches Claude Code through two front doors onto one store: the connector (hooks in the
 * project's `.claude/settings.local.json`, written by VS Code or `engram connect claude`) and the
 * Claude Code plugin (its `hooks/hooks.json`). The plugin's commands set this variable to `plugin`.
 */
export const FRONT_DOOR_ENV = 'ENGRAM_FRONT_DOOR';

export function isPluginRun(env: NodeJS.ProcessEnv): boolean {
  return env[FRONT_DOOR_ENV] === 'plugin';
}

/**
 * Whether a plugin hook steps aside because the connector's hook for the same Claude Code event
 * runs in this project: with both set up, Claude Code starts both, and only the connector's works
 * (it is the one chosen for this project explicitly, and it runs even with no Node on PATH). A
 * settings file Claude Code cannot read either runs no connector hook: then the plugin's runs.
 */
export function pluginDefersToConnector(root: string, claudeEvent: string, env: NodeJS.ProcessEnv): boolean {
  if (!isPluginRun(env)) return false;
  try {
    return connectedHookEvents(root, env).includes(claudeEvent);
  } catch {
    return false;
  }
}
