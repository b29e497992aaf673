// Redaction (issue 21): its speed over the bench's memory mix, and what it redacts in real text
// that holds no secret a person put there: commit messages and patches of the shared
// repositories, LoCoMo, the Claude Code samples, this project's dependencies. With
// ENGRAM_BENCH_REDACTION_BEFORE=<another checkout of Engram> (e.g. a `git worktree` of an older
// commit), each text is also redacted by that tree's rules and every difference printed, which
// is how a change of the rules is checked for new look-alikes (test/fixtures/secrets/README.md).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RedactionResult } from '../server/src/secrets/redact';
import { redactSecrets } from '../server/src/secrets/redact';
import { cloneBundle } from './history.bench';
import { generateMemoryFixture } from './memoryFixtures';

type Redact = (text: string) => RedactionResult;

const SHARED = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data');
const NODE_MODULES_BYTES = 64e6;

function memoryMixTexts(): string[] {
  const texts: string[] = [];
  for (const m of generateMemoryFixture({ memories: 30_000, files: 320, seed: 7, now: Date.parse('2026-11-01T00:00:00Z') }).memories) {
    texts.push(m.title, m.body);
    if (m.why) texts.push(m.why);
  }
  return texts;
}

function realTexts(scratch: string): { source: string; text: string }[] {
  const texts: { source: string; text: string }[] = [];
  for (const repo of ['express', 'requests']) {
    const dir = cloneBundle(repo, scratch);
    const git = (args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
    for (const message of git(['log', '--format=%B%x00']).split('\0')) if (message.trim()) texts.push({ source: `${repo} messages`, text: message });
    for (const patch of git(['log', '-p', '-n', '400', '--format=%x01%B']).split('\x01')) if (patch.trim()) texts.push({ source: `${repo} patches`, text: patch });
  }
  const strings = (source: string, value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length > 20) texts.push({ source, text: value });
    } else if (Array.isArray(value)) for (const v of value) strings(source, v);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(source, v);
  };
  strings('locomo', JSON.parse(readFileSync(path.join(SHARED, 'locomo', 'locomo-dev.json'), 'utf8')));
  for (const file of ['autocompact-session.jsonl', 'write-edit-session.jsonl']) {
    for (const line of readFileSync(path.join(SHARED, 'claude-code', file), 'utf8').split('\n')) if (line.trim()) strings('claude code', JSON.parse(line));
  }
  let bytes = 0;
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (bytes > NODE_MODULES_BYTES) return;
      const file = path.join(dir, name);
      const stats = statSync(file, { throwIfNoEntry: false });
      if (stats?.isDirectory()) visit(file);
      else if (stats && stats.size < 2e6 && /\.(?:md|ts|js|json|ya?ml)$/.test(name)) {
        const text = readFileSync(file, 'utf8');
        bytes += text.length;
        texts.push({ source: 'node_modules', text });
      }
    }
  };
  visit(path.resolve(import.meta.dirname, '..', 'node_modules'));
  return texts;
}

/** Another checkout's redactor (its rules then), loaded from its source. */
async function redactorOf(tree: string): Promise<Redact> {
  const loaded = (await import(pathToFileURL(path.resolve(tree, 'server', 'src', 'secrets', 'redact.ts')).href)) as { redactSecrets?: Redact; default?: { redactSecrets: Redact } };
  return loaded.redactSecrets ?? loaded.default!.redactSecrets;
}

const spanText = (text: string, r: { start: number; end: number }) => text.slice(r.start, r.end);
const context = (text: string, r: { start: number; end: number }) => text.slice(Math.max(0, r.start - 50), r.end + 30).replace(/\s+/g, ' ');

export async function benchRedaction(): Promise<void> {
  console.log('\nRedaction (issue 21)');
  const mix = memoryMixTexts();
  const mixBytes = mix.reduce((sum, t) => sum + t.length, 0);
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (const text of mix) redactSecrets(text);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`the bench's memory mix (${(mixBytes / 1e6).toFixed(1)} MB of titles, bodies and whys)   ${(mixBytes / 1e3 / times[2]!).toFixed(0)} MB/s   (median of 5)`);

  const beforeTree = process.env.ENGRAM_BENCH_REDACTION_BEFORE;
  const before = beforeTree ? await redactorOf(beforeTree) : null;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-redaction-'));
  try {
    const texts = realTexts(scratch);
    const counts = new Map<string, { texts: number; now: number; before: number }>();
    const differences: string[] = [];
    for (const { source, text } of texts) {
      const now = redactSecrets(text).redactions;
      const entry = counts.get(source) ?? { texts: 0, now: 0, before: 0 };
      entry.texts++;
      entry.now += now.length;
      if (before) {
        const then = before(text).redactions;
        entry.before += then.length;
        const thenSpans = new Set(then.map((r) => spanText(text, r)));
        const nowSpans = new Set(now.map((r) => spanText(text, r)));
        for (const r of now) if (!thenSpans.has(spanText(text, r))) differences.push(`  new  ${source} [${r.rule}] …${context(text, r)}…`);
        for (const r of then) if (!nowSpans.has(spanText(text, r))) differences.push(`  gone ${source} [${r.rule}] …${context(text, r)}…`);
      }
      counts.set(source, entry);
    }
    for (const [source, c] of counts) {
      console.log(`redactions in real text: ${source.padEnd(18)} ${String(c.now).padStart(6)} in ${c.texts} texts${before ? `   (before: ${c.before})` : ''}`);
    }
    for (const line of [...new Set(differences)]) console.log(line);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
