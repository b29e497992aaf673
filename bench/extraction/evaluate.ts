import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { ChangeRecorder } from '../../server/src/capture/recordChange';
import { openProject } from '../../server/src/project';
import { decisionStatements } from '../../server/src/transcripts/extract/decisionStatements';
import { ruleStatements } from '../../server/src/transcripts/extract/ruleStatements';
import { ingestTranscript } from '../../server/src/transcripts/ingestTranscript';
import { TranscriptMemories } from '../../server/src/transcripts/transcriptMemories';

/**
 * Precision and recall of the transcript extractors on the hand-labeled set in
 * test/fixtures/extraction/ (see its README). Shared by the unit test (which holds floors) and
 * `npm run bench` (which prints the numbers written in docs/extraction.md).
 */

const FIXTURES = path.resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'extraction');

type Label = 'constraint' | 'decision';
interface LabeledText { readonly id: string; readonly role: 'user' | 'assistant'; readonly text: string; readonly labels: readonly Label[] }
interface LabeledCall { readonly tool: string; readonly input: Record<string, unknown>; readonly ok: boolean; readonly exitCode?: number; readonly error?: string }
interface LabeledSequence { readonly id: string; readonly calls: readonly LabeledCall[]; readonly gotchas: readonly { failedIndex: number; fixedIndex: number }[] }

export interface Score {
  readonly truePositives: number;
  readonly falsePositives: number;
  readonly falseNegatives: number;
  readonly precision: number;
  readonly recall: number;
  /** Ids of the items the extractor got wrong, for tuning by hand. */
  readonly wrong: readonly string[];
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(path.join(FIXTURES, file), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
}

function score(tp: number, fp: number, fn: number, wrong: string[]): Score {
  return { truePositives: tp, falsePositives: fp, falseNegatives: fn, precision: tp + fp ? tp / (tp + fp) : 1, recall: tp + fn ? tp / (tp + fn) : 1, wrong };
}

/** The labels the extractors give a message, through the same filters as transcript ingest. */
export function predictedLabels(role: 'user' | 'assistant', text: string): Set<Label> {
  const labels = new Set<Label>();
  if (role === 'user') {
    if (!TranscriptMemories.isUserPrompt(text)) return labels;
    if (ruleStatements(text).length) labels.add('constraint');
  }
  if (decisionStatements(text).length) labels.add('decision');
  return labels;
}

export function evaluateTexts(): Record<Label, Score> & { items: number } {
  const items = readJsonl<LabeledText>('texts.jsonl');
  const result = {} as Record<Label, Score>;
  for (const label of ['constraint', 'decision'] as const) {
    let tp = 0, fp = 0, fn = 0;
    const wrong: string[] = [];
    for (const item of items) {
      const predicted = predictedLabels(item.role, item.text).has(label);
      const expected = item.labels.includes(label);
      if (predicted && expected) tp++;
      else if (predicted) { fp++; wrong.push(`${item.id}+`); }
      else if (expected) { fn++; wrong.push(`${item.id}-`); }
    }
    result[label] = score(tp, fp, fn, wrong);
  }
  return { ...result, items: items.length };
}

/** A labeled tool-call sequence as the transcript Claude Code would write for it. */
function sequenceTranscript(sequence: LabeledSequence, cwd: string): string {
  const lines: string[] = [];
  const base = Date.parse('2026-11-01T10:00:00Z');
  const common = (i: number, kind: string) => ({ uuid: `${sequence.id}-${kind}-${i}`, parentUuid: null, sessionId: `session-${sequence.id}`, timestamp: new Date(base + i * 1000).toISOString(), cwd, isSidechain: false });
  sequence.calls.forEach((call, i) => {
    const input = JSON.parse(JSON.stringify(call.input).split('/home/dev/project').join(cwd)) as Record<string, unknown>;
    lines.push(JSON.stringify({ ...common(i, 'call'), type: 'assistant', message: { id: `msg-${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `tu-${i}`, name: call.tool, input }] } }));
    const content = call.ok ? 'ok' : call.error ?? 'failed';
    lines.push(JSON.stringify({ ...common(i, 'result'), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tu-${i}`, content, is_error: !call.ok }] } }));
  });
  return `${lines.join('\n')}\n`;
}

/** Runs every labeled sequence through the real transcript ingest and compares the gotchas it records. */
export async function evaluateSequences(): Promise<Score & { items: number }> {
  const sequences = readJsonl<LabeledSequence>('toolSequences.jsonl');
  const work = mkdtempSync(path.join(tmpdir(), 'engram-extraction-'));
  try {
    const root = path.join(work, 'project');
    mkdirSync(root, { recursive: true });
    const project = openProject(root, { ...process.env, ENGRAM_HOME: path.join(work, 'home') });
    const recorder = new ChangeRecorder(project);
    let tp = 0, fp = 0, fn = 0;
    const wrong: string[] = [];
    for (const sequence of sequences) {
      const file = path.join(work, `${sequence.id}.jsonl`);
      writeFileSync(file, sequenceTranscript(sequence, root));
      await ingestTranscript(project, recorder, { path: file, sessionId: `session-${sequence.id}`, kind: 'session' });
      const found = new Set<string>();
      for (const memory of project.store.all()) {
        if (memory.kind !== 'gotcha' || memory.sessionId !== `session-${sequence.id}`) continue;
        const failed = /-result-(\d+)$/.exec(String(memory.meta.failedRecord))?.[1];
        const fixed = /-result-(\d+)#gotcha$/.exec(memory.sourceRef ?? '')?.[1];
        found.add(`${failed}>${fixed}`);
      }
      const expected = new Set(sequence.gotchas.map((g) => `${g.failedIndex}>${g.fixedIndex}`));
      for (const pair of found) if (expected.has(pair)) tp++; else { fp++; wrong.push(`${sequence.id}+${pair}`); }
      for (const pair of expected) if (!found.has(pair)) { fn++; wrong.push(`${sequence.id}-${pair}`); }
    }
    project.close();
    return { ...score(tp, fp, fn, wrong), items: sequences.length };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
