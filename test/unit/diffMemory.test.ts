import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { changedSymbols } from '../../server/src/capture/changedSymbols';
import { diffTexts, MAX_PATCH_BYTES, type TextDiff } from '../../server/src/capture/diffTexts';
import { diffTitle } from '../../server/src/capture/diffTitle';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'symbols');

function mustDiff(file: string, before: string | null, after: string | null, options?: Parameters<typeof diffTexts>[3]): TextDiff {
  const diff = diffTexts(file, before, after, options);
  assert.ok(diff, 'expected a change');
  return diff;
}

function numbered(count: number, label = 'line'): string[] {
  return Array.from({ length: count }, (_, index) => `${label} ${index}`);
}

/** `text` with the line containing `needle` replaced by `replacement`. */
function replaceLine(text: string, needle: string, replacement: string): string {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.includes(needle));
  assert.notEqual(index, -1, `text lacks ${needle}`);
  lines[index] = replacement;
  return lines.join('\n');
}

async function symbolsOfChange(file: string, before: string | null, after: string | null): Promise<string[]> {
  const errors: Error[] = [];
  const names = await changedSymbols(file, before, after, mustDiff(file, before, after), (error) => errors.push(error));
  assert.deepEqual(errors, []);
  return names;
}

describe('diffTexts', () => {
  it('returns null when the texts are equal', () => {
    assert.equal(diffTexts('a.ts', 'x\ny\n', 'x\ny\n'), null);
    assert.equal(diffTexts('a.ts', null, null), null);
  });

  it('gives a one-line edit as one hunk with its context, +1 −1 and the changed line in both texts', () => {
    const before = `${numbered(10).join('\n')}\n`;
    const after = before.replace('line 5\n', 'line five\n');
    const diff = mustDiff('src/a.ts', before, after);
    assert.deepEqual(diff.hunks, [
      {
        oldStart: 3,
        oldLines: 7,
        newStart: 3,
        newLines: 7,
        lines: [' line 2', ' line 3', ' line 4', '-line 5', '+line five', ' line 6', ' line 7', ' line 8'],
      },
    ]);
    assert.equal(diff.added, 1);
    assert.equal(diff.removed, 1);
    assert.deepEqual(diff.newRanges, [{ startLine: 5, endLine: 5 }]);
    assert.deepEqual(diff.oldRanges, [{ startLine: 5, endLine: 5 }]);
    assert.equal(diff.truncated, false);
    assert.equal(diff.lineEndingsOnly, false);
    assert.equal(
      diff.patch,
      ['--- a/src/a.ts', '+++ b/src/a.ts', '@@ -3,7 +3,7 @@', ' line 2', ' line 3', ' line 4', '-line 5', '+line five', ' line 6', ' line 7', ' line 8', ''].join('\n'),
    );
  });

  it('honours a smaller context', () => {
    const diff = mustDiff('a.ts', 'a\nb\nc\n', 'a\nB\nc\n', { context: 0 });
    assert.deepEqual(diff.hunks[0]?.lines, ['-b', '+B']);
  });

  it('merges adjacent changed lines into one range and keeps separate edits apart', () => {
    const lines = numbered(40);
    const edited = [...lines];
    edited[3] = 'x';
    edited[4] = 'y';
    edited[30] = 'z';
    const diff = mustDiff('a.ts', lines.join('\n'), edited.join('\n'));
    assert.equal(diff.hunks.length, 2);
    assert.deepEqual(diff.newRanges, [
      { startLine: 3, endLine: 4 },
      { startLine: 30, endLine: 30 },
    ]);
    assert.deepEqual(diff.oldRanges, diff.newRanges);
  });

  it('records a created file as every line added, against /dev/null', () => {
    const diff = mustDiff('src/util.ts', null, 'a\nb\nc\n');
    assert.equal(diff.added, 3);
    assert.equal(diff.removed, 0);
    assert.deepEqual(diff.newRanges, [{ startLine: 0, endLine: 2 }]);
    assert.deepEqual(diff.oldRanges, []);
    assert.ok(diff.patch.startsWith('--- /dev/null\n+++ b/src/util.ts\n@@ -0,0 +1,3 @@\n+a\n'));
  });

  it('records a deleted file as every line removed, against /dev/null', () => {
    const diff = mustDiff('src/old.ts', 'a\nb\n', null);
    assert.equal(diff.added, 0);
    assert.equal(diff.removed, 2);
    assert.deepEqual(diff.oldRanges, [{ startLine: 0, endLine: 1 }]);
    assert.deepEqual(diff.newRanges, []);
    assert.ok(diff.patch.startsWith('--- a/src/old.ts\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n'));
  });

  it('records an empty file created as a change of no lines', () => {
    const diff = mustDiff('empty.ts', null, '');
    assert.equal(diff.added, 0);
    assert.deepEqual(diff.hunks, []);
  });

  it('reports a CRLF to LF conversion as a change of every line, flagged as line endings only', () => {
    const diff = mustDiff('a.ts', 'x\r\ny\r\n', 'x\ny\n');
    assert.equal(diff.added, 2);
    assert.equal(diff.removed, 2);
    assert.equal(diff.lineEndingsOnly, true);
    assert.deepEqual(diff.hunks[0]?.lines, ['-x\r', '-y\r', '+x', '+y']);
  });

  it('marks a last line without a newline and does not count the marker', () => {
    const diff = mustDiff('a.ts', 'x\ny', 'x\nz');
    assert.deepEqual(diff.hunks[0]?.lines, [' x', '-y', '\\ No newline at end of file', '+z', '\\ No newline at end of file']);
    assert.equal(diff.added, 1);
    assert.equal(diff.removed, 1);
    assert.deepEqual(diff.newRanges, [{ startLine: 1, endLine: 1 }]);
  });

  it('reports adding the final newline as a change of the last line', () => {
    const diff = mustDiff('a.ts', 'x\ny', 'x\ny\n');
    assert.equal(diff.added, 1);
    assert.equal(diff.removed, 1);
    assert.equal(diff.lineEndingsOnly, false);
  });
});

describe('the patch cap', () => {
  it('keeps a 2 MB rewrite under 64 KiB plus a footer, with exact counts and ranges', () => {
    const before = `${numbered(30_000, 'old line with some padding to make it longer').join('\n')}\n`;
    const after = `${numbered(30_000, 'new line with some padding to make it longer').join('\n')}\n`;
    assert.ok(before.length + after.length > 2_000_000);
    const diff = mustDiff('big.txt', before, after);
    assert.equal(diff.truncated, true);
    assert.equal(diff.added, 30_000);
    assert.equal(diff.removed, 30_000);
    assert.deepEqual(diff.newRanges, [{ startLine: 0, endLine: 29_999 }]);
    assert.deepEqual(diff.oldRanges, [{ startLine: 0, endLine: 29_999 }]);
    const lines = diff.patch.split('\n');
    const footer = lines.at(-2) ?? '';
    assert.match(footer, /^… \d+ more lines in 1 more hunk not kept \(patch capped at 64 KiB\)$/);
    const body = diff.patch.slice(0, diff.patch.length - footer.length - 1);
    assert.ok(Buffer.byteLength(body) <= MAX_PATCH_BYTES, `${Buffer.byteLength(body)} bytes kept`);
    assert.ok(Buffer.byteLength(body) > MAX_PATCH_BYTES - 200, 'fills the cap');
    const keptLines = lines.filter((line) => line.startsWith('-') || line.startsWith('+') || line.startsWith(' ')).length - 2;
    assert.equal(Number(/^… (\d+)/.exec(footer)?.[1]) + keptLines, 60_000);
  });

  it('keeps whole hunks from the start and counts the hunks it leaves out', () => {
    const lines = numbered(1_000);
    const edited = lines.map((line, index) => (index % 100 === 50 ? `${line} edited` : line));
    const diff = mustDiff('a.txt', lines.join('\n'), edited.join('\n'), { maxPatchBytes: 600 });
    assert.equal(diff.hunks.length, 10);
    assert.equal(diff.added, 10);
    assert.equal(diff.truncated, true);
    const headers = diff.patch.split('\n').filter((line) => line.startsWith('@@'));
    assert.ok(headers.length >= 1 && headers.length < 10);
    const left = 10 - headers.length;
    assert.ok(diff.patch.endsWith(`… ${left * 8} more lines in ${left} more hunks not kept (patch capped at 600 bytes)\n`), diff.patch);
  });

  it('cuts a single line longer than the cap', () => {
    const diff = mustDiff('min.js', null, `${'é'.repeat(100_000)}\n`);
    assert.equal(diff.truncated, true);
    const [, , header, cut, footer] = diff.patch.split('\n');
    assert.equal(header, '@@ -0,0 +1,1 @@');
    assert.ok(cut?.startsWith('+éé'));
    assert.ok(!cut?.includes('\uFFFD'));
    assert.equal(footer, '… 0 more lines in 1 more hunk not kept (patch capped at 64 KiB)');
  });

  it('gives up on a minimal diff of a huge rewrite quickly, and still reports the lines between the common head and tail', () => {
    const common = numbered(100, 'kept');
    const before = [...common, ...numbered(3_000, 'old'), ...common].join('\n');
    const after = [...common, ...numbered(3_000, 'new'), ...common].join('\n');
    const started = performance.now();
    const diff = mustDiff('a.txt', before, after, { maxPatchBytes: 1_000_000 });
    assert.ok(performance.now() - started < 5_000);
    assert.equal(diff.added, 3_000);
    assert.equal(diff.removed, 3_000);
    assert.deepEqual(diff.newRanges, [{ startLine: 100, endLine: 3_099 }]);
    assert.equal(diff.hunks[0]?.oldStart, 98);
    assert.equal(diff.hunks[0]?.lines[0], ' kept 97');
    assert.equal(diff.hunks[0]?.lines.at(-1), ' kept 2');
    assert.equal(diff.hunks[0]?.lines.at(-1 - 3), '+new 2999');
  });

  it('prints timing', () => {
    const lines = numbered(5_000);
    const edited = [...lines];
    edited.splice(2_500, 3, 'one', 'two', 'three');
    const before = lines.join('\n');
    const after = edited.join('\n');
    diffTexts('warm.ts', before, after);
    const started = performance.now();
    const diff = mustDiff('a.ts', before, after);
    const elapsed = performance.now() - started;
    assert.equal(diff.added, 3);
    console.log(`diffTexts: 3-line edit in a 5,000-line file took ${elapsed.toFixed(2)} ms`);
  });
});

describe('diffTitle', () => {
  it('names the edited symbols before the counts and the file after them', () => {
    assert.equal(diffTitle('edited', 'src/parser.ts', ['Parser.parseExpr', 'Parser.peek'], 12, 3), 'Edited Parser.parseExpr, Parser.peek (+12 −3) in src/parser.ts');
  });

  it('gives a created or deleted file its size after the path', () => {
    assert.equal(diffTitle('created', 'src/util.ts', [], 40, 0), 'Created src/util.ts (+40)');
    assert.equal(diffTitle('deleted', 'src/old.ts', [], 0, 120), 'Deleted src/old.ts (−120)');
    assert.equal(diffTitle('created', 'src/a.ts', ['greet', 'Greeter'], 10, 0), 'Created greet, Greeter in src/a.ts (+10)');
  });

  it('names three symbols and counts the rest', () => {
    assert.equal(diffTitle('edited', 'x.ts', ['a', 'b', 'c', 'd', 'e', 'f', 'g'], 1, 1), 'Edited a, b, c and 4 more (+1 −1) in x.ts');
    assert.equal(diffTitle('edited', 'x.ts', ['a', 'b', 'c'], 1, 1), 'Edited a, b, c (+1 −1) in x.ts');
  });

  it('names only the file when no symbol was touched', () => {
    assert.equal(diffTitle('edited', 'src/x.ts', [], 1, 1), 'Edited src/x.ts (+1 −1)');
  });

  it('uses the minus sign U+2212 and gives the same title every time', () => {
    const title = diffTitle('edited', 'src/x.ts', ['a'], 2, 5);
    assert.ok(title.includes('\u2212'));
    assert.ok(!title.includes('-'));
    assert.equal(diffTitle('edited', 'src/x.ts', ['a'], 2, 5), title);
  });
});

const PARSER_TS = `export class Parser {
  private position = 0;

  parseExpr(): number {
    const left = this.peek();
    return left;
  }

  peek(): number {
    return this.position;
  }
}

export function helper(): number {
  return 1;
}
`;

describe('changedSymbols', () => {
  it('names the method an edit falls inside', async () => {
    const after = replaceLine(PARSER_TS, 'const left', '    const left = this.peek() + 1;');
    assert.deepEqual(await symbolsOfChange('src/parser.ts', PARSER_TS, after), ['Parser.parseExpr']);
  });

  it('names both methods when two are edited', async () => {
    let after = replaceLine(PARSER_TS, 'const left', '    const left = this.peek() + 1;');
    after = replaceLine(after, 'return this.position', '    return this.position + 1;');
    assert.deepEqual(await symbolsOfChange('src/parser.ts', PARSER_TS, after), ['Parser.parseExpr', 'Parser.peek']);
  });

  it('names a function that was added', async () => {
    const after = `${PARSER_TS}\nexport function greet(name: string): string {\n  return name;\n}\n`;
    assert.deepEqual(await symbolsOfChange('src/parser.ts', PARSER_TS, after), ['greet']);
  });

  it('names a function that was deleted, from the old text', async () => {
    const after = PARSER_TS.replace(/\nexport function helper[\s\S]*$/, '');
    assert.deepEqual(await symbolsOfChange('src/parser.ts', PARSER_TS, after), ['helper']);
  });

  it('names a method that only lost lines', async () => {
    const after = PARSER_TS.replace('    const left = this.peek();\n', '');
    assert.deepEqual(await symbolsOfChange('src/parser.ts', PARSER_TS, after), ['Parser.parseExpr']);
  });

  it('names a created or deleted file by its top-level declarations', async () => {
    assert.deepEqual(await symbolsOfChange('src/parser.ts', null, PARSER_TS), ['Parser', 'helper']);
    assert.deepEqual(await symbolsOfChange('src/parser.ts', PARSER_TS, null), ['Parser', 'helper']);
  });

  it('names a Python method an edit falls inside', async () => {
    const before = readFileSync(path.join(FIXTURES, 'orders.py.fixture'), 'utf8');
    const after = replaceLine(before, 'self.db.run("cancel"', '        self.db.run("cancel", order_id, reason)');
    assert.deepEqual(await symbolsOfChange('app/orders.py', before, after), ['OrderService.cancel']);
  });

  it('names each of a run of saves of one file as a first sight of it would, non-ASCII text included', async () => {
    const saves = [
      replaceLine(PARSER_TS, 'const left', '    const left = this.peek(); // größer 😀'),
      `// 日本語 header\n${PARSER_TS}`,
      `// 日本語 header\n${PARSER_TS}\nexport function tail(): void {}\n`,
      PARSER_TS.replace('    const left = this.peek();\n', ''),
    ];
    let before = PARSER_TS;
    for (const after of saves) {
      // A second path has no kept tree, so it parses both texts from scratch.
      const firstSight = `src/fresh-${saves.indexOf(after)}.ts`;
      assert.deepEqual(await symbolsOfChange('src/saved.ts', before, after), await symbolsOfChange(firstSight, before, after));
      before = after;
    }
  });

  it('names a change correctly when the file changed since its last save was seen', async () => {
    await symbolsOfChange('src/outside.ts', PARSER_TS, `${PARSER_TS}\n// saved\n`);
    const changedOutside = replaceLine(PARSER_TS, 'return this.position', '    return this.position + 2;');
    const after = replaceLine(changedOutside, 'const left', '    const left = this.peek() + 1;');
    assert.deepEqual(await symbolsOfChange('src/outside.ts', changedOutside, after), ['Parser.parseExpr']);
  });

  it('names nothing in a file without a grammar', async () => {
    assert.deepEqual(await symbolsOfChange('README.md', '# Title\n', '# Title\n\nMore.\n'), []);
  });
});

describe('symbols of a change that leaves the code unparsable', () => {
  const good = ['export class Parser {', '  parseExpr(input: string) {', '    return input.trim();', '  }', '', '  peek() {', '    return 0;', '  }', '}', ''].join('\n');

  it('falls back to the last good parse: the declaration where the change starts', async () => {
    // Mid-edit: an unclosed call inside parseExpr breaks the rest of the class.
    const broken = good.replace('    return input.trim();', '    return input.trim(');
    const diff = diffTexts('src/fallback.ts', good, broken)!;
    assert.deepEqual(await changedSymbols('src/fallback.ts', good, broken, diff), ['Parser.parseExpr']);
  });

  it('names the declaration that lost lines when a deletion breaks the syntax', async () => {
    const broken = good.replace('    return input.trim();\n  }\n', '    return input.trim();\n');
    const diff = diffTexts('src/dropped.ts', good, broken)!;
    assert.deepEqual(await changedSymbols('src/dropped.ts', good, broken, diff), ['Parser.parseExpr']);
  });

  it('tags at file level when no version parses', async () => {
    const bad = 'export class {{{ (( \n';
    const worse = 'export class {{{ (( ))\n';
    const diff = diffTexts('src/never.ts', bad, worse)!;
    assert.deepEqual(await changedSymbols('src/never.ts', bad, worse, diff), []);
  });
});
