import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffTexts } from '../../server/src/capture/diffTexts';
import { HUNK_GAP, patchSides } from '../../server/src/lsp/patchSides';

const lines = (n: number, change: (i: number) => string = (i) => `line ${i}`) => Array.from({ length: n }, (_, i) => change(i)).join('\n') + '\n';

describe('the two sides of a diff memory, for the diff editor', () => {
  const before = lines(40);
  const after = lines(40, (i) => (i === 5 ? 'line 5 changed' : i === 30 ? 'line 30 changed' : `line ${i}`));
  const patch = diffTexts('src/a.ts', before, after)!.patch;

  it('reverses the change out of the file as it is now, so the whole file is shown', () => {
    assert.deepEqual(patchSides(patch, after, false), { before, after, extent: 'file' });
  });

  it('still shows the change in the whole file when other lines changed since', () => {
    const later = after.replace('line 20\n', 'line 20, edited later\n');
    const sides = patchSides(patch, later, false)!;
    assert.equal(sides.extent, 'file');
    assert.equal(sides.after, later);
    assert.equal(sides.before, before.replace('line 20\n', 'line 20, edited later\n'));
  });

  it('falls back to the changed lines when the file moved on or is gone', () => {
    const moved = after.replace('line 5 changed', 'line 5 rewritten again');
    for (const current of [moved, null]) {
      const sides = patchSides(patch, current, false)!;
      assert.equal(sides.extent, 'hunks');
      assert.match(sides.before, new RegExp(`line 5\\n[^]*${HUNK_GAP}\\n[^]*line 30\\n`));
      assert.match(sides.after, /line 5 changed\n[^]*line 30 changed\n/);
      assert.equal(sides.before.split('\n').length, sides.after.split('\n').length, 'the sides line up');
    }
  });

  it('uses only the hunks of a capped patch, and gives nothing for text that is not a patch', () => {
    const capped = `${patch}… 12 more lines in 2 more hunks not kept (patch capped at 64 KiB)\n`;
    assert.equal(patchSides(capped, after, true)!.extent, 'hunks');
    assert.equal(patchSides('just words', after, false), null);
  });
});
