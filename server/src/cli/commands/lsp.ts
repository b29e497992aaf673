import { stringOption, type Command } from '../command';

export const lspCommand: Command = {
  name: 'lsp',
  summary: 'run the memory server as a language server (for VS Code or any LSP client)',
  usage: '--stdio | --node-ipc [--warm FILE,…]',
  // --warm: the files an editor shows as it starts the server, whose languages' parsers are loaded at once.
  options: { stdio: { type: 'boolean' }, 'node-ipc': { type: 'boolean' }, 'clientProcessId': { type: 'string' }, warm: { type: 'string' } },
  positionals: { min: 0, max: 0 },
  jit: true,
  async run(args) {
    const warm = stringOption(args, 'warm');
    // While the LSP libraries load and the client's `initialize` comes: the first hover then finds them ready.
    if (warm) void import('../../symbols').then(({ warmLanguagesOf }) => warmLanguagesOf(warm.split(',')));
    // Loaded lazily so short CLI commands do not pay for the LSP libraries.
    const [{ runLanguageServer }, { mailboxCommands }] = await Promise.all([import('../../lsp/server'), import('../mailboxCommands')]);
    runLanguageServer({ answerMailbox: mailboxCommands });
    // The connection keeps the process alive; it ends when the client sends `exit` or goes away.
    return new Promise<number>(() => undefined);
  },
};
