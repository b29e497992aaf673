import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { StreamMessageWriter } from 'vscode-jsonrpc/node';
import { changedSymbols } from '../server/src/capture/changedSymbols';
import { diffTexts } from '../server/src/capture/diffTexts';
import { ChangeRecorder } from '../server/src/capture/recordChange';
import { openProject } from '../server/src/project';
import { declarations, fileDeclarations, forgetFile } from '../server/src/symbols';
import { percentile, typescriptFile } from './fixtures';

const LINES = 5000;
const ROUNDS = 40;

function report(name: string, samples: number[], target: string): void {
  const p50 = percentile(samples, 50).toFixed(2);
  const p99 = percentile(samples, 99).toFixed(2);
  console.log(`${name.padEnd(74)} p50 ${p50.padStart(7)} ms   p99 ${p99.padStart(7)} ms   (target ${target})`);
}

/** Edit one method body line of the generated file, a different one each round. */
function edited(text: string, round: number): string {
  const lines = text.split('\n');
  const index = 10 + ((round * 97) % (lines.length - 20));
  lines[index] = `${lines[index]} // edit ${round}`;
  return lines.join('\n');
}

export async function benchCapture(): Promise<void> {
  const text = typescriptFile(LINES);
  console.log(`\nCapture (a ${LINES}-line TypeScript file, ${ROUNDS} rounds after warm-up)`);

  // The extension does no work per keystroke; what remains is vscode-languageclient sending an
  // incremental didChange. This measures serializing and writing that message.
  const writer = new StreamMessageWriter(new PassThrough().resume());
  const keystroke: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const start = performance.now();
    await writer.write({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: 'file:///p/src/a.ts', version: i }, contentChanges: [{ range: { start: { line: 120, character: 10 }, end: { line: 120, character: 10 } }, rangeLength: 0, text: 'x' }] } } as never);
    keystroke.push(performance.now() - start);
  }
  report('extension host per keystroke (didChange message)', keystroke.slice(200), '≤ 0.1 ms');

  const diffs: number[] = [];
  for (let r = 0; r < ROUNDS + 5; r++) {
    const after = edited(text, r);
    const start = performance.now();
    diffTexts('src/big.ts', text, after);
    if (r >= 5) diffs.push(performance.now() - start);
  }
  report('diff of a one-line edit (jsdiff)', diffs, '—');

  const tagging: number[] = [];
  for (let r = 0; r < ROUNDS + 5; r++) {
    const start = performance.now();
    await declarations(text, 'typescript');
    if (r >= 5) tagging.push(performance.now() - start);
  }
  // What CodeLens' whole-file declarations cost; tagging a change no longer parses the whole file.
  report('symbol tagging, cold: whole file parsed and queried', tagging, '—');

  // A change of a file with no kept tree (not opened, or evicted): only the top-level regions
  // around the changed lines are parsed, and no tree is kept, so every round is cold.
  const coldChange: number[] = [];
  for (let r = 0; r < ROUNDS + 5; r++) {
    const next = edited(text, r);
    const diff = diffTexts('src/cold.ts', text, next)!;
    forgetFile('src/cold.ts');
    const start = performance.now();
    await changedSymbols('src/cold.ts', text, next, diff);
    if (r >= 5) coldChange.push(performance.now() - start);
  }
  report('symbol tagging of a change, cold (no tree kept): changed regions parsed', coldChange, '≤ 30 ms');

  // What a save of an opened file does (opening keeps its tree): an incremental reparse from the
  // file's kept tree, queried over the changed lines.
  const perSave: number[] = [];
  let previous = text;
  await fileDeclarations('src/tagged.ts', 'typescript', text);
  for (let r = 0; r < ROUNDS + 5; r++) {
    const next = edited(previous, r);
    const diff = diffTexts('src/tagged.ts', previous, next)!;
    const start = performance.now();
    await changedSymbols('src/tagged.ts', previous, next, diff);
    if (r >= 5) perSave.push(performance.now() - start);
    previous = next;
  }
  report('symbol tagging of a save: incremental, changed lines', perSave, '≤ 30 ms');

  const home = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-'));
  const project = openProject(path.join(home, 'project'), { ...process.env, ENGRAM_HOME: path.join(home, 'data') });
  try {
    // Coalescing off, so every save writes a memory.
    const recorder = new ChangeRecorder(project, { coalesceWindowMs: 0 });
    recorder.baseline('src/big.ts', text, { size: text.length, mtimeMs: 0 });
    // An editor save is of an open file, whose tree opening it kept.
    await fileDeclarations('src/big.ts', 'typescript', text);
    const saves: number[] = [];
    let current = text;
    for (let r = 0; r < ROUNDS + 5; r++) {
      const next = edited(current, r);
      const start = performance.now();
      const outcome = await recorder.record('src/big.ts', next, 'editor', { size: next.length, mtimeMs: r + 1 }, { now: r * 1000 });
      if (r >= 5) saves.push(performance.now() - start);
      if (outcome.kind !== 'recorded') throw new Error(`round ${r}: expected a memory, got ${outcome.kind}`);
      current = next;
    }
    report('save → diff memory recorded (diff, symbols, redact, SQLite)', saves, '≤ 20 ms');

    // The first save of a file: without a tree it parses the regions around the change; opening the file keeps a tree.
    const firstSave = async (name: string, preParse: boolean): Promise<number> => {
      recorder.baseline(name, text, { size: text.length, mtimeMs: 0 });
      if (preParse) await fileDeclarations(name, 'typescript', text);
      const next = edited(text, 7);
      const start = performance.now();
      await recorder.record(name, next, 'editor', { size: next.length, mtimeMs: 1 }, { now: 1e9 });
      return performance.now() - start;
    };
    const cold: number[] = [];
    const warm: number[] = [];
    for (let r = 0; r < 10; r++) {
      cold.push(await firstSave(`src/cold${r}.ts`, false));
      warm.push(await firstSave(`src/opened${r}.ts`, true));
    }
    report('first save of a file, not pre-parsed', cold, '≤ 20 ms');
    report('first save of a file pre-parsed when it was opened', warm, '≤ 20 ms');
  } finally {
    project.close();
    rmSync(home, { recursive: true, force: true });
  }
}
