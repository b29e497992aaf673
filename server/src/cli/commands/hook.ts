import { hookInputSchema, HOOK_EVENTS, isHookEvent } from '../../hooks/hookInput';
import { logHook } from '../../hooks/hookLog';
import { runHook } from '../../hooks/runHook';
import { readEngramConfig } from '../../store/engramConfig';
import type { Command } from '../command';

const MAX_STDIN_BYTES = 8 * 1024 * 1024;
/** Time kept back from the limit for opening the database and printing. */
const BUSY_MARGIN_MS = 400;

/** Stdin, whole, up to a cap; resolves early (with what came) when the limit passes. */
function readStdin(limitMs: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).toString('utf8'));
    const timer = setTimeout(done, limitMs);
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_STDIN_BYTES) chunks.push(chunk);
    });
    process.stdin.on('end', () => {
      clearTimeout(timer);
      done();
    });
    process.stdin.on('error', () => {
      clearTimeout(timer);
      done();
    });
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
      const parsed = hookInputSchema.safeParse(JSON.parse((await readStdin(config.timeoutMs)) || 'null'));
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
