import { stringOption, type Command } from '../command';
import { warmList } from '../openingFiles';

export const lspCommand: Command = {
  name: 'lsp',
  summary: 'run the memory server as a language server (for VS Code or any LSP client)',
  usage: '--stdio | --node-ipc [--warm FILE,…]',
  // --warm: the files an editor shows as it starts the server (absolute paths; bare names only load their languages).
  options: { stdio: { type: 'boolean' }, 'node-ipc': { type: 'boolean' }, 'clientProcessId': { type: 'string' }, warm: { type: 'string' } },
  positionals: { min: 0, max: 0 },
  jit: true,
  async run(args) {
    const { shown, names } = warmList(stringOption(args, 'warm'));
    // While the LSP libraries load and the client's `initialize` comes, the files the editor shows
    // are parsed in a process of their own (started before this bundle loaded, when run by the
    // `engram` entry); the server's own parser loads when first needed, after the first hovers.
    void import('../../symbols').then((symbols) => {
      symbols.parseOpeningFiles(shown);
      symbols.warmLanguagesOf(names);
    });
    // Loaded lazily so short CLI commands do not pay for the LSP libraries.
    const [{ runLanguageServer }, { mailboxCommands }] = await Promise.all([import('../../lsp/server'), import('../mailboxCommands')]);
    runLanguageServer({ answerMailbox: mailboxCommands });
    // The connection keeps the process alive; it ends when the client sends `exit` or goes away.
    return new Promise<number>(() => undefined);
  },
};
