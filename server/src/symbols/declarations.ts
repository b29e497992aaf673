import type { Language, Node, Query as DeclarationQuery, QueryMatch, Tree } from 'web-tree-sitter';
import { firstNodeOf, lastNodeOf } from './declarationExtent';
import { DECLARATION_QUERY } from './declarationQueries';
import { baseTypeName, cleanName, declaredFunctionName } from './declarationNames';
import type { LanguageId } from './languages';
import { grammarFor, parseWithinBudget, parserFor, treeSitterBudgetMs } from './parser';
import { queryRangesFor } from './queryRanges';
import type { LineRange } from './symbolsForRanges';
import { webTreeSitter } from './webTreeSitter';

export type DeclarationKind =
  | 'class'
  | 'interface'
  | 'function'
  | 'method'
  | 'enum'
  | 'type'
  | 'namespace'
  | 'module'
  | 'struct'
  | 'trait'
  | 'impl'
  | 'variable';

export interface Declaration {
  /** Qualified by the declarations around it, e.g. `OrderService.cancel`. */
  readonly name: string;
  readonly kind: DeclarationKind;
  /** 0-based, inclusive. */
  readonly startLine: number;
  /** 0-based, inclusive. */
  readonly endLine: number;
}

export interface ParsedDeclarations {
  readonly declarations: readonly Declaration[];
  /** The tree had syntax errors; the declarations are what tree-sitter recovered. */
  readonly hasErrors: boolean;
}

/** A declaration found by the query, before nesting gives it its qualified name. */
interface FoundDeclaration {
  readonly name: string;
  readonly kind: DeclarationKind;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startLine: number;
  readonly endLine: number;
}

const KINDS: ReadonlySet<string> = new Set<DeclarationKind>([
  'class', 'interface', 'function', 'method', 'enum', 'type', 'namespace', 'module', 'struct', 'trait', 'impl', 'variable',
]);

/** Declarations whose functions are methods. */
const TYPE_KINDS: ReadonlySet<DeclarationKind> = new Set<DeclarationKind>(['class', 'interface', 'struct', 'trait', 'impl', 'enum']);

/** What the `value` of a declaration captured as @<kind>.callable must be (declarationQueries.ts). */
const CALLABLE_VALUES: ReadonlySet<string> = new Set(['arrow_function', 'function_expression', 'generator_function']);
const CALLABLE = '.callable';

/** The kind a capture names (@class, @method.callable), or null for a name's or another part's capture. */
function kindCaptured(captureName: string): { readonly kind: DeclarationKind; readonly callable: boolean } | null {
  const callable = captureName.endsWith(CALLABLE);
  const kind = callable ? captureName.slice(0, -CALLABLE.length) : captureName;
  return KINDS.has(kind) ? { kind: kind as DeclarationKind, callable } : null;
}

const C_TAG_SPECIFIERS: ReadonlySet<string> = new Set(['struct_specifier', 'union_specifier', 'enum_specifier', 'class_specifier']);

const queries = new Map<LanguageId, DeclarationQuery>();

function declarationQuery(language: LanguageId, grammar: Language): DeclarationQuery {
  let query = queries.get(language);
  if (!query) {
    query = new (webTreeSitter().Query)(grammar, DECLARATION_QUERY[language]);
    queries.set(language, query);
  }
  return query;
}

/** The declarations in a source text with their qualified names and line ranges, in source order. */
export async function declarations(text: string, language: LanguageId): Promise<ParsedDeclarations> {
  const parser = await parserFor(language);
  const tree = parseWithinBudget(parser, text);
  if (!tree) return { declarations: [], hasErrors: true };
  try {
    return await declarationsInTree(tree, language);
  } finally {
    // Trees live in wasm memory, which the JS garbage collector does not reclaim.
    tree.delete();
  }
}

/**
 * The declarations of a parsed tree. Given `lines`, only those a query over those lines finds:
 * every declaration overlapping them and every declaration enclosing those, so the ones
 * overlapping them have the same qualified names and nesting as in a whole-tree query.
 * A query that outruns `budgetMs` is stopped and finds nothing (a tree that slow is not code a
 * symbol name would help with); the result says the tree had errors.
 */
export async function declarationsInTree(tree: Tree, language: LanguageId, lines?: readonly LineRange[], budgetMs = treeSitterBudgetMs(tree.rootNode.endIndex)): Promise<ParsedDeclarations> {
  const query = declarationQuery(language, await grammarFor(language));
  const root = tree.rootNode;
  const deadline = performance.now() + budgetMs;
  let stopped = false;
  // tree-sitter calls this as the query advances; returning true cancels it.
  const progressCallback = (): boolean => (stopped ||= performance.now() > deadline);
  const ranges = lines ? queryRangesFor(root, lines) : [{}];
  const matches = ranges.flatMap((range) => (stopped ? [] : query.matches(root, { ...range, progressCallback })));
  if (stopped) return { declarations: [], hasErrors: true };
  return { declarations: qualify(foundDeclarations(matches)), hasErrors: root.hasError };
}

function foundDeclarations(matches: readonly QueryMatch[]): FoundDeclaration[] {
  // Several patterns can match one node; the earliest pattern is the most specific.
  const byNode = new Map<number, { readonly patternIndex: number; readonly found: FoundDeclaration }>();
  for (const match of matches) {
    const found = toDeclaration(match);
    if (!found) continue;
    const key = match.captures.find((capture) => kindCaptured(capture.name))?.node.id ?? -1;
    const previous = byNode.get(key);
    if (!previous || match.patternIndex < previous.patternIndex) byNode.set(key, { patternIndex: match.patternIndex, found });
  }
  return [...byNode.values()].map((entry) => entry.found);
}

function toDeclaration(match: QueryMatch): FoundDeclaration | null {
  let node: Node | undefined;
  let kind: DeclarationKind | undefined;
  let name: string | null = null;
  let receiver: Node | undefined;
  let typedefType: Node | undefined;
  for (const capture of match.captures) {
    const captured = kindCaptured(capture.name);
    if (captured) {
      if (captured.callable && !CALLABLE_VALUES.has(capture.node.childForFieldName('value')?.type ?? '')) return null;
      node = capture.node;
      kind = captured.kind;
    } else if (capture.name === 'name') name = capture.node.text;
    else if (capture.name === 'name.declarator') name = declaredFunctionName(capture.node);
    else if (capture.name === 'name.type') name = baseTypeName(capture.node);
    else if (capture.name === 'receiver') receiver = capture.node;
    else if (capture.name === 'typedef.type') typedefType = capture.node;
  }
  if (!node || !kind || !name) return null;
  if (receiver) {
    const receiverType = baseTypeName(receiver);
    if (receiverType) name = `${receiverType}.${name}`;
  }
  if (typedefType && C_TAG_SPECIFIERS.has(typedefType.type) && typedefType.childForFieldName('body')) {
    // `typedef struct Foo {…} Foo;` is found as the struct; `typedef struct {…} Foo;` is the struct.
    if (typedefType.childForFieldName('name')) return null;
    kind = typedefType.type === 'enum_specifier' ? 'enum' : 'struct';
  }
  const cleaned = cleanName(name);
  if (!cleaned) return null;
  const start = firstNodeOf(node);
  const end = lastNodeOf(node);
  return {
    name: cleaned,
    kind,
    startIndex: start.startIndex,
    endIndex: end.endIndex,
    startLine: start.startPosition.row,
    endLine: end.endPosition.row,
  };
}

/** Gives each declaration the names of the declarations that enclose it. */
function qualify(found: FoundDeclaration[]): Declaration[] {
  found.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const enclosing: { readonly found: FoundDeclaration; readonly name: string }[] = [];
  const result: Declaration[] = [];
  for (const declaration of found) {
    while (enclosing.length > 0 && enclosing[enclosing.length - 1]!.found.endIndex <= declaration.startIndex) enclosing.pop();
    const parent = enclosing[enclosing.length - 1];
    const name = parent ? `${parent.name}.${declaration.name}` : declaration.name;
    result.push({ name, kind: callableKind(declaration, parent?.found), startLine: declaration.startLine, endLine: declaration.endLine });
    enclosing.push({ found: declaration, name });
  }
  return result;
}

/**
 * A function in a type is a method. A "method" outside any type or module (a top-level Ruby
 * `def`) is a function, unless its name says which type it belongs to (Go's `Server.Start`).
 */
function callableKind(declaration: FoundDeclaration, parent: FoundDeclaration | undefined): DeclarationKind {
  if (declaration.kind === 'function' && parent && TYPE_KINDS.has(parent.kind)) return 'method';
  const inTypeOrModule = parent !== undefined && (TYPE_KINDS.has(parent.kind) || parent.kind === 'module');
  if (declaration.kind === 'method' && !inTypeOrModule && !declaration.name.includes('.')) return 'function';
  return declaration.kind;
}
