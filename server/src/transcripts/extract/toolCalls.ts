import path from 'node:path';

/**
 * What a tool call acts on, so a failure and a later success of the same thing can be paired
 * into a gotcha: a command ("npm test", "cargo build") or a file ("file:src/a.ts"). Calls that
 * look things up (Grep, Glob, web) have no subject: their failures teach nothing lasting.
 */

const MAX_SUMMARY = 200;
/** Commands with a sub-command worth keeping: `npm run build`, `npx tsc`. */
const RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'npx', 'pnpx', 'cargo', 'go', 'git', 'docker', 'make', 'uv', 'poetry', 'dotnet', 'mvn', 'gradle', './gradlew', 'kubectl', 'pip', 'pip3']);
const WRAPPERS = new Set(['sudo', 'time', 'env', 'nice', 'command', 'exec']);
/** Changing a file and reading it are different subjects: a successful Read does not fix a failed Edit. */
const FILE_TOOLS: Readonly<Record<string, { readonly field: string; readonly verb: 'change' | 'read' }>> = {
  Edit: { field: 'file_path', verb: 'change' },
  Write: { field: 'file_path', verb: 'change' },
  MultiEdit: { field: 'file_path', verb: 'change' },
  NotebookEdit: { field: 'notebook_path', verb: 'change' },
  Read: { field: 'file_path', verb: 'read' },
};
/** Programs run through a launcher are the same program: `npx tsc` is `tsc`. */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx']);
/** `npm run test` is `npm test`; so are npm's aliases for it. */
const NPM_ALIASES: Readonly<Record<string, string>> = { t: 'test', tst: 'test', 'run-script': 'run', 'run test': 'test', 'run start': 'start' };
/** Probes whose non-zero exit means "nothing found", not "broken". */
const PROBES = new Set(['grep', 'rg', 'ag', 'ls', 'which', 'type', 'find', 'test', '[', 'diff', 'cmp', 'pgrep', 'command']);

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SUMMARY ? `${flat.slice(0, MAX_SUMMARY - 1)}…` : flat;
}

/** "npm test", "git push", "python scripts/build.py": the program and what it was asked to do. */
function programOf(segment: string): { name: string; args: string[] } | null {
  const tokens = segment.trim().split(/\s+/).filter(Boolean);
  while (tokens.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[0]!) || WRAPPERS.has(tokens[0]!) || LAUNCHERS.has(tokens[0]!))) tokens.shift();
  const program = tokens[0];
  if (!program) return null;
  const name = program.includes('/') && !program.startsWith('./gradlew') ? path.posix.basename(program) : program;
  return { name, args: tokens.slice(1).filter((t) => !t.startsWith('-') && t !== '.' && t !== '..') };
}

function commandSubject(segment: string): string | null {
  const program = programOf(segment);
  if (!program) return null;
  const { name, args } = program;
  if (RUNNERS.has(name)) {
    let sub = (args[0] === 'run' || args[0] === 'exec' || args[0] === 'run-script' ? args.slice(0, 2) : args.slice(0, 1)).join(' ');
    if (name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') sub = NPM_ALIASES[sub] ?? NPM_ALIASES[sub.split(' ')[0]!] ?? sub;
    return sub ? `${name} ${sub}` : name;
  }
  return args[0] ? `${name} ${args[0]}` : name;
}

/** A search or existence probe: its exit code 1 means "no match", not a failure. */
export function isProbe(command: string): boolean {
  const last = command.split(/\s*(?:&&|\|\||;|\n)\s*/).filter(Boolean).pop() ?? '';
  const first = programOf(last.split('|')[0] ?? '');
  const piped = last.split('|').slice(1).map((s) => programOf(s)?.name);
  return (first !== null && PROBES.has(first.name)) || piped.some((n) => n !== undefined && PROBES.has(n));
}

/** The folder the Bash tool's shell is in after a command: it keeps its directory between calls. */
export function shellDirAfter(command: string, dir: string): string {
  let current = dir;
  for (const step of command.split(/\s*(?:&&|;|\n)\s*/)) {
    const cd = /^cd\s+("[^"]+"|'[^']+'|\S+)\s*$/.exec(step.trim());
    if (cd) current = path.posix.normalize(path.posix.join(current || '.', cd[1]!.replace(/^["']|["']$/g, '')));
  }
  return current;
}

/** The subject of a shell command: each step of a `&&`/`;` chain, `cd` steps left out. */
export function bashSubject(command: string): string | null {
  const steps = command
    .split(/\s*(?:&&|\|\||;|\n)\s*/)
    .map((s) => s.split('|')[0]!.trim())
    .filter((s) => s && !/^cd(\s|$)/.test(s));
  const subjects = steps.map(commandSubject).filter((s): s is string => s !== null);
  return subjects.length ? subjects.join(' && ') : null;
}

export interface ToolCallInfo {
  readonly subject: string | null;
  readonly summary: string;
  /** The file a file tool acts on, as given (absolute in Claude Code). */
  readonly filePath: string | null;
}

/**
 * `shellDir`: where the Bash tool's shell was before this call (see `shellDirAfter`): the same
 * command in another folder is another subject ("cd client && npm test" is not "cd server && npm test").
 */
export function describeToolCall(name: string, input: Readonly<Record<string, unknown>>, shellDir = ''): ToolCallInfo {
  if (name === 'Bash' && typeof input.command === 'string') {
    const subject = bashSubject(input.command);
    const dir = shellDirAfter(input.command, shellDir);
    return { subject: subject && dir && dir !== '.' ? `${dir}$ ${subject}` : subject, summary: shorten(input.command), filePath: null };
  }
  const tool = FILE_TOOLS[name];
  const file = tool ? input[tool.field] : undefined;
  if (tool && typeof file === 'string' && file) return { subject: `${tool.verb}:${file}`, summary: `${name} ${file}`, filePath: file };
  return { subject: null, summary: name, filePath: null };
}

/** Results that are the user saying no, not the tool failing. */
const NOT_A_FAILURE = /^(?:the user doesn't want to|\[request interrupted by user|user rejected|permission to use .* (?:has been|was) denied)/i;
const MAX_ERROR = 500;

export interface ToolFailure {
  readonly error: string;
  readonly exitCode: number | null;
}

/** The text of a tool_result's content (a string, or an array of text blocks). */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (block && typeof block === 'object' && typeof (block as { text?: unknown }).text === 'string' ? (block as { text: string }).text : ''))
    .join('\n');
}

/** The failure a tool result reports (capped error text, exit code), or null for a success or a refusal. */
export function toolFailure(isError: boolean, content: unknown, command: string | null = null): ToolFailure | null {
  if (!isError) return null;
  const text = resultText(content).replace(/<\/?tool_use_error>/g, '').trim();
  if (NOT_A_FAILURE.test(text)) return null;
  const exit = /^Exit code (\d+)\s*/.exec(text);
  if (exit && exit[1] === '1' && command !== null && isProbe(command)) return null;
  const error = (exit ? text.slice(exit[0].length) : text).trim() || (exit ? `exit code ${exit[1]}` : 'failed');
  return { error: error.length > MAX_ERROR ? `${error.slice(0, MAX_ERROR - 1)}…` : error, exitCode: exit ? Number(exit[1]) : null };
}
