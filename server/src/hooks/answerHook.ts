import { hookInputSchema, isHookEvent } from './hookInput';
import { logHook } from './hookLog';
import { runHook, type ProjectOpener, type RecordWrites } from './runHook';

/** What a hook prints (nothing, or its JSON), or that this process does not serve its project. */
export type HookAnswer = { readonly served: true; readonly stdout: string | null } | { readonly served: false };

/**
 * A hook's whole stdin → what to print, with one line in the hook log for every outcome (ok,
 * bad-input, unknown-event, error). Never throws: a hook fails open. The same for `engram hook`
 * and for the memory server answering a hook on its socket (`via` says which in the log).
 */
export async function answerHook(event: string, stdinText: string, env: NodeJS.ProcessEnv, started: number, open?: ProjectOpener, via?: string, record?: RecordWrites): Promise<HookAnswer> {
  let session = '-';
  const finish = (outcome: string, detail?: string) => logHook(env, { event, session, outcome, ms: Date.now() - started, detail: via ? `${detail ?? ''} (${via})`.trim() : detail });
  try {
    if (!isHookEvent(event)) {
      finish('unknown-event');
      return { served: true, stdout: null };
    }
    let json: unknown;
    try {
      json = JSON.parse(stdinText || 'null');
    } catch (error) {
      finish('bad-input', `not JSON: ${(error as Error).message}`);
      return { served: true, stdout: null };
    }
    const parsed = hookInputSchema.safeParse(json);
    if (!parsed.success) {
      finish('bad-input', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      return { served: true, stdout: null };
    }
    session = parsed.data.session_id;
    const outcome = await runHook(event, parsed.data, env, Date.now(), open, record);
    if (!outcome) return { served: false };
    finish('ok', outcome.summary);
    return { served: true, stdout: outcome.stdout };
  } catch (error) {
    finish('error', (error as Error).stack ?? String(error));
    return { served: true, stdout: null };
  }
}
