import type { NewMemory } from '../memory/types';
import type { Project } from '../project';
import { decisionStatements } from './extract/decisionStatements';
import { mentionedFiles } from './extract/mentionedFiles';
import { ruleStatements } from './extract/ruleStatements';
import type { Compaction, OpenFailure } from './readerState';
import type { SliceWrites } from './sliceWrites';

/**
 * The memories a transcript yields besides diffs: prompts (intent), constraint and decision
 * candidates, gotchas and compaction summaries. Each has a `sourceRef` derived from the record
 * it came from, so reading a transcript again adds nothing twice.
 */

const PROMPT_BODY_MAX = 4000;
const TITLE_MAX = 100;
const SUMMARY_BODY_MAX = 20_000;

/** Text cut to `max` characters, flattened; cut only text already redacted (a secret cut in two is not recognized). */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface RecordOrigin {
  readonly uuid: string;
  readonly sessionId: string;
  readonly at: number;
}

export class TranscriptMemories {
  /** New memories written so far. */
  added = 0;

  constructor(
    private readonly project: Project,
    /** Where the memories go: stored when the slice they were read in ends. */
    private readonly writes: SliceWrites,
  ) {}

  /** Adds a memory, when the slice ends, unless one with the same `sourceRef` exists (a second read of the same record). */
  private addOnce(memory: NewMemory & { readonly sourceRef: string }, at: number): void {
    this.writes.hold((slice) => {
      if (slice.has(memory.sourceRef)) return;
      this.added++;
      slice.add(memory, at);
    });
  }

  /** Prompts Claude Code writes itself (slash commands, their output, caveats) are not the user's words. */
  static isUserPrompt(text: string): boolean {
    const t = text.trimStart();
    return t.length > 0 && !/^<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr|user-memory-input)>/.test(t) && !t.startsWith('Caveat: The messages below');
  }

  /**
   * A typed prompt: a low-weight intent memory, plus a constraint or decision candidate per rule
   * or choice it states. `text` is redacted already (the reader keeps it as the turn's prompt):
   * redacted before anything is cut from it, since a cut secret is not recognized.
   */
  prompt(text: string, origin: RecordOrigin): void {
    const files = mentionedFiles(text, this.project.root);
    this.addOnce(
      {
        kind: 'intent',
        title: `Asked: ${shorten(text, TITLE_MAX)}`,
        body: cap(text, PROMPT_BODY_MAX),
        source: 'claude',
        sessionId: origin.sessionId,
        sourceRef: `claude:${origin.uuid}`,
        importance: 0.15,
        files,
      },
      origin.at,
    );
    ruleStatements(text).forEach((rule, i) => {
      this.addOnce(
        {
          kind: 'constraint',
          title: shorten(rule, TITLE_MAX),
          body: rule,
          why: `Stated by the user in a Claude Code prompt: "${shorten(text, 300)}"`,
          source: 'claude',
          sessionId: origin.sessionId,
          sourceRef: `claude:${origin.uuid}#constraint-${i}`,
          importance: 0.6,
          // A candidate: shown and recalled, but not pinned until the user or the agent pins it.
          pin: 'none',
          files: mentionedFiles(rule, this.project.root).length ? mentionedFiles(rule, this.project.root) : files,
          meta: { candidate: true, extractor: 'rule-statement' },
        },
        origin.at,
      );
    });
    this.decisions(text, 'user', origin, files);
  }

  /** The files a turn's prompt names: what the turn's decisions are about when they name none. */
  promptFiles(prompt: string | null): string[] {
    return prompt ? mentionedFiles(prompt, this.project.root) : [];
  }

  /**
   * Choices stated with their reason, by the user or the assistant; `turnFiles` when the choice names
   * no file. `text` is redacted already, as a whole: a statement cut from it alone may have lost what
   * told its secret (the store redacts each memory again on its way in).
   */
  decisions(text: string, by: 'user' | 'assistant', origin: RecordOrigin, turnFiles: readonly string[] = []): void {
    decisionStatements(text).forEach((decision, i) => {
      this.addOnce(
        {
          kind: 'decision',
          title: shorten(decision, TITLE_MAX),
          body: decision,
          why: by === 'user' ? 'Stated by the user in a Claude Code prompt.' : 'Stated by Claude in a Claude Code session.',
          source: 'claude',
          sessionId: origin.sessionId,
          sourceRef: `claude:${origin.uuid}#decision-${i}`,
          importance: 0.6,
          files: mentionedFiles(decision, this.project.root).length ? mentionedFiles(decision, this.project.root) : [...turnFiles],
          meta: { candidate: true, extractor: 'decision-statement', by },
        },
        origin.at,
      );
    });
  }

  /** A failure and the later success of the same command or file: "X failed with …; fixed by …". */
  gotcha(failure: OpenFailure, success: { readonly summary: string; readonly files: readonly string[] }, origin: RecordOrigin): void {
    const firstLine = failure.error.split('\n').find((l) => l.trim()) ?? failure.error;
    const fixedBy = fixDescription(failure, success.summary);
    this.addOnce(
      {
        kind: 'gotcha',
        title: shorten(`${failure.summary} failed with "${shorten(firstLine, 80)}"; fixed by ${fixedBy}`, 160),
        body: [
          `Failed: ${failure.summary}${failure.exitCode === null ? '' : ` (exit code ${failure.exitCode})`}`,
          failure.error,
          failure.after.length ? `Then: ${failure.after.join('; ')}` : '',
          `Succeeded: ${success.summary}`,
        ]
          .filter(Boolean)
          .join('\n'),
        source: 'claude',
        sessionId: origin.sessionId,
        sourceRef: `claude:${origin.uuid}#gotcha`,
        importance: 0.55,
        files: [...new Set([...failure.files, ...success.files])],
        meta: { failedRecord: failure.uuid, exitCode: failure.exitCode, extractor: 'failure-then-success' },
      },
      origin.at,
    );
  }

  /** A compaction summary, tied to its session and its boundary so "what was lost here" can be shown. */
  compactionSummary(text: string, compaction: Compaction | null, origin: RecordOrigin): void {
    const summary = summaryText(this.project.redactor.text(text));
    const tokens = compaction?.preTokens && compaction.postTokens ? `, ${kTokens(compaction.preTokens)} → ${kTokens(compaction.postTokens)} tokens` : '';
    this.addOnce(
      {
        kind: 'summary',
        title: `Context compacted (${compaction?.trigger ?? 'unknown trigger'}${tokens}): ${shorten(summary, 80)}`,
        body: cap(summary, SUMMARY_BODY_MAX),
        source: 'claude',
        sessionId: origin.sessionId,
        sourceRef: `claude:${origin.uuid}`,
        importance: 0.5,
        files: mentionedFiles(summary, this.project.root),
        meta: { compaction: compaction ? { boundaryUuid: compaction.uuid, at: compaction.at, trigger: compaction.trigger, preTokens: compaction.preTokens, postTokens: compaction.postTokens } : null },
      },
      origin.at,
    );
  }
}

function kTokens(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
}

function fixDescription(failure: OpenFailure, successSummary: string): string {
  const edits = failure.after.filter((a) => /^(?:Edit|Write|MultiEdit|NotebookEdit) /.test(a)).map((a) => a.replace(/^\S+ /, ''));
  if (edits.length) return `editing ${[...new Set(edits)].slice(0, 3).join(', ')}`;
  if (failure.after.length) return `running ${failure.after.slice(-1)[0]} first`;
  return successSummary === failure.summary ? 'retrying' : successSummary;
}

/** The summary itself, without Claude Code's framing around it. */
export function summaryText(text: string): string {
  const start = text.indexOf('Summary:');
  let body = start >= 0 ? text.slice(start + 'Summary:'.length) : text;
  const tail = body.search(/\n\s*If you need specific details from before compaction/);
  if (tail >= 0) body = body.slice(0, tail);
  return body.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim() || text.trim();
}
