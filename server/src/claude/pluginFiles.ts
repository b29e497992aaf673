import { CLAUDE_HOOK_TIMEOUT_S, ENGRAM_HOOKS } from './hookSet';
import { PLUGIN_NAME } from './pluginInstall';

// The text files of Engram's Claude Code plugin (docs/plugin.md). scripts/package.mjs writes them
// beside the bundled CLI and the SQLite bindings; the hooks come from the connector's definition.

/** What the manifests say about the build. */
export interface PluginBuild {
  readonly version: string;
  readonly description: string;
  readonly license: string;
  /** The marketplace that lists the plugin: `claude plugin install engram@<marketplace>`. */
  readonly marketplace: string;
}

/** The plugin's own CLI: the bundled `dist/engram.js` on `node` from PATH, through `bin/engram`. */
const ENGRAM = 'sh "${CLAUDE_PLUGIN_ROOT}/bin/engram"';

/** A file of the plugin: its path inside the plugin folder, its text, and whether it is run. */
export interface PluginFile {
  readonly path: string;
  readonly text: string;
  readonly executable?: true;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * `bin/engram`: a POSIX shell script (Claude Code runs hook commands with one on every OS, Git Bash
 * on Windows). It marks the run as the plugin's (claude/frontDoor.ts). With no `node` on PATH a
 * hook exits 0 with no output — it must never break a session — and anything else says why; a
 * `node` older than 22.14 is refused by Engram itself the same way (cli/runtimeGate.ts).
 */
export function launcherScript(): string {
  return [
    '#!/bin/sh',
    "# Engram's Claude Code plugin: runs the Engram CLI bundled beside it on `node` from PATH (Node.js 22.14 or newer).",
    'here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)',
    'node=$(command -v node 2>/dev/null)',
    'if [ -n "$node" ] && [ -f "$node" ] && [ -x "$node" ]; then',
    '  ENGRAM_FRONT_DOOR=plugin exec "$node" "$here/../dist/engram.js" "$@"',
    'fi',
    '[ "$1" = hook ] && exit 0',
    'for arg in "$@"; do [ "$arg" = --hook ] && exit 0; done',
    'echo "engram: the Engram plugin for Claude Code needs Node.js 22.14 or newer on PATH, and there is no node on PATH. Install Node.js (https://nodejs.org), then start Claude Code again." >&2',
    'exit 1',
    '',
  ].join('\n');
}

/** Claude Code's own hard limit for the disk pass, in seconds: it stops itself within `engram.hooks.timeoutMs`. */
const DISK_PASS_TIMEOUT_S = CLAUDE_HOOK_TIMEOUT_S;

/**
 * `hooks/hooks.json`: the connector's hooks (hookSet.ts), each through the plugin's launcher; and
 * at session start (not after a compaction) a bounded pass over files changed by hand.
 */
export function hooksFile(): unknown {
  const hooks: Record<string, unknown[]> = {};
  for (const { event, hook, matcher } of ENGRAM_HOOKS) {
    (hooks[event] ??= []).push({ matcher, hooks: [{ type: 'command', command: `${ENGRAM} hook ${hook}`, timeout: CLAUDE_HOOK_TIMEOUT_S }] });
  }
  hooks.SessionStart!.push({ matcher: 'startup|resume|clear', hooks: [{ type: 'command', command: `${ENGRAM} ingest --disk --hook`, timeout: DISK_PASS_TIMEOUT_S }] });
  return { description: "Engram's memory: context at session start and with each prompt, what happened read from the transcript, edits as diff memories", hooks };
}

/** `.mcp.json`: `engram mcp` over stdio, started with no shell — so `node` itself, not the launcher. */
export function mcpFile(): unknown {
  return { mcpServers: { engram: { type: 'stdio', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/engram.js', 'mcp'], env: { ENGRAM_FRONT_DOOR: 'plugin' } } } };
}

export function pluginManifest(build: PluginBuild): unknown {
  return {
    name: PLUGIN_NAME,
    version: build.version,
    description: build.description,
    author: { name: 'Engram' },
    license: build.license,
    keywords: ['memory', 'context', 'compaction', 'mcp', 'hooks'],
  };
}

export function marketplaceManifest(build: PluginBuild): unknown {
  return {
    name: build.marketplace,
    owner: { name: 'Engram' },
    metadata: { description: 'Engram: memory for coding agents, tied to your code', version: build.version },
    plugins: [{ name: PLUGIN_NAME, source: `./${PLUGIN_NAME}`, description: build.description, version: build.version, license: build.license, category: 'productivity' }],
  };
}

/** A slash command (`/engram:<name>`): Markdown with frontmatter; the model runs the CLI with the Bash tool. */
function command(frontmatter: Record<string, string>, body: string): string {
  const head = Object.entries(frontmatter).map(([key, value]) => `${key}: ${value}`);
  return ['---', ...head, '---', '', body.trim(), ''].join('\n');
}

const QUOTE_NOTE = 'Quote every argument for a POSIX shell (single quotes; a single quote inside becomes \'\\\'\').';

export function commandFiles(): PluginFile[] {
  return [
    {
      path: 'commands/remember.md',
      text: command(
        { description: "Remember something about this project in Engram's memory (a decision, constraint, gotcha or note)", 'argument-hint': '<what to remember>' },
        `Store this in Engram's memory of the project: $ARGUMENTS

Choose its kind: \`decision\`, \`constraint\` (a rule the code must keep), \`gotcha\`, \`fact\` or \`note\`. If it is about particular files or symbols, name them. Then run one Bash command:

    ${ENGRAM} remember --kind KIND [--file PATH]... [--symbol NAME]... [--why 'WHY'] -- 'TEXT'

${QUOTE_NOTE} Tell the user the id it printed, in one line.`,
      ),
    },
    {
      path: 'commands/pin.md',
      text: command(
        { description: 'Pin a constraint in Engram: given to Claude Code at every session start and after every compaction', 'argument-hint': '<memory id, or the rule to keep>' },
        `Pin this in Engram's memory of the project: $ARGUMENTS

If it is a memory id (\`m_...\`), run \`${ENGRAM} pin ID\`. Otherwise it is a rule: run

    ${ENGRAM} remember --kind constraint --pin hard [--file PATH]... [--symbol NAME]... -- 'RULE'

naming the files or symbols it governs when it names them. ${QUOTE_NOTE} Tell the user what was pinned, in one line.`,
      ),
    },
    {
      path: 'commands/recall.md',
      text: command(
        { description: "Search Engram's memory of this project: decisions, constraints, why code changed", 'argument-hint': '<question, file or symbol>' },
        `Look this up in Engram's memory of the project: $ARGUMENTS

Run \`${ENGRAM} recall --query 'QUESTION' --limit 10\`, adding \`--file PATH\` when it names a file of the project. ${QUOTE_NOTE} Answer from what it prints, citing memory ids; say so when nothing relevant was found.`,
      ),
    },
    {
      path: 'commands/forget.md',
      text: command(
        { description: "Forget memories in Engram: out of recall and context (undo: engram restore)", 'argument-hint': '<memory id, or what to forget>' },
        `Forget this in Engram's memory of the project: $ARGUMENTS

If it names memory ids (\`m_...\`), run \`${ENGRAM} forget ID...\`. Otherwise find the memories first with \`${ENGRAM} recall --query 'WHAT' --limit 10\`, show them to the user and forget only the ones the user confirms. ${QUOTE_NOTE} Say which ids were forgotten and that \`engram restore ID\` brings one back.`,
      ),
    },
    {
      path: 'commands/status.md',
      text: command(
        { description: "Engram's health and memory for this project: runtime, database, hooks and which front door runs them", 'allowed-tools': 'Bash(sh:*)' },
        `Engram's report for this project:

!\`${ENGRAM} doctor --json --project "\${CLAUDE_PROJECT_DIR:-.}"\`

Summarize it for the user in a few lines: problems (\`ok\` false) and warnings first, each with what to do; then the memory counts and which of Engram's hooks run (the \`claude\` check).`,
      ),
    },
  ];
}

function readme(build: PluginBuild): string {
  return `# Engram for Claude Code

${build.description}

Engram keeps what Claude Code learns in a project — decisions, constraints, gotchas and why the code
changed — in a local SQLite database, tied to files and symbols, and gives the relevant part back
at session start, with each prompt and again after a compaction. Nothing leaves the machine.

Install from a marketplace that lists it:

    claude plugin marketplace add <folder or repository of the marketplace>
    claude plugin install engram@${build.marketplace}

It needs Node.js 22.14 or newer on PATH. Without it the hooks give nothing (Claude Code is never
held up) and \`/engram:status\` says why.

- Hooks: SessionStart (also after \`/compact\`), UserPromptSubmit, PreCompact, PostToolUse for
  Write/Edit/MultiEdit/NotebookEdit, Stop, SessionEnd; and at session start a bounded pass over
  files changed by hand since the last one (\`engram ingest --disk\`).
- MCP server \`engram\`: remember, recall, timeline and the rest of Engram's tools.
- Commands: \`/engram:remember\`, \`/engram:pin\`, \`/engram:recall\`, \`/engram:forget\`, \`/engram:status\`.

The VS Code extension uses the same data folder and database. When a project is also connected
from VS Code (\`engram connect claude\`), the connector's hooks run and the plugin's step aside.
`;
}

/** Every text file of the plugin folder, by path inside it. */
export function pluginFiles(build: PluginBuild): PluginFile[] {
  return [
    { path: '.claude-plugin/plugin.json', text: json(pluginManifest(build)) },
    { path: 'hooks/hooks.json', text: json(hooksFile()) },
    { path: '.mcp.json', text: json(mcpFile()) },
    { path: 'bin/engram', text: launcherScript(), executable: true },
    { path: 'README.md', text: readme(build) },
    ...commandFiles(),
  ];
}
