import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateSequences, evaluateTexts, predictedLabels } from '../../bench/extraction/evaluate';
import { bashSubject, shellDirAfter, toolFailure } from '../../server/src/transcripts/extract/toolCalls';
import { mentionedFiles } from '../../server/src/transcripts/extract/mentionedFiles';
import { summaryText } from '../../server/src/transcripts/transcriptMemories';

describe('transcript extractors', () => {
  it('find constraints, decisions and gotchas on the labeled set at least as well as docs/extraction.md says', async () => {
    const texts = evaluateTexts();
    const gotchas = await evaluateSequences();
    // Floors a little under the documented numbers: a pattern change that loses quality fails here.
    assert.ok(texts.constraint.precision >= 0.88 && texts.constraint.recall >= 0.75, `constraint ${JSON.stringify(texts.constraint)}`);
    assert.ok(texts.decision.precision >= 0.92 && texts.decision.recall >= 0.75, `decision ${JSON.stringify(texts.decision)}`);
    assert.ok(gotchas.precision >= 0.95 && gotchas.recall >= 0.95, `gotcha ${JSON.stringify(gotchas)}`);
  });

  it('take rules only from what the user typed, and leave out the hard negatives', () => {
    assert.deepEqual([...predictedLabels('user', 'Never commit directly to main; open a PR.')], ['constraint']);
    assert.deepEqual([...predictedLabels('user', 'We use pnpm, not npm, in this repo.')], ['constraint']);
    assert.deepEqual([...predictedLabels('assistant', 'Never commit directly to main.')], []);
    for (const negative of ["I never understood why this test is flaky, can you look?", "don't worry about the lint errors for now", 'always fails on CI, why?', "Don't change the README in this PR."]) {
      assert.deepEqual([...predictedLabels('user', negative)], [], negative);
    }
    assert.deepEqual([...predictedLabels('user', '<command-name>/compact</command-name>\nNever mind')], []);
  });

  it('want a reason with a decision', () => {
    assert.ok(predictedLabels('assistant', 'I went with busy_timeout because it is one pragma.').has('decision'));
    assert.ok(!predictedLabels('assistant', 'Going with Postgres.').has('decision'));
    assert.ok(!predictedLabels('assistant', "I'd suggest going with the socket approach, since it avoids port conflicts. Want me to do it?").has('decision'));
  });

  it('name what a tool call acts on, so a failure and its fix meet', () => {
    assert.equal(bashSubject('cd web && CI=1 npx tsc --noEmit -p .'), 'tsc');
    assert.equal(bashSubject('npm run test -- --watch=false'), 'npm test');
    assert.equal(bashSubject('npm run build && npm test'), 'npm run build && npm test');
    assert.equal(shellDirAfter('cd server && npm test', ''), 'server');
    assert.equal(shellDirAfter('npm test', 'server'), 'server');
    assert.deepEqual(toolFailure(true, 'Exit code 2\nsrc/a.ts(3,1): error TS2304'), { error: 'src/a.ts(3,1): error TS2304', exitCode: 2 });
    assert.equal(toolFailure(true, "The user doesn't want to proceed with this tool use."), null);
    assert.equal(toolFailure(true, 'Exit code 1', 'grep -rn parseConfg src'), null, 'a search that found nothing');
    assert.equal(toolFailure(false, 'ok'), null);
    assert.equal(toolFailure(true, 'x'.repeat(5000))!.error.length, 500);
  });

  it('tie memories only to files that exist in the project', () => {
    const files = new Set(['/p/src/db.ts', '/p/README.md']);
    const found = mentionedFiles('Fix `src/db.ts` and README.md, e.g. like lib/missing.ts or /etc/passwd.', '/p', (f) => files.has(f));
    assert.deepEqual(found, ['src/db.ts', 'README.md']);
  });

  it('keep the compaction summary without Claude Code\'s framing', () => {
    const text = 'This session is being continued from a previous conversation.\n\n<system-reminder>x</system-reminder>\nSummary:\nWe fixed the pool.\n\nIf you need specific details from before compaction, read the transcript.';
    assert.equal(summaryText(text), 'We fixed the pool.');
  });
});
