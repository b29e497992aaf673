// A secret written in pieces (secrets/continuedLines.ts): the joined view, and where its spans land in the text as written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { joinContinuedLines } from '../../server/src/secrets/continuedLines';
import { redactSecrets } from '../../server/src/secrets/redact';

describe('lines joined as their program reads them', () => {
  it('joins a continued command, a concatenation and a KEY=\\ line, and maps back into the text', () => {
    const text = 'helm repo add x https://charts.example \\\n  --password \\\n  Q6knVossBcyU6xGArHIX';
    const [joined] = joinContinuedLines(text);
    assert.equal(joined!.text, 'helm repo add x https://charts.example --password Q6knVossBcyU6xGArHIX');
    const at = joined!.text.indexOf('Q6kn');
    assert.equal(text.slice(joined!.original(at), joined!.original(at + 19) + 1), 'Q6knVossBcyU6xGArHIX');
    assert.equal(joinContinuedLines("const key = 'sk_live_' +\n  'abc';")[0]!.text, "const key = 'sk_live_abc';");
    assert.equal(joinContinuedLines('TOKEN=\\\nabc')[0]!.text, 'TOKEN= abc');
    assert.deepEqual(joinContinuedLines('nothing to join here\nat all'), []);
    // A backtick or backslash glued to a word ends a Markdown fence or a C macro's line.
    assert.deepEqual(joinContinuedLines('```\ncode\n```\n#define X 1\\\n'), []);
  });

  it('finds them whatever the text starts with (a line break or a `+` first)', () => {
    for (const start of ['\n', '+', '\n+\n']) {
      const text = `${start}sqlcmd -S db \\\n  -P \\\n  "M9t10mxFQaEO!3lvx" -Q "SELECT 1"`;
      assert.equal(redactSecrets(text).text.includes('M9t10mxFQaEO'), false, JSON.stringify(start));
      const concatenated = `${start}const key = 'sk_live_' +\n  '${'vo4oAiJvzOIjaXeYExo201HU'}';`;
      assert.equal(redactSecrets(concatenated).text.includes('vo4oAiJvzOIjaXeYExo201HU'), false, JSON.stringify(start));
    }
  });
});
