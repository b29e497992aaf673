import { answerHook } from '../../hooks/answerHook';
import { HOOK_EVENTS, isHookEvent } from '../../hooks/hookInput';
import { logHook } from '../../hooks/hookLog';
import { readEngramConfig } from '../../config/engramConfig';
import type { Command } from '../command';
import { readStdin } from '../readStdin';

/** Time kept back from the limit for opening the database and printing. */
const BUSY_MARGIN_MS = 400;

/**
 * `engram hook <event>`: what Claude Code runs for its hooks. It fails open, always: any error,
 * bad input or the time limit (`hooks.timeoutMs`, default 2 s) ends it with exit 0 and nothing
 * on stdout, and a line in $ENGRAM_HOME/logs/hooks.log. Stdout only ever carries the hook's JSON.
 * When the memory server answered neither way, `engram` already read stdin and says so in `io`.
 */
export const hookCommand: Command = {
  name: 'hook',
  summary: 'run a Claude Code hook (stdin: the hook JSON; stdout: context JSON); always exits 0',
  usage: Object.keys(HOOK_EVENTS).join('|'),
  options: {},
  positionals: { min: 1, max: 1 },
  async run(args, io) {
    const started = io.startedAt ?? Date.now();
    const event = args.positionals[0]!;
    const config = (() => {
      try {
        return readEngramConfig(io.env).config.hooks;
      } catch {
        return { timeoutMs: 2000 };
      }
    })();
    const remainingMs = Math.max(100, config.timeoutMs - (Date.now() - started));
    // A hard stop: whatever is still running, Claude Code gets exit 0 and no output in time.
    const deadline = setTimeout(() => {
      logHook(io.env, { event, session: '-', outcome: 'timeout', ms: Date.now() - started, detail: `after ${config.timeoutMs} ms` });
      process.exit(0);
    }, remainingMs);
    deadline.unref();
    try {
      if (!isHookEvent(event)) {
        logHook(io.env, { event, session: '-', outcome: 'unknown-event', ms: Date.now() - started });
        return 0;
      }
      process.env.ENGRAM_BUSY_TIMEOUT_MS = String(Math.max(100, remainingMs - BUSY_MARGIN_MS));
      const stdin = io.stdin ?? (await readStdin(remainingMs));
      if (!stdin.ended) {
        logHook(io.env, { event, session: '-', outcome: 'bad-input', ms: Date.now() - started, detail: `stdin still open after ${config.timeoutMs} ms` });
        // Stdin still open would keep the process alive: end it (nothing to flush).
        process.exit(0);
      }
      const answer = await answerHook(event, stdin.text, io.env, started);
      if (answer.served) {
        // The context first: what was given is recorded after it (or later, when the database is busy).
        if (answer.stdout) io.out(`${answer.stdout}\n`);
        answer.afterOutput();
      }
    } finally {
      clearTimeout(deadline);
    }
    return 0;
  },
};
