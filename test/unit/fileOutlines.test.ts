import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { diffTexts } from '../../server/src/capture/diffTexts';
import { changedDeclarations, forgetFile, languageForPath, symbolsForRanges, type Declaration, type LanguageId } from '../../server/src/symbols';
import { declarationsInTree } from '../../server/src/symbols/declarations';
import { nextOutline, outlineOf, outlinesApply, type FileOutline } from '../../server/src/symbols/fileOutlines';
import { parserFor } from '../../server/src/symbols/parser';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'symbols');

const COMMENT: Readonly<Record<LanguageId, string>> = {
  typescript: ' // edit', tsx: ' // edit', javascript: ' // edit', go: ' // edit', rust: ' // edit', java: ' // edit',
  csharp: ' // edit', c: ' // edit', cpp: ' // edit', python: ' # edit', ruby: ' # edit',
};

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

/** A whole parse of `text`: its outline, or null when it has syntax errors. */
async function wholeOutline(text: string, language: LanguageId): Promise<FileOutline | null> {
  const tree = (await parserFor(language)).parse(text)!;
  try {
    return outlineOf(tree, text, language, (await declarationsInTree(tree, language)).declarations);
  } finally {
    tree.delete();
  }
}

/** One random edit of the kinds an agent makes: a changed line, a blank line, a renamed, removed or copied declaration. */
function randomEdit(text: string, language: LanguageId, decls: readonly Declaration[], pick: (n: number) => number): string {
  const lines = text.split('\n');
  const decl = decls.length ? decls[pick(decls.length)]! : undefined;
  switch (pick(5)) {
    case 0: {
      const line = pick(lines.length);
      if (lines[line]!.trim()) lines[line] = `${lines[line]}${COMMENT[language]}`;
      break;
    }
    case 1:
      lines.splice(pick(lines.length + 1), 0, '');
      break;
    case 2:
      if (decl) {
        const simple = decl.name.split('.').at(-1)!;
        lines[decl.startLine] = lines[decl.startLine]!.replace(new RegExp(`\\b${simple}\\b`), `${simple}Z`);
      }
      break;
    case 3:
      if (decl && !decl.name.includes('.')) lines.splice(decl.startLine, decl.endLine - decl.startLine + 1);
      break;
    default:
      if (decl && !decl.name.includes('.')) {
        const simple = decl.name.split('.').at(-1)!;
        const copy = lines.slice(decl.startLine, decl.endLine + 1).join('\n').replace(new RegExp(`\\b${simple}\\b`), `${simple}Copy${pick(1000)}`);
        lines.splice(decl.endLine + 1, 0, '', ...copy.split('\n'));
      }
  }
  return lines.join('\n');
}

describe('file outlines', () => {
  const fixtures = readdirSync(FIXTURES).map((file) => {
    const name = file.replace(/\.fixture$/, '');
    return { name, language: languageForPath(name)!, text: readFileSync(path.join(FIXTURES, file), 'utf8') };
  });

  for (const fixture of fixtures.filter((f) => outlinesApply(f.language))) {
    it(`follow 40 consecutive edits of ${fixture.name} with the declarations and chunks a whole-file parse finds`, async () => {
      const parser = await parserFor(fixture.language);
      const pick = random(fixture.name.length * 7919);
      let outline = await wholeOutline(fixture.text, fixture.language);
      assert.ok(outline, `${fixture.name} parses cleanly`);
      let followed = 0;
      for (let step = 0; step < 40; step++) {
        const after = randomEdit(outline.text, fixture.language, outline.declarations, pick);
        const whole = await wholeOutline(after, fixture.language);
        // An edit that breaks the syntax is not one to follow: the caller parses the whole file then.
        if (!whole) continue;
        const next = await nextOutline(parser, outline, after, 1);
        if (next) {
          followed++;
          assert.deepEqual(next.declarations, whole.declarations, `${fixture.name}, step ${step}`);
          assert.deepEqual(next.chunks, whole.chunks, `${fixture.name}, step ${step}`);
        }
        outline = next ?? whole;
      }
      assert.ok(followed >= 20, `${fixture.name}: ${followed} of 40 edits followed from the outline`);
    });
  }

  it('parse again the statement before a change, which the change may continue', async () => {
    // Without a semicolon, `(c)` on a later line calls `b`: the declaration of `a` now ends there.
    const text = 'const a = b\n\nc();\n\nfunction g() {}\n';
    const after = text.replace('c();', '(c)');
    const next = await nextOutline(await parserFor('typescript'), (await wholeOutline(text, 'typescript'))!, after, 1);
    assert.ok(next);
    assert.deepEqual(next.declarations, (await wholeOutline(after, 'typescript'))!.declarations);
    assert.deepEqual(next.declarations[0], { name: 'a', kind: 'variable', startLine: 0, endLine: 2 });
  });

  it('do not follow a change whose chunks no longer parse on their own (an opened block comment)', async () => {
    const text = 'const a = 1;\n\nfunction f() {\n  return a;\n}\n\nfunction g() {\n  return 2;\n}\n';
    const outline = (await wholeOutline(text, 'typescript'))!;
    const opened = text.replace('function f', '/*\nfunction f');
    assert.equal(await nextOutline(await parserFor('typescript'), outline, opened, 1), null);
  });

  it('tag each edit of a file whose top-level code is indented from the outline, as a whole-file parse does', async () => {
    // Indented top-level statements: their regions cannot be found from the text (every line looks
    // like the inside of something), so the first change parses the file whole and outlines it.
    const lines = Array.from({ length: 30 }, (_, n) => `  const value${n} = await load${n % 4}(id, { attempt: ${n} });`);
    const file = 'outlined/module.ts';
    forgetFile(file);
    let text = `${lines.join('\n')}\n`;
    const pick = random(42);
    for (let step = 0; step < 30; step++) {
      const at = pick(lines.length);
      lines[at] = `  const renamed${step} = await save(id, { attempt: ${step} });`;
      const after = `${lines.join('\n')}\n`;
      const diff = diffTexts(file, text, after)!;
      const changed = await changedDeclarations(file, 'typescript', text, after, diff.oldRanges, diff.newRanges);
      if (step > 0) assert.equal(changed.regionsOnly, true, `step ${step} is parsed from the outline`);
      forgetFile('whole/module.ts');
      const whole = await changedDeclarations('whole/module.ts', 'typescript', text, after, diff.oldRanges, diff.newRanges, { wholeFile: true });
      assert.deepEqual(symbolsForRanges(changed.after, diff.newRanges), symbolsForRanges(whole.after, diff.newRanges), `step ${step}`);
      assert.deepEqual(symbolsForRanges(changed.before, diff.oldRanges), symbolsForRanges(whole.before, diff.oldRanges), `step ${step}`);
      text = after;
    }
    forgetFile(file);
  });
});
