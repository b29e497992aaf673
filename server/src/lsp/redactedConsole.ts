import type { RemoteConsole } from 'vscode-languageserver';
import { Redactor } from '../secrets/redact';

/**
 * Makes every message the memory server logs pass redaction first: errors quote paths, lines
 * of transcripts and hook input, and VS Code keeps the output channel in its log files.
 */
export function redactConsole(console: RemoteConsole, redactor: Redactor = new Redactor()): void {
  for (const level of ['error', 'warn', 'info', 'log', 'debug'] as const) {
    const write = console[level].bind(console);
    console[level] = (message: string) => write(redactor.text(message));
  }
}
