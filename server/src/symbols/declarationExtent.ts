import type { Node } from 'web-tree-sitter';

/** Syntax that wraps a declaration and belongs to it: decorators, `export`, `template <…>`. */
export const WRAPPER_TYPES: ReadonlySet<string> = new Set([
  'export_statement',
  'lexical_declaration',
  'variable_declaration',
  'decorated_definition',
  'template_declaration',
]);

/** Where a declaration begins, counting what wraps it and the decorators before a class member. */
export function firstNodeOf(node: Node): Node {
  let outer = node;
  while (outer.parent && WRAPPER_TYPES.has(outer.parent.type)) outer = outer.parent;
  let previous = outer.previousNamedSibling;
  while (previous?.type === 'decorator') {
    outer = previous;
    previous = previous.previousNamedSibling;
  }
  return outer;
}

/** A C# `namespace X;`, which holds the rest of the file though its node ends at the `;`. */
export const FILE_SCOPED_NAMESPACE = 'file_scoped_namespace_declaration';

/** Where a declaration ends. */
export function lastNodeOf(node: Node): Node {
  return node.type === FILE_SCOPED_NAMESPACE && node.parent ? node.parent : node;
}
