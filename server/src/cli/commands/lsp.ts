import { stringOption, type Command } from '../command';
import { parseOpeningFiles } from '../../symbols/openingDeclarations';
import { warmList } from '../openingFiles';

export const lspCommand: Command = {
  name: 'lsp',
  summary: 'run the memory server as a language server (for VS Code or any LSP client)',
  usage: '--stdio | --node-ipc [--warm FILE,…]',
  // --warm: the files an editor shows as it starts the server (absolute paths), parsed in a process of their own.
  options: { stdio: { type: 'boolean' }, 'node-ipc': { type: 'boolean' }, 'clientProcessId': { type: 'string' }, warm: { type: 'string' } },
  positionals: { min: 0, max: 0 },
  jit: true,
  async run(args) {
    // Started by the `engram` entry before this bundle loaded (cli/launch.ts); started here when run otherwise.
    parseOpeningFiles(warmList(stringOption(args, 'warm')));
    // Loaded lazily so short CLI commands do not pay for the LSP libraries.
    const [{ runLanguageServer }, { mailboxCommands }] = await Promise.all([import('../../lsp/server'), import('../mailboxCommands')]);
    runLanguageServer({ answerMailbox: mailboxCommands });
    // The connection keeps the process alive; it ends when the client sends `exit` or goes away.
    return new Promise<number>(() => undefined);
  },
};
