import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fileDeclarations, innermostAt, languageForPath, openingDeclarations, type Declaration, type LanguageId } from '../symbols';

const MAX_CACHED = 32;

/** A document's declarations: as the server started, from the process that parsed it; else parsed here. */
async function parsed(path: string, language: LanguageId, text: string): Promise<readonly Declaration[]> {
  return (await openingDeclarations(path, language, text)) ?? (await fileDeclarations(path, language, text)).declarations;
}

/**
 * The declarations of open documents, parsed once per document version (incrementally, from the
 * file's last tree), for hover, CodeLens and recall at the cursor.
 */
export class DocumentDeclarations {
  private readonly cache = new Map<string, { version: number; declarations: Promise<readonly Declaration[]> }>();

  of(document: TextDocument, path: string): Promise<readonly Declaration[]> {
    const cached = this.cache.get(document.uri);
    if (cached && cached.version === document.version) return cached.declarations;
    const language = languageForPath(path);
    const declarations = language ? parsed(path, language, document.getText()).catch(() => [] as readonly Declaration[]) : Promise.resolve([] as readonly Declaration[]);
    this.cache.delete(document.uri);
    this.cache.set(document.uri, { version: document.version, declarations });
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    return declarations;
  }

  async symbolAt(document: TextDocument, path: string, line: number): Promise<string | null> {
    return innermostAt(await this.of(document, path), line);
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }
}
