import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The LoCoMo development split (5 conversations), read from outside the repository: the data is
 * CC BY-NC 4.0 and used for evaluation only, so it is never copied into Engram. See
 * ../shared/data/locomo/SOURCES.md and docs/recall-quality.md.
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const LOCOMO_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'locomo');
export const LOCOMO_FILE = path.join(LOCOMO_DIR, 'locomo-dev.json');

export const CATEGORY_NAMES: Readonly<Record<number, string>> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

export interface LocomoTurn {
  readonly speaker: string;
  /** `D<session>:<turn>`, the key evidence refers to. */
  readonly diaId: string;
  readonly text: string;
  readonly caption: string | null;
  readonly session: number;
  /** As written in the data, e.g. `1:56 pm on 8 May, 2023`. */
  readonly sessionDate: string;
  /** When the session took place (UTC ms); turns of a session one second apart. */
  readonly time: number;
}

export interface LocomoQuestion {
  readonly question: string;
  readonly category: number;
  /** Deduplicated, with the few malformed ids of the data repaired (`D8:6; D9:17`, `D:11:26`). */
  readonly evidence: readonly string[];
}

export interface LocomoConversation {
  readonly id: string;
  readonly turns: readonly LocomoTurn[];
  /** Categories 1–4 with evidence: the retrieval task. */
  readonly questions: readonly LocomoQuestion[];
}

interface RawTurn { speaker: string; dia_id: string; text: string; blip_caption?: string }
interface RawQa { question: string; category: number; evidence?: string[] }
interface RawSample { sample_id: string; conversation: Record<string, unknown>; qa: RawQa[] }

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** `1:56 pm on 8 May, 2023` → UTC ms. */
export function parseSessionDate(text: string): number {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) throw new Error(`unreadable LoCoMo session date: ${text}`);
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  if (month < 0) throw new Error(`unreadable month in LoCoMo session date: ${text}`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

function normalizeEvidence(evidence: readonly string[]): string[] {
  const ids = evidence.flatMap((e) => e.split(/[;,]/)).map((e) => e.trim().replace(/^D:/, 'D')).filter(Boolean);
  return [...new Set(ids)];
}

export function locomoAvailable(): boolean {
  return existsSync(LOCOMO_FILE);
}

export function loadLocomo(file: string = LOCOMO_FILE): LocomoConversation[] {
  const samples = JSON.parse(readFileSync(file, 'utf8')) as RawSample[];
  return samples.map((sample) => {
    const turns: LocomoTurn[] = [];
    const sessions = Object.keys(sample.conversation)
      .map((key) => /^session_(\d+)$/.exec(key))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    for (const session of sessions) {
      const sessionDate = String(sample.conversation[`session_${session}_date_time`]);
      const start = parseSessionDate(sessionDate);
      (sample.conversation[`session_${session}`] as RawTurn[]).forEach((turn, i) => {
        turns.push({
          speaker: turn.speaker,
          diaId: turn.dia_id,
          text: turn.text,
          caption: turn.blip_caption ?? null,
          session,
          sessionDate,
          time: start + i * 1000,
        });
      });
    }
    const questions = sample.qa
      .filter((qa) => qa.category >= 1 && qa.category <= 4 && (qa.evidence?.length ?? 0) > 0)
      .map((qa) => ({ question: String(qa.question), category: qa.category, evidence: normalizeEvidence(qa.evidence!) }));
    return { id: sample.sample_id, turns, questions };
  });
}
