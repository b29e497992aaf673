/**
 * The opening-declarations process (bundled as dist/opening-declarations-worker.js): parses the
 * files an editor shows while the memory server loads and answers `initialize`, so the first
 * hover right after a start waits for neither tree-sitter's load nor a cold parse. It reads files
 * only; what it cannot read or parse is left to the server, which says why.
 */
import { readFile, stat } from 'node:fs/promises';
import { declarations } from './declarations';
import { languageForPath } from './languages';
import type { OpeningDeclarationsMessage } from './openingDeclarationsProtocol';

/** Larger files are not what a hover right after a start is about; the server parses them itself. */
const MAX_BYTES = 1024 * 1024;

const post = (message: OpeningDeclarationsMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

async function run(files: readonly string[]): Promise<void> {
  for (const file of files) {
    const language = languageForPath(file);
    if (!language) continue;
    try {
      if ((await stat(file)).size > MAX_BYTES) continue;
      const text = await readFile(file, 'utf8');
      // What the server's own parse would find, errors or not (lsp/documentDeclarations.ts).
      await post({ type: 'file', language, text, declarations: (await declarations(text, language)).declarations });
    } catch {
      // Unreadable, gone, or tree-sitter failed to load: the server reads it as it would have without this process.
    }
  }
}

void run(process.argv.slice(2))
  .then(() => post({ type: 'done' }))
  .finally(() => process.disconnect());
