import type { Node } from 'web-tree-sitter';

/** Normalises a declared name: `::` qualifiers become dots, and quotes and type arguments go. */
export function cleanName(text: string): string {
  return stripTypeArguments(text)
    .replace(/::/g, '.')
    .replace(/^['"`]|['"`]$/g, '')
    .replace(/\s+/g, '');
}

function stripTypeArguments(text: string): string {
  let depth = 0;
  let out = '';
  for (const char of text) {
    if (char === '<') depth++;
    else if (char === '>' && depth > 0) depth--;
    else if (depth === 0) out += char;
  }
  return out;
}

/** The first type identifier in a type, in source order: `Stack` in `Stack<T>`, `B` in `&a::B`. */
export function baseTypeName(type: Node): string | null {
  if (type.type === 'type_identifier') return type.text;
  for (const child of type.namedChildren) {
    // Type arguments name other types; the base name comes before them.
    if (!child || child.type === 'type_arguments' || child.type === 'lifetime') continue;
    const found = baseTypeName(child);
    if (found) return found;
  }
  return null;
}

/**
 * The function name a C/C++ declarator declares (`B::c` in `*B::c(int)`), or null when the
 * declarator declares no function (a field or variable).
 */
export function declaredFunctionName(declarator: Node): string | null {
  let node: Node | null = declarator;
  while (node && node.type !== 'function_declarator') node = node.childForFieldName('declarator');
  const name = node?.childForFieldName('declarator');
  if (!name) return null;
  // `int (*handler)(int)` declares a function pointer, not a function.
  if (name.type === 'parenthesized_declarator') return null;
  return name.text;
}
