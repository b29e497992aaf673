import type { HookEvent } from '../hooks/hookInput';

/**
 * The hooks Engram gives Claude Code (Claude Code event → `engram hook` event, matcher): the one
 * definition both front doors use — the connector merges them into `.claude/settings.local.json`,
 * the plugin's `hooks/hooks.json` is made from them (pluginFiles.ts).
 */
export const ENGRAM_HOOKS: readonly { readonly event: string; readonly hook: HookEvent; readonly matcher: string }[] = [
  { event: 'SessionStart', hook: 'session-start', matcher: '' },
  { event: 'UserPromptSubmit', hook: 'user-prompt-submit', matcher: '' },
  { event: 'PreCompact', hook: 'pre-compact', matcher: '' },
  { event: 'PostToolUse', hook: 'post-tool-use', matcher: 'Write|Edit|MultiEdit|NotebookEdit' },
  { event: 'Stop', hook: 'stop', matcher: '' },
  { event: 'SessionEnd', hook: 'session-end', matcher: '' },
];

/** Claude Code's own limit for our hooks, in seconds; Engram stops itself well before (hooks.timeoutMs). */
export const CLAUDE_HOOK_TIMEOUT_S = 10;
