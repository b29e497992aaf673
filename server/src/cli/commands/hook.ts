import { hookInputSchema, HOOK_EVENTS, isHookEvent } from '../../hooks/hookInput';
import { logHook } from '../../hooks/hookLog';
import { runHook } from '../../hooks/runHook';
import { readEngramConfig } from '../../store/engramConfig';
import type { Command } from '../command';

const MAX_STDIN_BYTES = 8 * 1024 * 1024;
/** Time kept back from the limit for opening the database and printing. */
const BUSY_MARGIN_MS = 400;

/**
 * Stdin, whole, up to a cap; resolves early (with what came, `ended: false`) when the limit
 * passes. Through process.stdin, not a read of fd 0 in libuv's thread pool: a read still waiting
 * there would keep even process.exit from ending the process.
 */
function readStdin(limitMs: number): Promise<{ readonly text: string; readonly ended: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (ended: boolean) => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), ended });
    };
    const timer = setTimeout(() => done(false), limitMs);
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_STDIN_BYTES) chunks.push(chunk);
    });
    process.stdin.on('end', () => done(true));
    process.stdin.on('error', () => done(true));
  });
}

/**
 * `engram hook <event>`: what Claude Code runs for its hooks. It fails open, always: any error,
 * bad input or the time limit (`hooks.timeoutMs`, default 2 s) ends it with exit 0 and nothing
 * on stdout, and a line in $ENGRAM_HOME/logs/hooks.log. Stdout only ever carries the hook's JSON.
 */
export const hookCommand: Command = {
  name: 'hook',
  summary: 'run a Claude Code hook (stdin: the hook JSON; stdout: context JSON); always exits 0',
  usage: Object.keys(HOOK_EVENTS).join('|'),
  options: {},
  positionals: { min: 1, max: 1 },
  async run(args, io) {
    const started = Date.now();
    const event = args.positionals[0]!;
    let session = '-';
    const config = (() => {
      try {
        return readEngramConfig(io.env).config.hooks;
      } catch {
        return { timeoutMs: 2000 };
      }
    })();
    const finish = (outcome: string, detail?: string) => logHook(io.env, { event, session, outcome, ms: Date.now() - started, detail });
    // A hard stop: whatever is still running, Claude Code gets exit 0 and no output in time.
    const deadline = setTimeout(() => {
      finish('timeout', `after ${config.timeoutMs} ms`);
      process.exit(0);
    }, config.timeoutMs);
    deadline.unref();
    try {
      if (!isHookEvent(event)) {
        finish('unknown-event');
        return 0;
      }
      process.env.ENGRAM_BUSY_TIMEOUT_MS = String(Math.max(100, config.timeoutMs - BUSY_MARGIN_MS));
      const stdin = await readStdin(config.timeoutMs);
      if (!stdin.ended) {
        finish('bad-input', `stdin still open after ${config.timeoutMs} ms`);
        // Stdin still open would keep the process alive: end it (nothing to flush).
        process.exit(0);
      }
      let json: unknown;
      try {
        json = JSON.parse(stdin.text || 'null');
      } catch (error) {
        finish('bad-input', `not JSON: ${(error as Error).message}`);
        return 0;
      }
      const parsed = hookInputSchema.safeParse(json);
      if (!parsed.success) {
        finish('bad-input', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        return 0;
      }
      session = parsed.data.session_id;
      const outcome = await runHook(event, parsed.data, io.env);
      if (outcome.stdout) io.out(`${outcome.stdout}\n`);
      finish('ok', outcome.summary);
    } catch (error) {
      finish('error', (error as Error).stack ?? String(error));
    } finally {
      clearTimeout(deadline);
    }
    return 0;
  },
};
