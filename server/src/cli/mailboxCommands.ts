import path from 'node:path';
import { parseArgs } from 'node:util';
import { recallCommand } from './commands/recall';
import { runCommand } from './runCommand';
import { answerHook } from '../hooks/answerHook';
import { servedByMemoryServer, type MailboxReply, type MailboxRequest } from '../mailbox/mailboxProtocol';
import type { MailboxAnswer } from '../mailbox/mailboxServer';
import { resolveProjectRoot } from '../paths/engramPaths';
import type { Project } from '../project';

const NOT_OPEN: MailboxReply = { handled: false, reason: 'the project is not open in this window' };

/** The folder `--project` names (default: the caller's cwd), as `engram recall` reads it. */
function projectFolderOf(argv: readonly string[], cwd: string): string {
  try {
    const { values } = parseArgs({ args: [...argv], options: recallCommand.options, allowPositionals: true, strict: false });
    return path.resolve(cwd, typeof values.project === 'string' ? values.project : '.');
  } catch {
    return cwd;
  }
}

/**
 * Runs what comes to the mailbox (mailbox/mailboxProtocol.ts) against the projects a memory
 * server has open (`openAt`), with the same code as the CLI: context hooks and `engram recall`.
 * A project the window does not have open is left to the caller, which opens it itself. A hook's
 * injection log is written after its answer went out. Given to the server by `engram lsp`, so
 * the server does not reach up into the CLI.
 */
export function mailboxCommands(openAt: (root: string) => Project | null): (request: MailboxRequest) => Promise<MailboxAnswer> {
  return async (request) => {
    if (!servedByMemoryServer(request.argv)) return { reply: { handled: false, reason: `engram ${request.argv[0]} runs in its own process` } };
    const env = { ...process.env, ...request.env };
    if (request.argv[0] === 'hook') {
      const lend = (folder: string) => {
        const project = openAt(resolveProjectRoot(path.resolve(request.cwd, folder), env));
        return project ? { project, release: () => undefined } : null;
      };
      const answer = await answerHook(request.argv[1]!, request.stdin ?? '', env, Date.now(), lend, 'memory server');
      if (!answer.served) return { reply: NOT_OPEN };
      return { reply: { handled: true, stdout: answer.stdout ? `${answer.stdout}\n` : '', stderr: '', exitCode: 0 }, afterReply: answer.afterOutput };
    }
    const project = openAt(resolveProjectRoot(projectFolderOf(request.argv.slice(1), request.cwd), env));
    if (!project) return { reply: NOT_OPEN };
    let stdout = '';
    let stderr = '';
    const io = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t), cwd: request.cwd, env, lentProject: project };
    const exitCode = await runCommand(recallCommand, request.argv.slice(1), io);
    return { reply: { handled: true, stdout, stderr, exitCode } };
  };
}
