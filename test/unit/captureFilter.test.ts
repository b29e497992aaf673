import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CaptureFilter, DEFAULT_EXCLUDES } from '../../server/src/capture/captureFilter';
import { checkCapturableText, MAX_CAPTURE_BYTES, readCapturable } from '../../server/src/capture/readCapturable';
import { tempDir } from '../support/tempDirs';

/** A project folder holding `files` (project-relative path → content). */
function project(files: Readonly<Record<string, string | Uint8Array>> = {}): string {
  const root = tempDir();
  for (const [file, content] of Object.entries(files)) writeProjectFile(root, file, content);
  return root;
}

function writeProjectFile(root: string, file: string, content: string | Uint8Array): string {
  const absolute = path.join(root, file);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, content);
  return absolute;
}

function excludedBy(filter: CaptureFilter, file: string): string | null {
  const reason = filter.exclusion(file);
  return reason?.kind === 'excluded' ? reason.glob : null;
}

function gitignoredBy(filter: CaptureFilter, file: string): string | null {
  const reason = filter.exclusion(file);
  return reason?.kind === 'gitignored' ? reason.source : null;
}

describe('capture filter: default excludes', () => {
  const filter = new CaptureFilter(project());

  it('captures ordinary source files', () => {
    for (const file of ['src/index.ts', 'README.md', 'vendor/lib/a.go', '.env.d.ts.bak/x.ts', 'environment.ts']) {
      assert.equal(filter.exclusion(file), null, file);
    }
  });

  it('never captures dependencies in node_modules, at any depth', () => {
    assert.equal(excludedBy(filter, 'node_modules/lodash/index.js'), '**/node_modules/**');
    assert.equal(excludedBy(filter, 'packages/a/node_modules/x/y.js'), '**/node_modules/**');
  });

  it('never captures build outputs', () => {
    for (const file of ['dist/a.js', 'build/b.js', 'out/c.js', 'target/debug/d', 'web/.next/e.js', 'coverage/lcov.info', 'pkg/__pycache__/m.cpython-312.pyc', 'm.pyc', '.venv/lib/site.py']) {
      assert.notEqual(excludedBy(filter, file), null, file);
    }
  });

  it('does not exclude vendor folders, which often hold edited source', () => {
    assert.equal(filter.exclusion('vendor/github.com/x/y.go'), null);
  });

  it('never captures lockfiles', () => {
    for (const file of ['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'Cargo.lock', 'poetry.lock', 'Gemfile.lock', 'composer.lock', 'go.sum', 'apps/web/package-lock.json']) {
      assert.notEqual(excludedBy(filter, file), null, file);
    }
  });

  it('never captures .env files, which hold secrets', () => {
    assert.equal(excludedBy(filter, '.env'), '**/.env');
    assert.equal(excludedBy(filter, '.env.local'), '**/.env.*');
    assert.equal(excludedBy(filter, 'services/api/.env.production'), '**/.env.*');
    assert.equal(excludedBy(filter, '.claude/settings.local.json'), '**/.claude/settings.local.json');
    assert.equal(excludedBy(filter, '.claude/settings.json'), null, 'the shared settings a team commits are code');
  });

  it('never captures minified files or source maps', () => {
    assert.equal(excludedBy(filter, 'public/app.min.js'), '**/*.min.js');
    assert.equal(excludedBy(filter, 'public/app.min.css'), '**/*.min.css');
    assert.equal(excludedBy(filter, 'public/app.js.map'), '**/*.map');
  });

  it('never captures the .git folder itself', () => {
    assert.equal(excludedBy(filter, '.git/config'), '**/.git/**');
    assert.equal(excludedBy(filter, '.git/info/exclude'), '**/.git/**');
  });

  it('adds user globs to the defaults rather than replacing them', () => {
    const withUserGlobs = new CaptureFilter(project(), { exclude: ['**/*.snap', 'fixtures/**'] });
    assert.equal(excludedBy(withUserGlobs, 'src/__snapshots__/a.test.ts.snap'), '**/*.snap');
    assert.equal(excludedBy(withUserGlobs, 'fixtures/big.json'), 'fixtures/**');
    assert.equal(excludedBy(withUserGlobs, 'node_modules/x/index.js'), '**/node_modules/**');
    assert.equal(withUserGlobs.exclusion('src/fixtures/a.ts'), null);
    assert.ok(DEFAULT_EXCLUDES.length > 0);
  });
});

describe('capture filter: git ignore rules', () => {
  it('skips files the root .gitignore ignores', () => {
    const root = project({ '.gitignore': '*.log\n/secrets/\n', 'src/a.ts': '' });
    const filter = new CaptureFilter(root);
    assert.equal(gitignoredBy(filter, 'debug.log'), '.gitignore');
    assert.equal(gitignoredBy(filter, 'src/deep/trace.log'), '.gitignore');
    assert.equal(gitignoredBy(filter, 'secrets/key.ts'), '.gitignore');
    assert.equal(filter.exclusion('src/secrets/key.ts'), null);
    assert.equal(filter.exclusion('src/a.ts'), null);
  });

  it('applies a nested .gitignore relative to its own folder, and names it as the source', () => {
    const root = project({ '.gitignore': '', 'packages/api/.gitignore': '/generated\n*.tmp\n' });
    const filter = new CaptureFilter(root);
    assert.equal(gitignoredBy(filter, 'packages/api/generated/client.ts'), 'packages/api/.gitignore');
    assert.equal(gitignoredBy(filter, 'packages/api/src/x.tmp'), 'packages/api/.gitignore');
    assert.equal(filter.exclusion('generated/client.ts'), null);
    assert.equal(filter.exclusion('packages/web/x.tmp'), null);
  });

  it('re-includes a file negated in the same .gitignore', () => {
    const filter = new CaptureFilter(project({ '.gitignore': '*.log\n!keep.log\n' }));
    assert.equal(gitignoredBy(filter, 'other.log'), '.gitignore');
    assert.equal(filter.exclusion('keep.log'), null);
  });

  it('lets a deeper .gitignore re-include what a shallower one ignores', () => {
    const filter = new CaptureFilter(project({ '.gitignore': '*.sql\n', 'db/.gitignore': '!schema.sql\n' }));
    assert.equal(filter.exclusion('db/schema.sql'), null);
    assert.equal(gitignoredBy(filter, 'db/dump.sql'), '.gitignore');
  });

  it('keeps a file in an ignored folder ignored even when a negation names it, as git does', () => {
    const filter = new CaptureFilter(project({ '.gitignore': 'logs/\n!logs/keep.txt\n', 'logs/.gitignore': '!keep.txt\n' }));
    assert.equal(gitignoredBy(filter, 'logs/keep.txt'), '.gitignore');
    assert.equal(gitignoredBy(filter, 'logs/2024/jan.txt'), '.gitignore');
  });

  it('judges a file by its own rules when a deeper .gitignore re-includes its ignored folder', () => {
    const filter = new CaptureFilter(project({ '.gitignore': 'gen/\n*.log\n', 'pkg/.gitignore': '!gen/\n' }));
    assert.equal(filter.exclusion('pkg/gen/api.ts'), null);
    assert.equal(gitignoredBy(filter, 'pkg/gen/api.log'), '.gitignore');
    assert.equal(gitignoredBy(filter, 'gen/api.ts'), '.gitignore');
  });

  it('re-includes a file when only the folder contents, not the folder, are ignored', () => {
    const filter = new CaptureFilter(project({ '.gitignore': 'logs/*\n!logs/keep.txt\n' }));
    assert.equal(filter.exclusion('logs/keep.txt'), null);
    assert.equal(gitignoredBy(filter, 'logs/other.txt'), '.gitignore');
  });

  it('follows .git/info/exclude, below any .gitignore in precedence', () => {
    const root = project({ '.git/info/exclude': 'scratch/\n*.local.ts\n', '.gitignore': '!keep.local.ts\n' });
    const filter = new CaptureFilter(root);
    assert.equal(gitignoredBy(filter, 'scratch/notes.ts'), '.git/info/exclude');
    assert.equal(gitignoredBy(filter, 'src/a.local.ts'), '.git/info/exclude');
    assert.equal(filter.exclusion('keep.local.ts'), null);
  });

  it('works when .git is a file, as in worktrees', () => {
    const filter = new CaptureFilter(project({ '.git': 'gitdir: /elsewhere\n', '.gitignore': 'tmp/\n' }));
    assert.equal(gitignoredBy(filter, 'tmp/a.ts'), '.gitignore');
    assert.equal(filter.exclusion('src/a.ts'), null);
  });

  it('picks up a changed .gitignore after invalidate(), and not before', () => {
    const root = project({ '.gitignore': '*.log\n' });
    const filter = new CaptureFilter(root);
    assert.equal(filter.exclusion('notes.md'), null);
    assert.equal(filter.exclusion('src/notes.md'), null);
    writeProjectFile(root, '.gitignore', '*.log\nnotes.md\n');
    writeProjectFile(root, 'src/.gitignore', 'notes.md\n');
    assert.equal(filter.exclusion('notes.md'), null, 'cached rules are kept until invalidated');
    filter.invalidate();
    assert.equal(gitignoredBy(filter, 'notes.md'), '.gitignore');
    assert.equal(gitignoredBy(filter, 'src/notes.md'), 'src/.gitignore');
  });

  it('answers 10,000 questions about a tree with nested .gitignore files quickly', () => {
    const files: Record<string, string> = { '.gitignore': '*.log\n/tmp/\n' };
    for (let i = 0; i < 20; i++) files[`packages/p${i}/.gitignore`] = `generated/\n!keep.log\n*.tmp\n`;
    const filter = new CaptureFilter(project(files));
    const started = performance.now();
    let excluded = 0;
    for (let i = 0; i < 10_000; i++) {
      const pkg = `packages/p${i % 20}`;
      const file = [`${pkg}/src/m${i}.ts`, `${pkg}/generated/g${i}.ts`, `${pkg}/keep.log`, `${pkg}/src/deep/x${i}.tmp`, `node_modules/a/${i}.js`][i % 5];
      if (filter.exclusion(file ?? '')) excluded++;
    }
    const elapsed = performance.now() - started;
    console.log(`10,000 exclusion() calls: ${elapsed.toFixed(1)} ms`);
    assert.equal(excluded, 6_000);
    assert.ok(elapsed < 2_000, `took ${elapsed} ms`);
  });
});

describe('capture filter: files outside the project', () => {
  const root = project({ 'src/a.ts': '' });
  const filter = new CaptureFilter(root);

  it('refuses absolute paths elsewhere and relative paths that climb out', () => {
    assert.deepEqual(filter.exclusion('/etc/passwd'), { kind: 'outside-project' });
    assert.deepEqual(filter.exclusion('../x'), { kind: 'outside-project' });
    assert.deepEqual(filter.exclusion('src/../../x.ts'), { kind: 'outside-project' });
    assert.deepEqual(filter.exclusion(root), { kind: 'outside-project' });
  });

  it('accepts absolute paths inside the project', () => {
    assert.equal(filter.exclusion(path.join(root, 'src', 'a.ts')), null);
  });

  it('does not follow a symlink out of the project', () => {
    const elsewhere = project({ 'secret.ts': 'x' });
    symlinkSync(path.join(elsewhere, 'secret.ts'), path.join(root, 'src', 'linked.ts'));
    symlinkSync(elsewhere, path.join(root, 'linkedDir'));
    symlinkSync(path.join(root, 'src', 'a.ts'), path.join(root, 'inside.ts'));
    assert.deepEqual(filter.exclusion('src/linked.ts'), { kind: 'outside-project' });
    assert.deepEqual(filter.exclusion('linkedDir/secret.ts'), { kind: 'outside-project' });
    assert.equal(filter.exclusion('inside.ts'), null);
  });
});

describe('readCapturable', () => {
  it('reads a text file, with its size in bytes', async () => {
    const file = writeProjectFile(project(), 'a.ts', 'const café = 1;\n');
    assert.deepEqual(await readCapturable(file), { ok: true, text: 'const café = 1;\n', bytes: 17 });
  });

  it('reads a file of exactly 1 MB', async () => {
    const file = writeProjectFile(project(), 'edge.txt', 'a'.repeat(MAX_CAPTURE_BYTES));
    const read = await readCapturable(file);
    assert.equal(read.ok && read.bytes, MAX_CAPTURE_BYTES);
  });

  it('refuses a file of 1 MB and one byte as too large', async () => {
    const file = writeProjectFile(project(), 'big.txt', 'a'.repeat(MAX_CAPTURE_BYTES + 1));
    const read = await readCapturable(file);
    assert.equal(!read.ok && read.reason, 'too-large');
  });

  it('refuses a 50 MB file without reading it', async () => {
    const file = writeProjectFile(project(), 'huge.log', '');
    truncateSync(file, 50 * 1024 * 1024);
    const read = await readCapturable(file);
    assert.equal(!read.ok && read.reason, 'too-large');
    // Its size from stat, not the MAX_CAPTURE_BYTES + 1 a read of its head would have found (a timed
    // bound said this before, and failed on a loaded machine).
    assert.equal(!read.ok && read.detail, `${50 * 1024 * 1024} bytes, more than the ${MAX_CAPTURE_BYTES} captured`);
  });

  it('recognises a binary file by its content, whatever its name', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const file = writeProjectFile(project(), 'logo.ts', png);
    const read = await readCapturable(file);
    assert.equal(!read.ok && read.reason, 'binary');
  });

  it('calls a file with many control characters binary even without NUL bytes', async () => {
    const file = writeProjectFile(project(), 'data.ts', Uint8Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 0x01 : 0x41)));
    const read = await readCapturable(file);
    assert.equal(!read.ok && read.reason, 'binary');
  });

  it('refuses bytes that are not valid UTF-8', async () => {
    const file = writeProjectFile(project(), 'latin1.ts', Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const read = await readCapturable(file);
    assert.equal(!read.ok && read.reason, 'invalid-utf8');
  });

  it('reports a file deleted before it was read as missing', async () => {
    const read = await readCapturable(path.join(project(), 'gone.ts'));
    assert.equal(!read.ok && read.reason, 'missing');
  });

  it('reports a folder as not a file', async () => {
    const root = project({ 'src/a.ts': '' });
    const read = await readCapturable(path.join(root, 'src'));
    assert.equal(!read.ok && read.reason, 'not-a-file');
  });
});

describe('checkCapturableText', () => {
  it('accepts ordinary editor text, counting UTF-8 bytes', () => {
    assert.deepEqual(checkCapturableText('é\n'), { ok: true, text: 'é\n', bytes: 3 });
  });

  it('refuses a huge buffer as too large', () => {
    const read = checkCapturableText('x'.repeat(5 * MAX_CAPTURE_BYTES));
    assert.equal(!read.ok && read.reason, 'too-large');
  });

  it('measures multi-byte text in UTF-8 bytes, not characters', () => {
    const read = checkCapturableText('é'.repeat(MAX_CAPTURE_BYTES / 2 + 1));
    assert.equal(!read.ok && read.reason, 'too-large');
  });

  it('refuses text with NUL characters as binary', () => {
    const read = checkCapturableText('abc\u0000def');
    assert.equal(!read.ok && read.reason, 'binary');
  });
});
