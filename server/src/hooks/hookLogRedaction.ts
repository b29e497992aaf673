import { compileUserPatterns, Redactor } from '../secrets/redact';
import { readEngramConfig } from '../config/engramConfig';
import type { HookLogFields } from './hookLog';

/**
 * A hook log line's fields as they may be stored: the session and the detail (an error quoting
 * the hook's input, a path, a summary) pass the built-in rules and the user's patterns, as text
 * bound for the database does, and before the log cuts the detail to length.
 */
export function redactHookLogFields(env: NodeJS.ProcessEnv, fields: HookLogFields): HookLogFields {
  const redactor = new Redactor(compileUserPatterns(readEngramConfig(env).config.redact.patterns).patterns);
  return { ...fields, session: redactor.text(fields.session), ...(fields.detail === undefined ? {} : { detail: redactor.text(fields.detail) }) };
}
