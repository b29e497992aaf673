import assert from 'node:assert/strict';
import { seededRandom } from '../support/drawnSecrets';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Tree } from 'web-tree-sitter';
import { changedDeclarations, declarations, fileDeclarations, languageForPath, symbolsForRanges, type Declaration, type LanguageId, type LineRange } from '../../server/src/symbols';
import { declarationsInTree } from '../../server/src/symbols/declarations';
import { parserFor, treeSitterBudgetMs } from '../../server/src/symbols/parser';
import { ParsedFiles } from '../../server/src/symbols/parsedFiles';
import { editBetween } from '../../server/src/symbols/textEdit';

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

  it('names functions assigned to a member at the top level as written, as CommonJS modules declare methods', async () => {
    const text = [
      "var res = Object.create(http.ServerResponse.prototype);",
      'res.send = function send(body) {',
      '  return this.end(body);',
      '};',
      'Router.prototype.route = (path) => new Route(path);',
      'module.exports = res;',
      'function helper() {',
      '  res.inner = function () {};',
      '}',
    ].join('\n');
    const { declarations: found } = await declarations(text, 'javascript');
    assert.deepEqual(found.filter((d) => d.kind === 'function').map((d) => [d.name, d.startLine, d.endLine]), [
      ['res.send', 1, 3],
      ['Router.prototype.route', 4, 4],
      ['helper', 6, 8],
    ]);
  });


  it('takes a class field for a method when its value is a function, and only then', async () => {
    const text = [
      'class Cart {',
      '  count = 0;',
      '  add = (item) => this.items.push(item);',
      '  static create = function () { return new Cart(); };',
      '  label = `cart`;',
      '  walk = function* () {};',
      '}',
    ].join('\n');
    for (const language of ['typescript', 'javascript'] as const) {
      const { declarations: found } = await declarations(text, language);
      assert.deepEqual(found.map((d) => [d.name, d.kind]), [['Cart', 'class'], ['Cart.add', 'method'], ['Cart.create', 'method'], ['Cart.walk', 'method']], language);
    }
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
    // Seeded: unseeded garbage once drove tree-sitter's query over a pathological tree until its
    // wasm memory ran out (226 s, then an abort); capture never parses such text (readCapturable.ts).
    const random = seededRandom(0x6a7b);
    const garbage = Array.from({ length: 64 * 1024 }, () => String.fromCharCode(Math.floor(random() * 256))).join('');
    for (const language of ['typescript', 'python', 'cpp', 'rust'] as const) {
      const parsed = await declarations(garbage, language);
      assert.equal(parsed.hasErrors, true);
    }
  });

  it('stops tree-sitter past its budget: garbage that once parsed for minutes, then a query over a tree too large for it', async () => {
    // Seed 87's 64 KB sends TypeScript's error recovery on for minutes, and the query over the
    // tree it leaves until the wasm memory runs out (found by trying seeds; capture refuses such text).
    const random = seededRandom(87);
    const garbage = Array.from({ length: 64 * 1024 }, () => String.fromCharCode(Math.floor(random() * 256))).join('');
    const started = performance.now();
    assert.deepEqual(await declarations(garbage, 'typescript'), { declarations: [], hasErrors: true });
    const took = performance.now() - started;
    assert.ok(took < 5 * treeSitterBudgetMs(garbage.length), `stopped at its budget (${treeSitterBudgetMs(garbage.length)} ms), took ${took.toFixed(0)} ms`);
    // The cancelled parse is not resumed by the next one.
    const next = await declarations('export class After {\n  run(): void {}\n}\n', 'typescript');
    assert.deepEqual(next.declarations.map((d) => d.name), ['After', 'After.run']);

    const block = 'export class Big {\n  run(x: number): number {\n    return x * 2;\n  }\n}\n\n';
    const text = block.repeat(Math.ceil((1024 * 1024) / block.length));
    const tree = (await parserFor('typescript')).parse(text)!;
    try {
      assert.deepEqual(await declarationsInTree(tree, 'typescript', undefined, 1), { declarations: [], hasErrors: true }, 'a 1 MB tree cannot be queried in 1 ms');
      const whole = await declarationsInTree(tree, 'typescript');
      assert.equal(whole.hasErrors, false);
      assert.equal(whole.declarations.length, (text.match(/class Big/g) ?? []).length * 2, 'the default budget takes in 1 MB of code, the most capture reads');
    } finally {
      tree.delete();
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

/** A seeded generator (mulberry32), so a failing edit sequence can be replayed. */
function randomSource(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

const INSERTS = ['é', '日本語 ', '😀', '\n', '\r\n', '  x = 1;\n', '}', '{\n', '// ünïcödé 🚀\n', 'class Ж {}\n'];

/** A random insertion, deletion or replacement, at the start and end of the text as often as inside it. */
function randomEdit(text: string, random: (below: number) => number): string {
  const at = (): number => {
    const choice = random(4);
    let index = choice === 0 ? 0 : choice === 1 ? text.length : random(text.length + 1);
    // Edits land between characters, never inside a surrogate pair.
    if (index > 0 && index < text.length && /[\udc00-\udfff]/.test(text[index]!)) index--;
    return index;
  };
  const start = at();
  const end = Math.min(text.length, start + (random(3) === 0 ? random(200) : 0));
  const copied = text.slice(at(), at() + random(120)).replace(/^[\udc00-\udfff]|[\ud800-\udbff]$/g, '');
  const inserted = random(3) === 0 ? copied : INSERTS[random(INSERTS.length)]!;
  return text.slice(0, start) + (random(4) === 0 ? '' : inserted) + text.slice(end);
}

function randomLines(text: string, random: (below: number) => number): LineRange[] {
  const lineCount = text.split('\n').length;
  return Array.from({ length: 1 + random(3) }, () => {
    const startLine = random(lineCount);
    return { startLine, endLine: Math.min(lineCount - 1, startLine + random(4)) };
  });
}

const FILE_SCOPED_NAMESPACE = 'namespace Shop.Orders;\n\npublic class Order\n{\n    public void Cancel() { }\n}\n';
const DECORATED = 'export class Panel {\n  @Input()\n  @Output()\n  render(): void {\n    draw();\n  }\n}\n';

describe('changedDeclarations', () => {
  const samples: { readonly name: string; readonly language: LanguageId; readonly text: string }[] = [
    ...readdirSync(FIXTURES).map((file) => {
      const name = file.replace(/\.fixture$/, '');
      return { name, language: languageForPath(name)!, text: readFileSync(path.join(FIXTURES, file), 'utf8') };
    }),
    { name: 'Scoped.cs', language: 'csharp', text: FILE_SCOPED_NAMESPACE },
    { name: 'panel.ts', language: 'typescript', text: DECORATED },
  ];

  for (const sample of samples) {
    it(`parses random edits of ${sample.name} incrementally to the same declarations as a fresh parse`, async () => {
      const random = randomSource(sample.name.length * 7919);
      const filePath = `random/${sample.name}`;
      let before = sample.text;
      await fileDeclarations(filePath, sample.language, before);
      for (let round = 0; round < 25; round++) {
        const after = randomEdit(before, random);
        const oldLines = randomLines(before, random);
        const newLines = randomLines(after, random);
        const changed = await changedDeclarations(filePath, sample.language, before, after, oldLines, newLines);
        const freshBefore = (await declarations(before, sample.language)).declarations;
        const fresh = await declarations(after, sample.language);
        const replay = `${sample.name}, round ${round}`;
        assert.deepEqual(symbolsForRanges(changed.before, oldLines), symbolsForRanges(freshBefore, oldLines), replay);
        assert.deepEqual(symbolsForRanges(changed.after, newLines), symbolsForRanges(fresh.declarations, newLines), replay);
        // The kept tree is the incremental parse; every declaration in it matches the fresh parse.
        assert.deepEqual(await fileDeclarations(filePath, sample.language, after), fresh, replay);
        before = after;
      }
    });
  }

  it('names the method whose decorator line changed, and qualifies members by a file-scoped namespace', async () => {
    const decorated = await changedDeclarations('p/panel.ts', 'typescript', DECORATED, DECORATED.replace('@Input()', '@Input("x")'), [], [{ startLine: 1, endLine: 1 }]);
    assert.deepEqual(symbolsForRanges(decorated.after, [{ startLine: 1, endLine: 1 }]), ['Panel.render']);
    const edited = FILE_SCOPED_NAMESPACE.replace('Cancel() { }', 'Cancel() { Log(); }');
    const scoped = await changedDeclarations('p/Scoped.cs', 'csharp', FILE_SCOPED_NAMESPACE, edited, [], [{ startLine: 4, endLine: 4 }]);
    assert.deepEqual(symbolsForRanges(scoped.after, [{ startLine: 4, endLine: 4 }]), ['Shop.Orders.Order.Cancel']);
  });

  it('parses from scratch when the kept tree is of another language', async () => {
    await fileDeclarations('p/mixed', 'python', 'def run():\n    pass\n');
    const parsed = await fileDeclarations('p/mixed', 'typescript', 'function run() {}\n');
    assert.deepEqual(parsed.declarations.map((decl) => decl.name), ['run']);
    assert.equal(parsed.hasErrors, false);
  });
});

describe('editBetween', () => {
  it('measures an edit in UTF-16 code units, with columns counted from the last newline', () => {
    assert.deepEqual(editBetween('a😀\nbé c', 'a😀\nbé xyz c'), {
      startIndex: 7,
      oldEndIndex: 7,
      newEndIndex: 11,
      startPosition: { row: 1, column: 3 },
      oldEndPosition: { row: 1, column: 3 },
      newEndPosition: { row: 1, column: 7 },
    });
  });

  it('starts an edit at a whole character rather than inside a surrogate pair', () => {
    const edit = editBetween('x😀', 'x😁');
    assert.equal(edit?.startIndex, 1);
    assert.equal(edit?.oldEndIndex, 3);
  });

  it('gives null for equal texts and whole-text edits for a text from or to nothing', () => {
    assert.equal(editBetween('same', 'same'), null);
    assert.deepEqual(editBetween('', 'a\nb'), {
      startIndex: 0, oldEndIndex: 0, newEndIndex: 3,
      startPosition: { row: 0, column: 0 }, oldEndPosition: { row: 0, column: 0 }, newEndPosition: { row: 1, column: 1 },
    });
    assert.equal(editBetween('a\nb', '')?.oldEndPosition.row, 1);
  });
});

describe('ParsedFiles', () => {
  function fakeTree(name: string, deleted: string[]): Tree {
    return { delete: () => deleted.push(name) } as unknown as Tree;
  }

  it('keeps at most its capacity of trees, deleting the least recently kept', () => {
    const deleted: string[] = [];
    const files = new ParsedFiles(2);
    for (const name of ['a', 'b', 'c']) files.put(name, { text: name, language: 'typescript', tree: fakeTree(name, deleted) });
    assert.equal(files.size, 2);
    assert.deepEqual(deleted, ['a']);
    assert.equal(files.take('a'), undefined);
  });

  it('deletes the tree a file had when it is replaced or forgotten', () => {
    const deleted: string[] = [];
    const files = new ParsedFiles(2);
    files.put('a', { text: '1', language: 'typescript', tree: fakeTree('a1', deleted) });
    files.put('a', { text: '2', language: 'typescript', tree: fakeTree('a2', deleted) });
    files.forget('a');
    assert.deepEqual(deleted, ['a1', 'a2']);
    assert.equal(files.size, 0);
  });
});
