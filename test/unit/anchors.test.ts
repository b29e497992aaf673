import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anchorLines } from '../../server/src/anchors/anchorFromText';
import { relocateAnchor } from '../../server/src/anchors/relocateAnchor';
import { shiftSpan, type TextEdit } from '../../server/src/anchors/shiftAnchor';
import type { Anchor } from '../../server/src/memory/types';

const FILE = ['import x', '', 'function query(sql) {', '  return run(sql, params);', '}', '', 'function other() {', '  return 1;', '}', ''].join('\n');
const pinned = (): Anchor => ({ ...anchorLines('src/db.ts', FILE, 2, 4), stale: false });
const edit = (sl: number, sc: number, el: number, ec: number, text: string): TextEdit => ({ range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, text });
const len = (line: number) => FILE.split('\n')[line]?.length ?? 0;

describe('anchors follow the code they pin', () => {
  it('shift with edits above, grow with edits inside, ignore edits below, and are gone when their lines are deleted', () => {
    const span = { start: 2, end: 4 };
    assert.deepEqual(shiftSpan(span, edit(0, 0, 0, 0, 'a\nb\n'), len), { kind: 'moved', span: { start: 4, end: 6 } });
    assert.deepEqual(shiftSpan(span, edit(2, 0, 2, 0, '// note\n'), len), { kind: 'moved', span: { start: 3, end: 5 } });
    assert.deepEqual(shiftSpan(span, edit(3, 5, 3, 5, '\n  more'), len), { kind: 'moved', span: { start: 2, end: 5 } });
    assert.deepEqual(shiftSpan(span, edit(7, 0, 8, 0, ''), len), { kind: 'moved', span });
    assert.deepEqual(shiftSpan(span, edit(2, 0, 5, 0, ''), len), { kind: 'gone' });
    assert.deepEqual(shiftSpan(span, edit(1, 0, 4, 1, ''), len), { kind: 'gone' });
    assert.deepEqual(shiftSpan(span, edit(0, 0, 3, 0, ''), len), { kind: 'moved', span: { start: 0, end: 1 } }, 'the rest of a partly deleted selection stays pinned');
  });

  it('are found again on disk: in place, moved, edited in place; stale when the code is gone, never moved to other code', () => {
    assert.deepEqual(relocateAnchor(pinned(), FILE), pinned());
    const moved = relocateAnchor(pinned(), `// header\n// more\n${FILE}`);
    assert.deepEqual([moved.range.startLine, moved.range.endLine, moved.stale], [4, 6, false]);
    const editedInside = relocateAnchor(pinned(), FILE.replace('  return run(sql, params);', '  const rows = run(sql, params);\n  return rows;'));
    assert.deepEqual([editedInside.range.startLine, editedInside.range.endLine, editedInside.stale], [2, 5, false]);
    assert.notEqual(editedInside.contentHash, pinned().contentHash);
    const gone = relocateAnchor(pinned(), FILE.replace('function query(sql) {\n  return run(sql, params);\n}\n', ''));
    assert.equal(gone.stale, true);
    assert.deepEqual(gone.range, pinned().range, 'a stale anchor keeps its last place');
    assert.equal(relocateAnchor(pinned(), null).stale, true, 'the file was deleted');
    const back = relocateAnchor(gone, FILE);
    assert.equal(back.stale, false, 'code that comes back (an undo, a revert) is found again');
  });

  it('are stale on disk when all that is left between the lines around them is whitespace', () => {
    const blanked = relocateAnchor(pinned(), FILE.replace('function query(sql) {\n  return run(sql, params);\n}', '  '));
    assert.equal(blanked.stale, true);
    assert.deepEqual(blanked.range, pinned().range, 'kept at its last place');
    const emptied = relocateAnchor(pinned(), FILE.replace('function query(sql) {\n  return run(sql, params);\n}', '\t\n   '));
    assert.equal(emptied.stale, true, 'blank lines are no code either');
  });
});
