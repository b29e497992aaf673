import { hookInputSchema, isHookEvent } from './hookInput';
import { logHook } from './hookLog';
import { redactHookLogFields } from './hookLogRedaction';
import { runHook, type ProjectOpener } from './runHook';

/**
 * What a hook prints (nothing, or its JSON) and what to do once it is out — record what was
 * given and write the hook's log line — or that this process does not serve its project.
 */
export type HookAnswer = { readonly served: true; readonly stdout: string | null; readonly afterOutput: () => void } | { readonly served: false };

/**
 * A hook's whole stdin → what to print, with one line in the hook log for every outcome (ok,
 * bad-input, unknown-event, error), written by `afterOutput`. Never throws: a hook fails open.
 * The same for `engram hook` and for the memory server answering from its mailbox (`via` says
 * which in the log); both give the answer first and record what was given after.
 */
export async function answerHook(event: string, stdinText: string, env: NodeJS.ProcessEnv, started: number, open?: ProjectOpener, via?: string): Promise<HookAnswer> {
  let session = '-';
  const finish = (outcome: string, detail?: string) =>
    logHook(env, redactHookLogFields(env, { event, session, outcome, ms: Date.now() - started, detail: via ? `${detail ?? ''} (${via})`.trim() : detail }));
  const nothing = (outcome: string, detail?: string): HookAnswer => ({ served: true, stdout: null, afterOutput: () => finish(outcome, detail) });
  try {
    if (!isHookEvent(event)) return nothing('unknown-event');
    let json: unknown;
    try {
      json = JSON.parse(stdinText || 'null');
    } catch (error) {
      return nothing('bad-input', `not JSON: ${(error as Error).message}`);
    }
    const parsed = hookInputSchema.safeParse(json);
    if (!parsed.success) return nothing('bad-input', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    session = parsed.data.session_id;
    const outcome = await runHook(event, parsed.data, env, { started, open });
    if (!outcome) return { served: false };
    if (outcome.kind === 'refused') return nothing('bad-input', outcome.reason);
    if (outcome.kind === 'deferred') return nothing('deferred', `plugin: ${outcome.reason}`);
    return {
      served: true,
      stdout: outcome.stdout,
      afterOutput: () => {
        let note: string | null;
        try {
          note = outcome.afterOutput();
        } catch (error) {
          note = `recording what was given failed: ${(error as Error).message}`;
        }
        finish('ok', note ? `${outcome.summary}; ${note}` : outcome.summary);
      },
    };
  } catch (error) {
    return nothing('error', (error as Error).stack ?? String(error));
  }
}
