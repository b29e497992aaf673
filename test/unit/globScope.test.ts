// A glob-scoped constraint's file test (constraints/scope.ts) skips compiling a glob whose literal
// start the path does not share; it must answer exactly as picomatch does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { globMatches } from '../../server/src/constraints/scope';
import { globMatcher } from '../../server/src/util/globMatcher';

const GLOBS = ['**/*.ts', 'src/**', './src/**', '././src/*.ts', 'src/*.{ts,js}', '!src/**', 'SRC/**', 'src/a.ts', '*.md', 'src/(a|b).ts', 'src/+(a|b).ts', 'docs/**/*.md', 'src/a?.ts', '.github/**', 'src/[ab].ts', 'src\\*.ts', 'src/@(a).ts'];
const PATHS = ['src/a.ts', 'src/b.ts', 'lib/x.ts', 'README.md', 'docs/x/y.md', 'src/ab.ts', '.github/w.yml', 'src/sub/c.js', 'srcx/a.ts', 'src/*.ts'];

describe('glob scopes', () => {
  it('answer as picomatch does, for globs with and without a literal start', () => {
    for (const glob of GLOBS) {
      for (const path of PATHS) assert.equal(globMatches(glob, path), globMatcher(glob, { dot: true })(path), `${glob} against ${path}`);
    }
  });
});
