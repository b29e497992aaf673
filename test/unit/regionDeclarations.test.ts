import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { changedSymbols } from '../../server/src/capture/changedSymbols';
import { diffTexts, type TextDiff } from '../../server/src/capture/diffTexts';
import {
  changedDeclarations,
  declarations,
  fileDeclarations,
  forgetFile,
  languageForPath,
  type ChangedDeclarations,
  type ChangedDeclarationsOptions,
  type Declaration,
  type LanguageId,
  type LineRange,
} from '../../server/src/symbols';
import { balancedAt } from '../../server/src/symbols/lexicalBalance';
import { removalPoints } from '../../server/src/symbols/removalPoints';
import { lineStarts, topLevelRegions } from '../../server/src/symbols/topLevelRegions';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'symbols');

function regionsOf(text: string, ...lines: number[]): LineRange[] {
  return topLevelRegions(text, lineStarts(text), lines.map((line) => ({ startLine: line, endLine: line })));
}

function mustDiff(file: string, before: string, after: string): TextDiff {
  const diff = diffTexts(file, before, after);
  assert.ok(diff, 'expected a change');
  return diff;
}

/**
 * A change's declarations as a cold tag parses them and as a whole-file parse does, reduced to
 * what `changedSymbols` reads: those overlapping the changed lines (a whole-file query also
 * returns some declarations elsewhere, which no name comes from), and the error flags.
 */
async function bothWays(file: string, language: LanguageId, before: string, after: string, options: ChangedDeclarationsOptions = {}): Promise<{ readonly cold: Tagged; readonly whole: Tagged; readonly regionsOnly: boolean }> {
  const diff = mustDiff(file, before, after);
  const tagged = (changed: ChangedDeclarations): Tagged => {
    const starts = diff.newRanges.map((range) => ({ startLine: range.startLine, endLine: range.startLine }));
    return {
      before: overlapping(changed.before, [...diff.oldRanges, ...starts]),
      after: overlapping(changed.after, diff.newRanges),
      beforeHasErrors: changed.beforeHasErrors,
      afterHasErrors: changed.afterHasErrors,
    };
  };
  forgetFile(file);
  const cold = await changedDeclarations(file, language, before, after, diff.oldRanges, diff.newRanges, options);
  forgetFile(file);
  const whole = await changedDeclarations(file, language, before, after, diff.oldRanges, diff.newRanges, { wholeFile: true });
  forgetFile(file);
  return { cold: tagged(cold), whole: tagged(whole), regionsOnly: cold.regionsOnly };
}

interface Tagged {
  readonly before: readonly Declaration[];
  readonly after: readonly Declaration[];
  readonly beforeHasErrors: boolean;
  readonly afterHasErrors: boolean;
}

function overlapping(decls: readonly Declaration[], lines: readonly LineRange[]): Declaration[] {
  return decls.filter((decl) => lines.some((range) => decl.startLine <= range.endLine && range.startLine <= decl.endLine));
}

describe('topLevelRegions', () => {
  const TS = [
    "import { a } from './a';", //                   0
    '', //                                              1
    '/**', //                                           2
    ' * A panel.', //                                   3
    ' */', //                                           4
    '@Component({ selector: "p" })', //                 5
    'export class Panel {', //                          6
    '  render(): void {', //                            7
    '    draw();', //                                   8
    '  }', //                                           9
    '}', //                                             10
    '', //                                              11
    'export function next(): void {}', //               12
    '', //                                              13
  ].join('\n');

  it('takes a change in a method to the whole top-level declaration, with its doc comment and decorator', () => {
    assert.deepEqual(regionsOf(TS, 8), [{ startLine: 2, endLine: 11 }]);
    assert.deepEqual(regionsOf(TS, 5), [{ startLine: 2, endLine: 11 }]);
    assert.deepEqual(regionsOf(TS, 3), [{ startLine: 2, endLine: 11 }]);
  });

  it('starts at the first line and ends at the last', () => {
    assert.deepEqual(regionsOf(TS, 0), [{ startLine: 0, endLine: 1 }]);
    assert.deepEqual(regionsOf(TS, 13), [{ startLine: 12, endLine: 13 }]);
    assert.deepEqual(regionsOf(TS, 40), [{ startLine: 12, endLine: 13 }]);
  });

  it('merges regions that overlap or touch, and keeps apart those that do not', () => {
    assert.deepEqual(regionsOf(TS, 0, 8), [{ startLine: 0, endLine: 11 }]);
    assert.deepEqual(regionsOf(TS, 8, 9, 12), [{ startLine: 2, endLine: 13 }]);
    assert.deepEqual(regionsOf(`${TS}\nconst z = 1;\n\nconst w = 2;\n`, 0, 16), [{ startLine: 0, endLine: 1 }, { startLine: 16, endLine: 17 }]);
  });

  it('keeps Python decorators and column-0 comments with their function, and `else:` with its `if`', () => {
    const python = ['import os', '', '# Loads things.', '@cached', 'def load():', '    return 1', '', 'if os.name:', '    x = 1', 'else:', '    x = 2', ''].join('\n');
    assert.deepEqual(regionsOf(python, 5), [{ startLine: 2, endLine: 6 }]);
    assert.deepEqual(regionsOf(python, 10), [{ startLine: 7, endLine: 11 }]);
  });

  it('keeps a C return type on its own line and a column-0 `{` with the function, and Ruby `end` with its class', () => {
    const c = ['static int', 'count(void)', '{', '  return 1;', '}', '', 'int other(void);', ''].join('\n');
    assert.deepEqual(regionsOf(c, 3), [{ startLine: 0, endLine: 5 }]);
    const ruby = ['class A', '  def b', '    1', '  end', 'end', '', 'def c', 'end', ''].join('\n');
    assert.deepEqual(regionsOf(ruby, 2), [{ startLine: 0, endLine: 5 }]);
  });
});

describe('balancedAt', () => {
  function atLines(text: string, language: LanguageId, ...lines: number[]): boolean {
    const starts = lineStarts(text);
    return balancedAt(text, language, lines.map((line) => starts[line]!));
  }

  it('is true between top-level declarations, one-character literals and escapes included', () => {
    const text = "const open = '{';\nconst quote = '\"';\nconst tick = '`';\nconst s = \"a\\\"b\";\nfunction f() {}\n";
    assert.equal(atLines(text, 'typescript', 0, 1, 2, 3, 4, 5), true);
  });

  it('is false inside brackets, template literals, triple-quoted strings and block comments', () => {
    assert.equal(atLines('function f() {\ncode();\n}\n', 'typescript', 1), false);
    assert.equal(atLines('const s = `\ncode();\n`;\n', 'typescript', 1), false);
    assert.equal(atLines('s = """\ndef f():\n"""\n', 'python', 1), false);
    assert.equal(atLines('/*\nfunction f() {}\n*/\n', 'typescript', 1), false);
    assert.equal(atLines('/*\nfunction f() {}\n*/\nfunction g() {}\n', 'typescript', 3), true);
  });

  it('is false inside a C preprocessor conditional, and true after it', () => {
    const guarded = '#ifndef A_H\n#define A_H\nint f(void);\n  #endif\nint g(void);\n';
    assert.equal(atLines(guarded, 'c', 2), false);
    assert.equal(atLines(guarded, 'c', 4), true);
  });

  it('is false inside a Ruby heredoc or =begin block, and true after them', () => {
    const heredoc = 'x = <<~SQL\nselect a\nSQL\ny = 1\n';
    assert.equal(atLines(heredoc, 'ruby', 1), false);
    assert.equal(atLines(heredoc, 'ruby', 3), true);
    const block = '=begin\ndef f\nend\n=end\ndef g\nend\n';
    assert.equal(atLines(block, 'ruby', 1), false);
    assert.equal(atLines(block, 'ruby', 4), true);
  });
});

describe('removalPoints', () => {
  it('finds where lines were only removed, in the new text, past earlier additions and removals', () => {
    // Old 0-9; line 2 replaced by two lines, lines 5-6 removed, line 8 removed: new lines 0,1,2',2'',3,4,7,9.
    const oldLines = [{ startLine: 2, endLine: 2 }, { startLine: 5, endLine: 6 }, { startLine: 8, endLine: 8 }];
    const newLines = [{ startLine: 2, endLine: 3 }];
    assert.deepEqual(removalPoints(oldLines, newLines), [{ startLine: 5, endLine: 6 }, { startLine: 6, endLine: 7 }]);
    assert.deepEqual(removalPoints([{ startLine: 0, endLine: 0 }], []), [{ startLine: 0, endLine: 0 }]);
    assert.deepEqual(removalPoints([], [{ startLine: 3, endLine: 3 }]), []);
  });
});

const COMMENT: Readonly<Record<LanguageId, string>> = {
  typescript: ' // edit', tsx: ' // edit', javascript: ' // edit', go: ' // edit', rust: ' // edit', java: ' // edit',
  csharp: ' // edit', c: ' // edit', cpp: ' // edit', python: ' # edit', ruby: ' # edit',
};

interface Edit {
  readonly name: string;
  readonly after: string;
}

/** The edits every fixture gets, found from its declarations so they fit each language. */
function fixtureEdits(text: string, language: LanguageId, decls: readonly Declaration[]): Edit[] {
  const lines = text.split('\n');
  const withLines = (change: (copy: string[]) => void): string => {
    const copy = [...lines];
    change(copy);
    return copy.join('\n');
  };
  const comment = (line: number): string => withLines((copy) => (copy[line] = `${copy[line]}${COMMENT[language]}`));
  const callables = decls.filter((decl) => (decl.kind === 'method' || decl.kind === 'function') && !isConstructor(decl));
  const method = callables.find((decl) => decl.name.includes('.') && decl.endLine > decl.startLine) ?? callables.find((decl) => decl.endLine > decl.startLine);
  assert.ok(method, 'fixture has a function spanning lines');
  const topLevel = callables.filter((decl) => !decl.name.includes('.')).at(-1) ?? method;
  let last = lines.length - 1;
  while (last > 0 && lines[last]!.trim() === '') last--;
  const simpleName = method.name.split('.').at(-1)!;
  const edits: Edit[] = [
    { name: 'a line inside a method', after: comment(method.startLine + 1) },
    {
      name: 'an added method',
      after: withLines((copy) => {
        const added = lines.slice(method.startLine, method.endLine + 1).join('\n').replace(new RegExp(`\\b${simpleName}\\b`), `${simpleName}Copy`);
        copy.splice(method.endLine + 1, 0, '', ...added.split('\n'));
      }),
    },
    { name: 'a deleted function', after: withLines((copy) => copy.splice(topLevel.startLine, topLevel.endLine - topLevel.startLine + 1)) },
    { name: 'the first line', after: comment(0) },
    { name: 'the last line', after: comment(last) },
  ];
  const decorator = lines.findIndex((line) => /^\s*(@\w|#\[|\[\w)/.test(line));
  if (decorator !== -1) edits.push({ name: 'a decorator line', after: comment(decorator) });
  return edits;
}

/** A constructor renamed would lose its return type: `Order()` → `OrderCopy()`. */
function isConstructor(decl: Declaration): boolean {
  const parts = decl.name.split('.');
  return parts.length > 1 && parts.at(-1) === parts.at(-2);
}

describe('changedDeclarations without a kept tree', () => {
  const fixtures = readdirSync(FIXTURES).map((file) => {
    const name = file.replace(/\.fixture$/, '');
    return { name, language: languageForPath(name)!, text: readFileSync(path.join(FIXTURES, file), 'utf8') };
  });

  for (const fixture of fixtures) {
    it(`parses only the regions of edits to ${fixture.name} and finds what a whole-file parse finds`, async () => {
      const decls = (await declarations(fixture.text, fixture.language)).declarations;
      for (const edit of fixtureEdits(fixture.text, fixture.language, decls)) {
        const label = `${fixture.name}: ${edit.name}`;
        assert.equal((await declarations(edit.after, fixture.language)).hasErrors, false, `${label} should parse cleanly`);
        // The fixtures are small: their regions are most of the text, so the share limit is lifted.
        const { cold, whole, regionsOnly } = await bothWays(`cold/${fixture.name}`, fixture.language, fixture.text, edit.after, { maxRegionShare: 1 });
        assert.deepEqual(cold, whole, label);
        // C++ fixture namespaces hold unindented declarations: their brackets are open at every region start.
        if (fixture.language !== 'cpp') assert.equal(regionsOnly, true, label);
      }
    });
  }

  it('tags the changes of large files as a file with a kept tree does, and keeps no tree itself', async () => {
    for (const fixture of fixtures) {
      // Blank lines first make the fixture's regions a small share of the text, as in a real file.
      const before = `${'\n'.repeat(fixture.text.length * 2)}${fixture.text}`;
      const decls = (await declarations(before, fixture.language)).declarations;
      for (const edit of fixtureEdits(before, fixture.language, decls)) {
        const label = `${fixture.name}: ${edit.name}`;
        const diff = mustDiff(fixture.name, before, edit.after);
        forgetFile('cold/file');
        const cold = await changedSymbols('cold/file', before, edit.after, diff);
        await fileDeclarations('kept/file', fixture.language, before);
        const kept = await changedSymbols('kept/file', before, edit.after, diff);
        assert.deepEqual(cold, kept, label);
        forgetFile('kept/file');
      }
    }
    const text = `${'\n'.repeat(2000)}export function run() {\n  return 1;\n}\n`;
    const edited = text.replace('return 1', 'return 2');
    const diff = mustDiff('a.ts', text, edited);
    forgetFile('again.ts');
    for (let round = 0; round < 2; round++) {
      const changed = await changedDeclarations('again.ts', 'typescript', text, edited, diff.oldRanges, diff.newRanges);
      assert.equal(changed.regionsOnly, true, 'no tree was kept, so the next change is cold too');
    }
  });

  it('keeps whole-file positions with astral and non-ASCII text before the region', async () => {
    const head = Array.from({ length: 50 }, (_, i) => `export const s${i} = '😀 日本語 é ${i}';\n`).join('');
    const before = `${head}\nexport class Ж {\n  ü(): void {\n    run('🚀');\n  }\n}\n\nexport function z() {}\n`;
    const { cold, whole, regionsOnly } = await bothWays('p/unicode.ts', 'typescript', before, before.replace("run('🚀')", "run('🚀🚀')"));
    assert.equal(regionsOnly, true);
    assert.deepEqual(cold.after, [
      { name: 'Ж', kind: 'class', startLine: 51, endLine: 55 },
      { name: 'Ж.ü', kind: 'method', startLine: 52, endLine: 54 },
    ]);
    assert.deepEqual(cold, whole);
  });

  it('names the declarations after a C# file-scoped namespace by it', async () => {
    const text = 'namespace Shop.Orders;\n\npublic class Order\n{\n    public void Cancel() { }\n}\n\npublic class Other\n{\n    public void Run() { }\n}\n';
    const { cold, whole, regionsOnly } = await bothWays('p/Scoped.cs', 'csharp', text, text.replace('Run() { }', 'Run() { Log(); }'), { maxRegionShare: 1 });
    assert.equal(regionsOnly, true);
    assert.deepEqual(cold.after.map((decl) => decl.name), ['Shop.Orders', 'Shop.Orders.Other', 'Shop.Orders.Other.Run']);
    assert.deepEqual(cold, whole);
  });
});

describe('changedDeclarations falls back to a whole-file parse', () => {
  const cases: readonly { readonly name: string; readonly language: LanguageId; readonly before: string; readonly after: string }[] = [
    {
      name: 'a syntax error in the region (its brackets balance)',
      language: 'typescript',
      before: 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n',
      after: 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2 +;\n}\n',
    },
    {
      name: 'a region inside a Python docstring with column-0 code',
      language: 'python',
      before: 'def helper():\n    """Usage:\n\ndef example():\n    return 1\n\ndef other():\n    pass\n"""\n    return 0\n\n\ndef last():\n    pass\n',
      after: 'def helper():\n    """Usage:\n\ndef example():\n    return 2\n\ndef other():\n    pass\n"""\n    return 0\n\n\ndef last():\n    pass\n',
    },
    {
      name: 'a region inside a template literal with column-0 code',
      language: 'typescript',
      before: 'export const SOURCE = `\nimport { a } from "a";\n\nexport class Inner {\n  run() {\n    return 1;\n  }\n}\n\nexport function other() {}\n`;\n\nexport function outer() {\n  return SOURCE;\n}\n',
      after: 'export const SOURCE = `\nimport { a } from "a";\n\nexport class Inner {\n  run() {\n    return 2;\n  }\n}\n\nexport function other() {}\n`;\n\nexport function outer() {\n  return SOURCE;\n}\n',
    },
    {
      name: 'a region inside a Ruby heredoc',
      language: 'ruby',
      before: 'class Report\n  def sql\n    <<~RUBY\ndef fake\nend\n\ndef other\nend\nRUBY\n  end\nend\n',
      after: 'class Report\n  def sql\n    <<~RUBY\ndef fake\n  1\nend\n\ndef other\nend\nRUBY\n  end\nend\n',
    },
    {
      name: 'a region inside a block comment',
      language: 'javascript',
      before: '/*\nfunction old() {\n  return 1;\n}\n\nfunction older() {}\n*/\n\nfunction current() {\n  return 2;\n}\n',
      after: '/*\nfunction old() {\n  return 3;\n}\n\nfunction older() {}\n*/\n\nfunction current() {\n  return 2;\n}\n',
    },
    {
      name: 'unindented code inside a function',
      language: 'typescript',
      before: 'function outer() {\nif (x) {\ny();\n}\nreturn 1;\n}\n\nfunction next() {}\n',
      after: 'function outer() {\nif (x) {\nz();\n}\nreturn 1;\n}\n\nfunction next() {}\n',
    },
    {
      name: 'a C prototype inside an include guard (the query finds prototypes at the top level only)',
      language: 'c',
      before: '#ifndef LIST_H\n#define LIST_H\n\nint list_len(void);\n\nint list_cap(void);\n\n#endif\n',
      after: '#ifndef LIST_H\n#define LIST_H\n\nint list_len(void);\n\nint list_cap(int);\n\n#endif\n',
    },
    {
      name: 'a C++ namespace with unindented declarations',
      language: 'cpp',
      before: 'namespace a {\n\nvoid f() {\n  g();\n}\n\n}\n',
      after: 'namespace a {\n\nvoid f() {\n  h();\n}\n\n}\n',
    },
    {
      name: 'a removal elsewhere that breaks the syntax',
      language: 'typescript',
      before: 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n',
      after: 'function a() {\n  return 3;\n}\n\nfunction b() {\n  return 2;\n',
    },
  ];

  for (const sample of cases) {
    it(`on ${sample.name}, with the whole-file result`, async () => {
      const { cold, whole, regionsOnly } = await bothWays(`fallback/${sample.name}`, sample.language, sample.before, sample.after, { maxRegionShare: 1 });
      assert.equal(regionsOnly, false);
      assert.deepEqual(cold, whole);
    });
  }

  it('when the regions are most of the file, and then outlines it and keeps the tree for the next change', async () => {
    const before = 'function a() {\n  return 1;\n}\n';
    const after = before.replace('1', '2');
    const diff = mustDiff('small.ts', before, after);
    forgetFile('small.ts');
    assert.equal((await changedDeclarations('small.ts', 'typescript', before, after, diff.oldRanges, diff.newRanges)).regionsOnly, false);
    const again = after.replace('2', '3');
    const next = mustDiff('small.ts', after, again);
    const outlined = await changedDeclarations('small.ts', 'typescript', after, again, next.oldRanges, next.newRanges, { maxRegionShare: 1 });
    assert.equal(outlined.regionsOnly, true, 'the chunk it touches is parsed, from the outline');
    const third = again.replace('3', '4');
    const last = mustDiff('small.ts', again, third);
    const changed = await changedDeclarations('small.ts', 'typescript', again, third, last.oldRanges, last.newRanges);
    assert.equal(changed.regionsOnly, false, 'its chunk is most of the file: the kept tree is reparsed incrementally');
    assert.deepEqual(changed.after, [{ name: 'a', kind: 'function', startLine: 0, endLine: 2 }]);
    forgetFile('small.ts');
  });
});
