import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { declarations, languageForPath, symbolsForRanges, type Declaration } from '../../server/src/symbols';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'symbols');

/** Fixtures are named like the file they stand for plus `.fixture`, so tsc does not compile them. */
async function fixtureDeclarations(fileName: string): Promise<{ readonly declarations: readonly Declaration[]; readonly hasErrors: boolean }> {
  const language = languageForPath(fileName);
  assert.ok(language, `no language for ${fileName}`);
  return declarations(readFileSync(path.join(FIXTURES, `${fileName}.fixture`), 'utf8'), language);
}

async function namesIn(fileName: string): Promise<string[]> {
  const parsed = await fixtureDeclarations(fileName);
  assert.equal(parsed.hasErrors, false, `${fileName} should parse cleanly`);
  return parsed.declarations.map((decl) => decl.name);
}

function lineOf(text: string, needle: string): number {
  const line = text.split('\n').findIndex((candidate) => candidate.includes(needle));
  assert.notEqual(line, -1, `fixture text lacks ${needle}`);
  return line;
}

describe('languageForPath', () => {
  it('recognises each supported language by extension', () => {
    assert.equal(languageForPath('src/a.ts'), 'typescript');
    assert.equal(languageForPath('src/a.d.ts'), 'typescript');
    assert.equal(languageForPath('src/App.tsx'), 'tsx');
    for (const file of ['a.js', 'a.jsx', 'a.mjs', 'a.cjs']) assert.equal(languageForPath(file), 'javascript');
    assert.equal(languageForPath('a.py'), 'python');
    assert.equal(languageForPath('a.go'), 'go');
    assert.equal(languageForPath('a.rs'), 'rust');
    assert.equal(languageForPath('A.java'), 'java');
    assert.equal(languageForPath('A.cs'), 'csharp');
    assert.equal(languageForPath('a.c'), 'c');
    assert.equal(languageForPath('a.h'), 'c');
    assert.equal(languageForPath('a.cpp'), 'cpp');
    assert.equal(languageForPath('a.hpp'), 'cpp');
    assert.equal(languageForPath('a.rb'), 'ruby');
    assert.equal(languageForPath('project/Rakefile'), 'ruby');
  });

  it('returns null for a file it cannot name declarations in', () => {
    assert.equal(languageForPath('README.md'), null);
    assert.equal(languageForPath('style.css'), null);
    assert.equal(languageForPath('Makefile'), null);
    assert.equal(languageForPath('src/main.kt'), null);
  });
});

describe('declarations', () => {
  it('qualifies TypeScript members by their class and namespace, and treats const arrow functions as functions', async () => {
    assert.deepEqual(await namesIn('orders.ts'), [
      'Order',
      'OrderId',
      'Status',
      'OrderService',
      'OrderService.constructor',
      'OrderService.cancel',
      'OrderService.refund',
      'OrderService.handleEvent',
      'Repository',
      'Repository.find',
      'Billing',
      'Billing.invoice',
      'handler',
      'RETRY_LIMIT',
      'helper',
      'helper.inner',
    ]);
    const { declarations: found } = await fixtureDeclarations('orders.ts');
    assert.equal(found.find((decl) => decl.name === 'handler')?.kind, 'function');
    assert.equal(found.find((decl) => decl.name === 'OrderService.cancel')?.kind, 'method');
    assert.equal(found.find((decl) => decl.name === 'Billing')?.kind, 'namespace');
  });

  it('counts a decorator as part of the method it decorates', async () => {
    const { declarations: found } = await fixtureDeclarations('orders.ts');
    const text = readFileSync(path.join(FIXTURES, 'orders.ts.fixture'), 'utf8');
    assert.equal(found.find((decl) => decl.name === 'OrderService.refund')?.startLine, lineOf(text, '@logged'));
  });

  it('finds TSX components and their class methods', async () => {
    assert.deepEqual(await namesIn('view.tsx'), ['Props', 'Header', 'Header.onClick', 'Panel', 'Panel.render']);
  });

  it('finds JavaScript classes, methods, functions and generators', async () => {
    assert.deepEqual(await namesIn('parser.js'), ['Parser', 'Parser.parseExpr', 'Parser.peek', 'Parser.create', 'tokenize', 'format', 'ids']);
  });

  it('qualifies Python methods and nested classes by their class', async () => {
    assert.deepEqual(await namesIn('orders.py'), [
      'OrderService',
      'OrderService.__init__',
      'OrderService.cancel',
      'OrderService.validate',
      'OrderService.Audit',
      'OrderService.Audit.record',
      'main',
      'main.inner',
      'fetch',
    ]);
  });

  it('qualifies Go methods by their receiver type, pointer or not', async () => {
    assert.deepEqual(await namesIn('server.go'), ['Server', 'Handler', 'Port', 'NewServer', 'Server.Start', 'Server.Addr', 'Cache.Get']);
  });

  it('qualifies Rust functions by the type their impl block is for, trait impls included', async () => {
    assert.deepEqual(await namesIn('parser.rs'), [
      'Parser',
      'Token',
      'Visitor',
      'Visitor.visit',
      'Parser',
      'Parser.new',
      'Parser.peek',
      'Parser',
      'Parser.fmt',
      'Stack',
      'Stack.push',
      'lexer',
      'lexer.lex',
      'MAX_DEPTH',
      'main',
    ]);
  });

  it('qualifies Java members by every enclosing class', async () => {
    assert.deepEqual(await namesIn('Orders.java'), [
      'Orders',
      'Orders.Orders',
      'Orders.cancel',
      'Orders.Inner',
      'Orders.Inner.method',
      'Orders.Listener',
      'Orders.Listener.onCancel',
      'Orders.State',
      'Orders.State.isOpen',
      'Point',
    ]);
  });

  it('qualifies C# members by their namespace and enclosing classes', async () => {
    assert.deepEqual(await namesIn('Orders.cs'), [
      'Shop.Orders',
      'Shop.Orders.OrderService',
      'Shop.Orders.OrderService.OrderService',
      'Shop.Orders.OrderService.Cancel',
      'Shop.Orders.OrderService.Inner',
      'Shop.Orders.OrderService.Inner.Method',
      'Shop.Orders.IRepository',
      'Shop.Orders.IRepository.Save',
      'Shop.Orders.Money',
      'Shop.Orders.State',
      'Shop.Orders.Point',
    ]);
  });

  it('qualifies the declarations after a C# file-scoped namespace by it', async () => {
    const parsed = await declarations('namespace Shop.Orders;\n\nclass Cart\n{\n    void Add() { }\n}\n', 'csharp');
    assert.deepEqual(
      parsed.declarations.map((decl) => decl.name),
      ['Shop.Orders', 'Shop.Orders.Cart', 'Shop.Orders.Cart.Add'],
    );
  });

  it('finds C functions, prototypes, structs and typedef-named structs', async () => {
    assert.deepEqual(await namesIn('list.c'), ['List', 'Node', 'Color', 'list_new', 'list_new', 'list_length']);
  });

  it('qualifies C++ members by namespace and class, and out-of-line definitions by their qualifier', async () => {
    assert.deepEqual(await namesIn('shapes.cpp'), [
      'a',
      'a.B',
      'a.B.c',
      'a.B.inlineMethod',
      'a.Box',
      'a.Box.get',
      'a.B.c',
      'geo',
      'geo.detail',
      'geo.detail.area',
      'B.~B',
      'main',
    ]);
  });

  it('qualifies Ruby methods by module and class, including `class A::B`', async () => {
    assert.deepEqual(await namesIn('orders.rb'), [
      'Shop',
      'Shop.Order',
      'Shop.Order.initialize',
      'Shop.Order.cancel',
      'Shop.Order.find',
      'Shop.Billing',
      'Shop.Billing.charge',
      'Shop.Cart',
      'Shop.Cart.total',
      'helper',
    ]);
  });

  it('reports line ranges as 0-based inclusive lines', async () => {
    const parsed = await declarations('\nfunction f() {\n  return 1;\n}\n', 'javascript');
    assert.deepEqual(parsed.declarations, [{ name: 'f', kind: 'function', startLine: 1, endLine: 3 }]);
  });

  it('flags a syntax error and still returns the declarations before it', async () => {
    const text = ['export class Good {', '  ok() {', '    return 1;', '  }', '}', '', 'function fine() {}', '', 'class Broken {', '  bad( {', '    if (', '}', ''].join('\n');
    const parsed = await declarations(text, 'typescript');
    assert.equal(parsed.hasErrors, true);
    const names = parsed.declarations.map((decl) => decl.name);
    for (const name of ['Good', 'Good.ok', 'fine']) assert.ok(names.includes(name), `missing ${name} in ${names.join(', ')}`);
  });

  it('returns nothing, without throwing, for empty text and for binary garbage', async () => {
    assert.deepEqual(await declarations('', 'ruby'), { declarations: [], hasErrors: false });
    const garbage = randomBytes(64 * 1024).toString('latin1');
    for (const language of ['typescript', 'python', 'cpp', 'rust'] as const) {
      const parsed = await declarations(garbage, language);
      assert.equal(parsed.hasErrors, true);
    }
  });

  it('handles a 5 MB file', async () => {
    const block = 'export class Big {\n  run(x: number): number {\n    return x * 2;\n  }\n}\n\n';
    const text = block.repeat(Math.ceil((5 * 1024 * 1024) / block.length));
    const parsed = await declarations(text, 'typescript');
    assert.equal(parsed.hasErrors, false);
    assert.ok(parsed.declarations.length > 100_000);
  });
});

describe('symbolsForRanges', () => {
  const source = [
    'export class OrderService {', // 0
    '  private count = 0;', // 1
    '', // 2
    '  cancel(id: string) {', // 3
    '    this.count--;', // 4
    '  }', // 5
    '', // 6
    '  refund(id: string) {', // 7
    '    this.count++;', // 8
    '  }', // 9
    '}', // 10
    '', // 11
    'export function audit() {', // 12
    '  return 1;', // 13
    '}', // 14
    '', // 15
  ].join('\n');

  async function sourceDeclarations(): Promise<readonly Declaration[]> {
    return (await declarations(source, 'typescript')).declarations;
  }

  it('names only the method an edit inside it touches, not its class', async () => {
    assert.deepEqual(symbolsForRanges(await sourceDeclarations(), [{ startLine: 4, endLine: 4 }]), ['OrderService.cancel']);
  });

  it('names both methods an edit spans', async () => {
    assert.deepEqual(symbolsForRanges(await sourceDeclarations(), [{ startLine: 4, endLine: 8 }]), ['OrderService.cancel', 'OrderService.refund']);
  });

  it('names a whole added function', async () => {
    assert.deepEqual(symbolsForRanges(await sourceDeclarations(), [{ startLine: 11, endLine: 15 }]), ['audit']);
  });

  it('names the class for an edit between its methods', async () => {
    assert.deepEqual(symbolsForRanges(await sourceDeclarations(), [{ startLine: 1, endLine: 1 }]), ['OrderService']);
  });

  it('names nothing for an edit between top-level declarations', async () => {
    assert.deepEqual(symbolsForRanges(await sourceDeclarations(), [{ startLine: 11, endLine: 11 }]), []);
  });

  it('deduplicates names and returns them in source order across ranges', async () => {
    const ranges = [
      { startLine: 13, endLine: 13 },
      { startLine: 4, endLine: 4 },
      { startLine: 5, endLine: 5 },
    ];
    assert.deepEqual(symbolsForRanges(await sourceDeclarations(), ranges), ['OrderService.cancel', 'audit']);
  });
});
