import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { anchorLines } from '../../server/src/anchors/anchorFromText';
import { relocateAnchor } from '../../server/src/anchors/relocateAnchor';
import { ChangeRecorder } from '../../server/src/capture/recordChange';
import type { Memory } from '../../server/src/memory/types';
import { openProject } from '../../server/src/project';
import { declarations, fileDeclarations, forgetFile, languageForPath, type Declaration } from '../../server/src/symbols';
import { tempDir } from '../support/tempDirs';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'symbols');

/** Every symbols fixture: a file in each language Engram tags. */
const SOURCES = readdirSync(FIXTURES).map((file) => {
  const name = file.replace(/\.fixture$/, '');
  return { name, language: languageForPath(name)!, text: readFileSync(path.join(FIXTURES, file), 'utf8') };
});

function withCrlf(text: string): string {
  return text.replace(/\n/g, '\r\n');
}

/** The line ending a text uses (the first one): CRLF texts are edited with CRLF. */
function eol(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** A line inserted into the first declaration long enough to hold one, so the edit has a symbol to name. */
function insertIntoDeclaration(text: string, decls: readonly Declaration[]): string {
  const target = [...decls].reverse().find((d) => d.endLine - d.startLine >= 2);
  assert.ok(target, 'the fixture has a declaration of three lines or more');
  const lines = text.split(eol(text));
  lines.splice(target.startLine + 1, 0, '  // reviewed: keep in step with the schema');
  return lines.join(eol(text));
}

/** What a diff memory says, without what differs between two databases (ids, times). */
function essentials(memory: Memory) {
  const meta = memory.meta as { added: number; removed: number; lines: unknown; lineEndingsOnly: boolean };
  return { title: memory.title, patch: memory.body, files: memory.files, symbols: memory.symbols, added: meta.added, removed: meta.removed, lines: meta.lines, lineEndingsOnly: meta.lineEndingsOnly };
}

/**
 * The memory a save of `after` over `before` makes, in a fresh project. `warm`: the file was open
 * in the editor first (its tree kept, the change parsed incrementally); else only the regions
 * around the change are parsed.
 */
async function savedChange(file: string, before: string, after: string, warm: boolean): Promise<Memory> {
  const project = openProject(path.join(tempDir(), 'p'), { ...process.env, ENGRAM_HOME: tempDir() });
  try {
    forgetFile(file);
    if (warm) await fileDeclarations(file, languageForPath(file)!, before);
    const recorder = new ChangeRecorder(project);
    recorder.baseline(file, before, { size: before.length, mtimeMs: 1 });
    const outcome = await recorder.record(file, after, 'editor', { size: after.length, mtimeMs: 2 });
    assert.equal(outcome.kind, 'recorded');
    return (outcome as Extract<typeof outcome, { kind: 'recorded' }>).memory;
  } finally {
    forgetFile(file);
    project.close();
  }
}

describe('a file with CRLF line endings is remembered as the same file with LF endings', () => {
  it('tags the same declarations, with the same names and lines, in every language', async () => {
    for (const source of SOURCES) {
      const lf = await declarations(source.text, source.language);
      const crlf = await declarations(withCrlf(source.text), source.language);
      assert.ok(lf.declarations.length > 0, source.name);
      assert.deepEqual(crlf, lf, source.name);
    }
  });

  it('records the same edit as the same diff memory: title, patch, counts, changed lines and symbols', async () => {
    for (const source of SOURCES) {
      const before = source.text;
      const after = insertIntoDeclaration(before, (await declarations(before, source.language)).declarations);
      for (const warm of [false, true]) {
        const lf = essentials(await savedChange(`src/${source.name}`, before, after, warm));
        const crlf = essentials(await savedChange(`src/${source.name}`, withCrlf(before), withCrlf(after), warm));
        const label = `${source.name}${warm ? ' (open in the editor)' : ''}`;
        assert.ok(lf.symbols.length > 0, `${label}: the edit is inside a declaration`);
        assert.equal(lf.added, 1, label);
        assert.doesNotMatch(crlf.patch, /\r/, `${label}: no carriage returns in the patch`);
        assert.deepEqual(crlf, lf, label);
      }
    }
  });

  it('still records a conversion of the line endings alone, as a change of every line flagged as such', async () => {
    const source = SOURCES.find((s) => s.name === 'orders.py')!;
    const memory = essentials(await savedChange('src/orders.py', source.text, withCrlf(source.text), false));
    const lines = source.text.split('\n').length - 1;
    assert.equal(memory.lineEndingsOnly, true);
    assert.equal(memory.added, lines);
    assert.equal(memory.removed, lines);
  });

  it('pins the same lines with the same hash and surrounding lines', () => {
    const text = SOURCES.find((s) => s.name === 'orders.ts')!.text;
    assert.deepEqual(anchorLines('src/orders.ts', withCrlf(text), 16, 18), anchorLines('src/orders.ts', text, 16, 18));
  });

  it('finds pinned code again across a conversion of the line endings, and after lines are added above it', () => {
    const text = SOURCES.find((s) => s.name === 'orders.ts')!.text;
    const pinned = { ...anchorLines('src/orders.ts', text, 16, 18), stale: false };
    assert.deepEqual(relocateAnchor(pinned, withCrlf(text)), pinned, 'converted: in place, not stale');
    const twoAbove = `// a\n// b\n${text}`;
    const movedInLf = relocateAnchor(pinned, twoAbove);
    const movedInCrlf = relocateAnchor(pinned, withCrlf(twoAbove));
    assert.equal(movedInLf.range.startLine, 18);
    assert.equal(movedInLf.stale, false);
    assert.deepEqual(movedInCrlf, movedInLf);
  });
});
