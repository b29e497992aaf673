import type { Declaration } from './declarations';
import type { LanguageId } from './languages';

/**
 * What the opening-declarations process sends back (its arguments are the absolute paths of the
 * files an editor shows): each file's text and declarations as it has them, then that it is done.
 */
export type OpeningDeclarationsMessage =
  | { readonly type: 'file'; readonly language: LanguageId; readonly text: string; readonly declarations: readonly Declaration[] }
  | { readonly type: 'done' };
