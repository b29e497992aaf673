import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { engramHome } from '../paths/engramPaths';

const MAX_LOG_BYTES = 1024 * 1024;

export function hookLogFile(env: NodeJS.ProcessEnv): string {
  return path.join(engramHome(env), 'logs', 'hooks.log');
}

export interface HookLogFields {
  readonly event: string;
  readonly session: string;
  readonly outcome: string;
  readonly ms: number;
  readonly detail?: string;
}

/**
 * One line per hook run (event, session, outcome, time, error), so a hook that does nothing or
 * fails is visible in the log and in `engram doctor` (hookLogSummary.ts). Bounded: past 1 MB
 * the log moves to hooks.log.1. Never throws: a hook must not fail because its log could not be
 * written. Fields that hold text from a hook's input go through redactHookLogFields first
 * (hookLogRedaction.ts); this file stays light because every `engram` start loads it.
 */
export function logHook(env: NodeJS.ProcessEnv, fields: HookLogFields): void {
  try {
    const file = hookLogFile(env);
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      if (statSync(file).size > MAX_LOG_BYTES) renameSync(file, `${file}.1`);
    } catch {
      // No log yet.
    }
    const detail = fields.detail ? ` ${fields.detail.replace(/\s+/g, ' ').slice(0, 500)}` : '';
    appendFileSync(file, `${new Date().toISOString()} ${fields.event} ${fields.session} ${fields.outcome} ${fields.ms}ms${detail}\n`);
  } catch {
    // Nowhere to say it; the hook still exits 0.
  }
}
