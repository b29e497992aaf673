import { connectedHookEvents } from '../../claude/connector';
import { ENGRAM_HOOKS } from '../../claude/hookSet';
import { engramPlugin } from '../../claude/pluginInstall';
import { nodeOnPath } from '../../runtime/nodeOnPath';
import { MIN_NODE_VERSION } from '../../runtime/runtimeRequirement';

export interface FrontDoorCheck {
  readonly name: 'claude';
  readonly ok: true;
  readonly warning?: boolean;
  readonly detail: string;
}

/**
 * Which of Engram's two front doors runs the Claude Code hooks of this project: the connector
 * (`.claude/settings.local.json`), the plugin, or both — then the plugin's step aside
 * (claude/frontDoor.ts). The plugin runs on `node` from PATH: without a usable one its hooks
 * give nothing, silently in Claude Code, so this is where it shows.
 */
export function checkClaudeFrontDoors(root: string, env: NodeJS.ProcessEnv): FrontDoorCheck {
  let connector: string[];
  let unreadable = '';
  try {
    connector = connectedHookEvents(root, env);
  } catch (error) {
    connector = [];
    unreadable = `; ${(error as Error).message}`;
  }
  const plugin = engramPlugin(root, env);
  const connectorText = connector.length === ENGRAM_HOOKS.length ? "the connector's hooks run (.claude/settings.local.json)" : `the connector's hooks run for ${connector.join(', ')}`;
  if (!plugin || !plugin.enabled) {
    const disabled = plugin ? `; the plugin ${plugin.id} is installed but not enabled here` : '';
    if (connector.length) return { name: 'claude', ok: true, detail: `Claude Code: ${connectorText}${disabled}${unreadable}` };
    return { name: 'claude', ok: true, detail: `Claude Code: no Engram hooks for this project (\`claude plugin install engram@<marketplace>\` or \`engram connect claude\`)${disabled}${unreadable}` };
  }
  const name = `the plugin ${plugin.id}${plugin.version ? ` ${plugin.version}` : ''}`;
  if (connector.length === ENGRAM_HOOKS.length) return { name: 'claude', ok: true, detail: `Claude Code: ${connectorText}; ${name} is enabled too and its hooks step aside, so each runs once` };
  const node = nodeOnPath(env);
  const runs = connector.length ? `${connectorText}, ${name}'s for the rest` : `${name} runs the hooks`;
  if (node?.usable) return { name: 'claude', ok: true, detail: `Claude Code: ${runs}, on node ${node.version} at ${node.path}${unreadable}` };
  const problem = node ? `the node on PATH (${node.path}, ${node.version ?? 'did not run'}) is too old` : 'there is no node on PATH';
  return {
    name: 'claude',
    ok: true,
    warning: true,
    detail: `Claude Code: ${runs}, but ${problem}: they give Claude Code nothing. Install Node.js ${MIN_NODE_VERSION} or newer and put it on PATH${unreadable}`,
  };
}
