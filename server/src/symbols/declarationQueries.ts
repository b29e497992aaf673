import type { LanguageId } from './languages';

/*
 * Tree-sitter queries that find declarations. Each pattern captures the declaration node as
 * @<kind> and its name as one of:
 *   @name             the name's text
 *   @name.declarator  a C/C++ declarator to search for its function name (`B::c` in `void B::c()`)
 *   @name.type        a type whose base name is the name (Rust `impl Trait for Type`)
 * and optionally @receiver (a Go method receiver, whose type qualifies the name) or
 * @typedef.type (the type a C typedef names). A kind written @<kind>.callable is a declaration
 * only when the node's `value` field is a function, which declarations.ts checks: the same as
 * `value: [(arrow_function) …]` in the pattern, whose analysis in a class body costs tree-sitter
 * as much as the rest of the query. Where one node matches several patterns, the earliest
 * pattern wins, so specific patterns come first.
 */

const TYPESCRIPT_ONLY = `
(abstract_class_declaration name: (_) @name) @class
(interface_declaration name: (_) @name) @interface
(enum_declaration name: (_) @name) @enum
(type_alias_declaration name: (_) @name) @type
(function_signature name: (_) @name) @function
(abstract_method_signature name: (_) @name) @method
(public_field_definition name: (_) @name) @method.callable
(internal_module name: (_) @name) @namespace
(module name: (_) @name) @module
`;

const JAVASCRIPT_FAMILY = `
(class_declaration name: (_) @name) @class
(function_declaration name: (_) @name) @function
(generator_function_declaration name: (_) @name) @function
(method_definition name: (_) @name) @method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) @function
(variable_declarator name: (identifier) @name value: (class)) @class
; \`res.send = function send() {}\` at the top level: methods of CommonJS modules and prototypes, named as written.
(program (expression_statement (assignment_expression left: (member_expression) @name right: [(arrow_function) (function_expression) (generator_function)])) @function)
(program (lexical_declaration (variable_declarator name: (identifier) @name) @variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @variable))
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @variable)))
(program (export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name) @variable)))
`;

const JAVASCRIPT_ONLY = `
(field_definition property: (_) @name) @method.callable
`;

const PYTHON = `
(class_definition name: (identifier) @name) @class
(function_definition name: (identifier) @name) @function
`;

const GO = `
(function_declaration name: (identifier) @name) @function
(method_declaration receiver: (parameter_list) @receiver name: (field_identifier) @name) @method
(type_spec name: (type_identifier) @name type: (struct_type)) @struct
(type_spec name: (type_identifier) @name type: (interface_type)) @interface
(type_spec name: (type_identifier) @name) @type
(type_alias name: (type_identifier) @name) @type
`;

const RUST = `
(function_item name: (identifier) @name) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name) @struct
(union_item name: (type_identifier) @name) @struct
(enum_item name: (type_identifier) @name) @enum
(trait_item name: (type_identifier) @name) @trait
(impl_item type: (_) @name.type) @impl
(mod_item name: (identifier) @name) @module
(type_item name: (type_identifier) @name) @type
(const_item name: (identifier) @name) @variable
(static_item name: (identifier) @name) @variable
(macro_definition name: (identifier) @name) @function
`;

const JAVA = `
(class_declaration name: (identifier) @name) @class
(record_declaration name: (identifier) @name) @class
(interface_declaration name: (identifier) @name) @interface
(annotation_type_declaration name: (identifier) @name) @interface
(enum_declaration name: (identifier) @name) @enum
(method_declaration name: (identifier) @name) @method
(constructor_declaration name: (identifier) @name) @method
`;

const CSHARP = `
(namespace_declaration name: (_) @name) @namespace
(file_scoped_namespace_declaration name: (_) @name) @namespace
(class_declaration name: (identifier) @name) @class
(record_declaration name: (identifier) @name) @class
(struct_declaration name: (identifier) @name) @struct
(interface_declaration name: (identifier) @name) @interface
(enum_declaration name: (identifier) @name) @enum
(delegate_declaration name: (identifier) @name) @type
(method_declaration name: (identifier) @name) @method
(constructor_declaration name: (identifier) @name) @method
(local_function_statement name: (identifier) @name) @function
`;

const C_FAMILY = `
(namespace_definition name: (_) @name) @namespace
(class_specifier name: (_) @name body: (_)) @class
(struct_specifier name: (_) @name body: (_)) @struct
(union_specifier name: (_) @name body: (_)) @struct
(enum_specifier name: (_) @name body: (_)) @enum
(type_definition type: (_) @typedef.type declarator: (type_identifier) @name) @type
(alias_declaration name: (_) @name) @type
(function_definition declarator: (_) @name.declarator) @function
(field_declaration declarator: (_) @name.declarator) @method
(translation_unit (declaration declarator: (_) @name.declarator) @function)
(declaration_list (declaration declarator: (_) @name.declarator) @function)
(linkage_specification body: (declaration declarator: (_) @name.declarator) @function)
(linkage_specification body: (declaration_list (declaration declarator: (_) @name.declarator) @function))
`;

const RUBY = `
(module name: (_) @name) @module
(class name: (_) @name) @class
(method name: (_) @name) @method
(singleton_method name: (_) @name) @method
`;

export const DECLARATION_QUERY: Readonly<Record<LanguageId, string>> = {
  typescript: TYPESCRIPT_ONLY + JAVASCRIPT_FAMILY,
  tsx: TYPESCRIPT_ONLY + JAVASCRIPT_FAMILY,
  javascript: JAVASCRIPT_FAMILY + JAVASCRIPT_ONLY,
  python: PYTHON,
  go: GO,
  rust: RUST,
  java: JAVA,
  csharp: CSHARP,
  c: C_FAMILY,
  cpp: C_FAMILY,
  ruby: RUBY,
};
