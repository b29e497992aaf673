import * as vscode from 'vscode';
import type { MemoryServer } from '../server/memoryServer';
import { runtimeEnv } from '../server/serverRuntime';

/** Must match `contributes.mcpServerDefinitionProviders[].id` in package.json. */
export const MCP_PROVIDER_ID = 'engram';

/**
 * The parts of VS Code's MCP API (final in 1.101) that Engram uses. @types/vscode stays at the
 * engine's 1.91, so they are declared here and looked up at run time.
 */
interface McpStdioServerDefinition {
  readonly label: string;
  cwd?: vscode.Uri;
}

interface McpServerDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<McpStdioServerDefinition[]>;
}

interface McpApi {
  readonly lm: { registerMcpServerDefinitionProvider(id: string, provider: McpServerDefinitionProvider): vscode.Disposable };
  readonly McpStdioServerDefinition: new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => McpStdioServerDefinition;
}

function mcpApi(): McpApi | null {
  const api = vscode as unknown as { lm?: Partial<McpApi['lm']>; McpStdioServerDefinition?: unknown };
  if (typeof api.lm?.registerMcpServerDefinitionProvider !== 'function' || typeof api.McpStdioServerDefinition !== 'function') return null;
  return api as McpApi;
}

/**
 * Offers `engram mcp` to VS Code's agent mode, one server per workspace folder, with no
 * configuration: `<runtime> <extension>/dist/engram.js mcp --project <folder>`, on the runtime the
 * memory server runs on (the editor's own, as a rule). VS Code before 1.101 has no such API: then
 * nothing is registered, and the log says so.
 */
export function registerMcpServerDefinitions(context: vscode.ExtensionContext, server: MemoryServer, log: vscode.LogOutputChannel): void {
  const api = mcpApi();
  if (!api) {
    log.info(`VS Code ${vscode.version} cannot take MCP servers from extensions (1.101 or later can); agents can still run \`engram mcp\` configured by hand.`);
    return;
  }
  const changed = new vscode.EventEmitter<void>();
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? 'dev');

  const provideMcpServerDefinitions = async (): Promise<McpStdioServerDefinition[]> => {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    if (!folders.length) return [];
    const resolution = await server.resolveRuntime();
    if (!resolution.ok) {
      log.warn(`Not offering Engram's MCP server to agents: ${resolution.reason}`);
      return [];
    }
    const script = context.asAbsolutePath('dist/engram.js');
    return folders.map((folder) => {
      const label = folders.length === 1 ? 'Engram' : `Engram (${folder.name})`;
      const definition = new api.McpStdioServerDefinition(label, resolution.runtime.path, [script, 'mcp', '--project', folder.uri.fsPath], runtimeEnv(resolution.runtime.origin), version);
      definition.cwd = folder.uri;
      return definition;
    });
  };

  context.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('engram.nodePath')) changed.fire();
    }),
    api.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, { onDidChangeMcpServerDefinitions: changed.event, provideMcpServerDefinitions }),
  );
  log.info(`Offered Engram's MCP server to VS Code's agent mode (provider "${MCP_PROVIDER_ID}").`);
}
