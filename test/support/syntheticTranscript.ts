import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeProjectFolder } from '../../server/src/transcripts/projectFolder';

/**
 * A Claude Code transcript (the record shapes of /work/shared/data/claude-code/) in which given
 * texts reach every place Engram reads one from: the first prompt (the session's title), later
 * prompts, what the assistant says, Bash commands and their failures, and — left at the end for
 * the reader's stored state — the last prompt, the last reply and a command still running.
 * Each text goes to one place of the body and one of the end, in turn, so that each place sees
 * every kind of text while each is read twice rather than seven times (a corpus of 17,000 secrets
 * took a minute an entry point to read).
 */
export function transcriptCarrying(options: { sessionId: string; cwd: string; firstPrompt: string; texts: readonly string[] }): string {
  const { sessionId, cwd } = options;
  let parent: string | null = null;
  let clock = Date.parse('2026-11-20T09:00:00Z');
  const lines: string[] = [];
  const add = (record: Record<string, unknown>) => {
    const uuid = randomUUID();
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, uuid, timestamp: new Date((clock += 1000)).toISOString(), sessionId, cwd, gitBranch: 'main', version: '2.1.330', userType: 'external', ...record }));
    parent = uuid;
  };
  const prompt = (text: string) => add({ type: 'user', message: { role: 'user', content: text } });
  const reply = (content: unknown[]) => add({ type: 'assistant', message: { id: `msg_${randomUUID()}`, role: 'assistant', model: 'claude-sonnet-4', content } });
  let tools = 0;
  const bash = (command: string) => {
    const id = `toolu_${String(++tools).padStart(4, '0')}`;
    reply([{ type: 'tool_use', id, name: 'Bash', input: { command, description: 'run it' } }]);
    return id;
  };
  const failed = (id: string, output: string) => add({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, is_error: true, content: `Exit code 1\n${output}` }] } });

  prompt(options.firstPrompt);
  const body: ((text: string) => void)[] = [
    (text) => prompt(`Look at this:\n${text}`),
    (text) => reply([{ type: 'text', text: `We decided to keep it because it works: ${text}` }]),
    (text) => failed(bash(text), 'command failed'),
    (text) => failed(bash('make release'), text),
  ];
  options.texts.forEach((text, i) => body[i % body.length]!(text));
  const end = (place: number) => options.texts.filter((_, i) => i % 3 === place).join('\n');
  prompt(end(0));
  reply([{ type: 'text', text: end(1) }]);
  bash(end(2));
  return `${lines.join('\n')}\n`;
}

/** Writes a transcript where Claude Code keeps those of a project (`CLAUDE_CONFIG_DIR/projects/<folder>/`). */
export function installTranscript(configDir: string, projectRoot: string, sessionId: string, text: string): string {
  const folder = path.join(configDir, 'projects', encodeProjectFolder(projectRoot));
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${sessionId}.jsonl`);
  writeFileSync(file, text);
  return file;
}
