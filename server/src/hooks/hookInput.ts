import { z } from 'zod';

/** The hook events Engram handles, as `engram hook <event>` names them, with Claude Code's names. */
export const HOOK_EVENTS = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  'pre-compact': 'PreCompact',
  'post-tool-use': 'PostToolUse',
  stop: 'Stop',
  'session-end': 'SessionEnd',
} as const;

export type HookEvent = keyof typeof HOOK_EVENTS;

export function isHookEvent(name: string): name is HookEvent {
  return Object.hasOwn(HOOK_EVENTS, name);
}

/**
 * The stdin JSON of a hook (claude-code.md): common fields, then the event's own. Parsed
 * loosely — Claude Code adds fields between versions; only what Engram reads must be there.
 */
export const hookInputSchema = z.looseObject({
  session_id: z.string().min(1),
  transcript_path: z.string().optional(),
  cwd: z.string().optional(),
  hook_event_name: z.string().optional(),
  source: z.string().optional(),
  prompt: z.string().optional(),
  trigger: z.string().optional(),
  tool_name: z.string().optional(),
  tool_use_id: z.string().optional(),
  tool_response: z.unknown().optional(),
});

export type HookInput = z.infer<typeof hookInputSchema>;
