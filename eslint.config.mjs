// ESLint: the walls between Engram's parts (docs/architecture.md, "Architecture invariants"),
// as import rules that fail `npm test`. Syntax only, no type information, so it stays fast.
import tseslint from 'typescript-eslint';

/** The core: what every entry point shares. It never reaches back into one. */
export const CORE_FOLDERS = ['store', 'paths', 'config', 'secrets', 'capture', 'recall', 'transcripts', 'constraints', 'anchors', 'symbols', 'memory', 'history', 'team', 'hub', 'actions', 'capacity', 'util'];

/**
 * The wire contracts live in contracts/ (client, server and webview all import them, so they
 * import nothing with a platform), with the two server modules they name: the memory types.
 */
const CONTRACT_TYPES = ['memory/types', 'memory/age'];

const entryPoints = {
  regex: '^(\\.\\.?/)+(lsp|mcp|cli|hooks)(/|$)',
  message: 'The core never imports an entry point (lsp, mcp, cli, hooks): entry points call the core. Move what both need into the core.',
};
const cliOrHooks = {
  regex: '^(\\.\\.?/)+(cli|hooks)(/|$)',
  message: 'The memory server sits below the CLI and the hooks: `engram lsp` (cli/commands/lsp.ts) gives it what it runs of them (the mailbox).',
};
const aboveTheStore = {
  regex: '^(\\.\\.?/)+(capture|recall|capacity|transcripts|constraints|anchors|symbols|history|team|hub|actions)(/|$)',
  message: 'The store is the floor: it imports memory/, paths/, secrets/ and util/, never the parts above it (they give it what it needs, as project.ts gives the lifecycle store its value function).',
};
const editorApi = { regex: '^vscode$', message: 'Only the extension (client/) talks to the editor API; the server runs without VS Code (CLI, hooks, MCP).' };
const clientOrWebview = { regex: '(^|/)(client|webview)/', message: 'The server never imports the extension or the webview: they talk to it through the protocol.' };
const database = { regex: '^better-sqlite3$', message: 'The extension host never opens the database: only the memory server does, and the extension asks it (protocol.ts).' };
const serverInternals = (allowed, message) => ({ regex: `(^|/)server/src/(?!(${allowed.join('|')})$)`, message });

const restrict = (...patterns) => ['error', { patterns }];

/** The webview runs in a browser sandbox and talks only to the extension, by messages. */
const webview = (packages) => [
  { regex: packages, message: 'The webview runs in a browser sandbox: no Node modules, no npm packages; the UI toolkit only through shared/toolkit.ts, its one seam.' },
  serverInternals(CONTRACT_TYPES, 'The webview imports from the server only what the wire contracts (contracts/) name: memory/types.ts and memory/age.ts.'),
  { regex: '(^|/)client/', message: 'The webview talks to the extension through messages (contracts/webviewMessages.ts), never by importing it.' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'test-output/**', 'demo/**', '**/*.d.ts'] },
  // typescript-eslint's recommended rules that need no type information (cheap: no program is built).
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: ['**/*.ts'] })),
  {
    files: ['**/*.ts'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // protocol.ts declares each message as a namespace (method + type), the vscode-eslint pattern.
      '@typescript-eslint/no-namespace': 'off',
      // `const { a: _a, ...rest } = x` drops a field on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, varsIgnorePattern: '^_', argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['client/src/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        database,
        serverInternals(
          [...CONTRACT_TYPES, 'mailbox/mailboxPath', 'runtime/runtimeOrigin', 'runtime/runtimeRequirement', 'runtime/memoryServerFlags', 'paths/engramPaths', 'paths/platformPaths', 'paths/pathIdentity'],
          'The extension host never opens the database: from server/src it imports only the contracts and a few pure modules (eslint.config.mjs lists them). Ask the memory server instead.',
        ),
      ),
    },
  },
  {
    files: ['webview/src/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(...webview('^(?![./])')) },
  },
  {
    // The toolkit's one seam.
    files: ['webview/src/shared/toolkit.ts'],
    rules: { 'no-restricted-imports': restrict(...webview('^(?![./]|@vscode/webview-ui-toolkit(/|$))')) },
  },
  {
    files: ['server/src/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(editorApi, clientOrWebview) },
  },
  {
    files: ['server/src/lsp/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(editorApi, clientOrWebview, cliOrHooks) },
  },
  {
    files: [...CORE_FOLDERS.map((folder) => `server/src/${folder}/**/*.ts`), 'server/src/project.ts'],
    rules: { 'no-restricted-imports': restrict(editorApi, clientOrWebview, entryPoints) },
  },
  // After the core's block: a later block's rule replaces an earlier one's for the same files.
  {
    files: ['server/src/store/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(editorApi, clientOrWebview, entryPoints, aboveTheStore) },
  },
  {
    files: ['contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { regex: '^(?!\\.|zod$|vscode-languageserver-protocol$)', message: 'A wire contract imports only other contracts, zod and vscode-languageserver-protocol: client, server and webview all load it.' },
        { regex: `^\\.(?!/[A-Za-z]+$|\\./server/src/(${CONTRACT_TYPES.join('|')})$)`, message: 'A wire contract imports only other contracts and the memory types (server/src/memory/types.ts, age.ts).' },
      ),
    },
  },
  {
    files: CONTRACT_TYPES.map((file) => `server/src/${file}.ts`),
    rules: {
      'no-restricted-imports': restrict(
        { regex: '^(?!\\.|zod$)', message: 'The memory types travel with the wire contracts: they import only each other and zod.' },
        { regex: '^\\.(?!/(types|age)$)', message: 'The memory types travel with the wire contracts: they import only each other.' },
      ),
    },
  },
);
