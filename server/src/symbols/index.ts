/** Names the declarations a change touches, so a diff memory can be tagged with them. */
export { declarations, type Declaration, type DeclarationKind, type ParsedDeclarations } from './declarations';
export { languageForPath, type LanguageId } from './languages';
export { symbolsForRanges, type LineRange } from './symbolsForRanges';
export { changedDeclarations, fileDeclarations, forgetFile, type ChangedDeclarations, type ChangedDeclarationsOptions } from './fileDeclarations';
export { innermostAt, symbolAt } from './symbolAt';
export { openingDeclarations, parseOpeningFiles } from './openingDeclarations';
