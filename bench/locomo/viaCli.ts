import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openProject } from '../../server/src/project';
import { assertBuilt, ENGRAM_JS } from '../../test/support/engramProcess';
import { loadLocomo } from './data';
import { memoryText } from './evaluate';

/**
 * LoCoMo as a new user meets it (docs/recall-quality.md): each conversation's turns exported by
 * `engram export`, loaded into a fresh project by `engram import`, and every question asked by
 * its own `engram recall --query Q --limit 10 --json` process, which uses today's clock. It needs
 * `npm run build` first and takes about a minute.
 */
export function evaluateLocomoViaCli(): { questions: number; recallAt5: number; recallAt10: number; hitAt10: number } {
  assertBuilt();
  const work = mkdtempSync(path.join(tmpdir(), 'engram-locomo-cli-'));
  const run = (args: string[], home: string) => {
    const result = spawnSync(process.execPath, [ENGRAM_JS, ...args], { env: { ...process.env, ENGRAM_HOME: path.join(work, home) }, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`engram ${args[0]} failed: ${result.stderr}`);
    return result.stdout;
  };
  let questions = 0;
  let r5 = 0;
  let r10 = 0;
  let hits = 0;
  try {
    for (const conversation of loadLocomo()) {
      // The source project is written as evaluate.ts writes it; only its export is used.
      const source = path.join(work, `source-${conversation.id}`);
      mkdirSync(path.join(source, '.git'), { recursive: true });
      const project = openProject(source, { ...process.env, ENGRAM_HOME: path.join(work, 'source-home') });
      for (const turn of conversation.turns) {
        project.store.add(
          {
            kind: 'fact',
            source: 'user',
            ...memoryText(turn),
            sourceRef: `locomo:${conversation.id}:${turn.diaId}`,
            sessionId: `locomo:${conversation.id}:session_${turn.session}`,
            meta: { speaker: turn.speaker, session: turn.session, sessionDate: turn.sessionDate },
          },
          turn.time,
        );
      }
      project.close();
      const exported = path.join(work, `${conversation.id}.jsonl`);
      run(['export', '--project', source, '--out', exported], 'source-home');
      const target = path.join(work, conversation.id);
      mkdirSync(path.join(target, '.git'), { recursive: true });
      run(['import', exported, '--project', target], 'home');
      const prefix = `locomo:${conversation.id}:`;
      for (const q of conversation.questions) {
        const answer = JSON.parse(run(['recall', '--project', target, '--query', q.question, '--limit', '10', '--json'], 'home')) as { results: { sourceRef?: string | null }[] };
        const ranked = answer.results.map((r) => (r.sourceRef ?? '').slice(prefix.length));
        const at = (k: number) => q.evidence.filter((e) => ranked.slice(0, k).includes(e)).length / q.evidence.length;
        questions++;
        r5 += at(5);
        r10 += at(10);
        if (at(10) > 0) hits++;
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const n = Math.max(1, questions);
  return { questions, recallAt5: r5 / n, recallAt10: r10 / n, hitAt10: hits / n };
}
