import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { commandProgram, posixQuote, toShellPath } from '../../server/src/claude/shellQuote';

/** Paths users have: spaces, parentheses, `&`, quotes, `$`, backslashes, non-ASCII. */
const AWKWARD = [
  '/home/ana/.local/share/engram/bin/engram',
  '/Users/Jürgen Müller/Library/Application Support/engram/bin/engram',
  '/c/Program Files (x86)/Tom & Jerry/engram',
  "/home/o'brien/it's here/engram",
  '/tmp/$HOME/`date`/"quoted"/back\\slash/100%/日本語/🚀',
];

describe('quoting a path for the shells Claude Code runs hooks with', () => {
  for (const shell of ['sh', 'bash']) {
    it(`keeps every character of a path as one word in ${shell}`, () => {
      for (const word of AWKWARD) {
        const printed = execFileSync(shell, ['-c', `printf '%s|' ${posixQuote(word)} next`], { encoding: 'utf8' });
        assert.equal(printed, `${word}|next|`);
      }
    });
  }

  it('leaves a plain path bare and reads back the program of every quoting Engram writes or wrote', () => {
    assert.equal(posixQuote('/home/ana/bin/engram'), '/home/ana/bin/engram');
    for (const word of AWKWARD) assert.equal(commandProgram(`${posixQuote(word)} hook session-start`), word);
    assert.equal(commandProgram('"/Users/Ana Lopez/engram" hook stop'), '/Users/Ana Lopez/engram');
    assert.equal(commandProgram('"C:\\\\Users\\\\Ana\\\\engram.cmd" hook stop'), 'C:\\Users\\Ana\\engram.cmd');
    // Unquoted, a shell takes backslashes as escapes: why Engram gives Git Bash forward slashes.
    assert.equal(commandProgram('C:\\Users\\Ana\\engram.cmd hook stop'), 'C:UsersAnaengram.cmd');
    assert.equal(commandProgram("'unterminated hook stop"), null);
    assert.equal(commandProgram('   '), null);
  });

  it('gives Git Bash Windows paths with forward slashes, drive letters and UNC shares kept', () => {
    assert.equal(toShellPath('C:\\Users\\Jürgen (x) & co\\AppData\\Local\\engram\\bin\\engram', 'win32'), 'C:/Users/Jürgen (x) & co/AppData/Local/engram/bin/engram');
    assert.equal(toShellPath('\\\\server\\share\\engram\\bin\\engram', 'win32'), '//server/share/engram/bin/engram');
    assert.equal(toShellPath('/home/a\\b', 'linux'), '/home/a\\b');
    assert.equal(posixQuote(toShellPath('C:\\Program Files\\engram', 'win32')), "'C:/Program Files/engram'");
  });
});
