import type { Redactor } from '../secrets/redact';

/** How many files' last texts are kept: an agent edits a few files at a time. */
const MAX_FILES = 64;

/**
 * The last text redacted for each recently edited file, with its redacted form. An agent's edit
 * reports the file's whole text before it, which is the text after its previous edit of the
 * file: that text is then redacted once, not twice.
 */
export class LastRedactedTexts {
  private readonly byPath = new Map<string, { readonly text: string; readonly redacted: string }>();

  constructor(private readonly redactor: Redactor) {}

  /** `text` redacted, from the last text of `path` when it is the same. */
  redacted(path: string, text: string): string {
    const last = this.byPath.get(path);
    if (last?.text === text) return last.redacted;
    const redacted = this.redactor.text(text);
    this.byPath.delete(path);
    this.byPath.set(path, { text, redacted });
    if (this.byPath.size > MAX_FILES) this.byPath.delete(this.byPath.keys().next().value!);
    return redacted;
  }
}
