import type { Declaration } from './declarations';
import type { LanguageId } from './languages';

/** What the opening-declarations thread is given: the absolute paths of the files an editor shows. */
export interface OpeningDeclarationsData {
  readonly files: readonly string[];
}

/** What it sends back: each file's text and declarations as it has them, then that it is done. */
export type OpeningDeclarationsMessage =
  | { readonly type: 'file'; readonly language: LanguageId; readonly text: string; readonly declarations: readonly Declaration[] }
  | { readonly type: 'done' };
