import type { Hover, HoverParams } from 'vscode-languageserver';
import { governsLine } from './governsLine';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnchorKeeper } from '../anchors/anchorKeeper';
import { keptGoverningConstraints } from '../constraints/governing';
import type { Memory } from '../memory/types';
import { recall } from '../recall/recall';
import { isRuleCandidate } from '../memory/ruleCandidate';
import { Commands } from '../../../contracts/protocol';
import { MEMORY_SELECTION_MAX } from '../../../contracts/viewProtocol';
import { editorMemoryCache } from './editorMemoryCache';
import { describeAge } from '../memory/age';
import { constraintMarkdown, escapeMarkdown } from './constraintText';
import { isShared } from '../team/teamMark';
import type { DocumentDeclarations } from './documentDeclarations';
import type { ProjectRegistry } from './projectRegistry';

const TOP_MEMORIES = 3;
/**
 * Constraints a hover writes out (hard pins first); the rest are named in one link to the panel.
 * A busy declaration of 1,000,000 memories has dozens, a hover taller than the editor.
 */
const HOVER_CONSTRAINTS = 5;

export interface HoverDeps {
  readonly projects: ProjectRegistry;
  readonly anchors: AnchorKeeper;
  readonly declarations: DocumentDeclarations;
  readonly document: (uri: string) => TextDocument | undefined;
}

function commandLink(title: string, command: string, args: readonly unknown[]): string {
  return `[${title}](command:${command}?${encodeURIComponent(JSON.stringify(args))})`;
}

function memoryLine(memory: Memory, uri: string, from: string, now: number): string {
  const why = memory.why ? ` — _why:_ ${escapeMarkdown(memory.why.length > 200 ? `${memory.why.slice(0, 199)}…` : memory.why)}` : '';
  // "team": in the project's team file, for every clone (docs/team.md), as constraints say it.
  const team = isShared(memory) ? ' · team' : '';
  return `- **${memory.kind}${team}** · ${escapeMarkdown(memory.title)}${why} · _${describeAge(memory.updatedAt, now)}_ ${commandLink('open', Commands.showMemories, [uri, [memory.id], from])}`;
}

/**
 * What a first hover on a document would wait for, done when it opens: its declarations parsed
 * (the parser's first load and a whole-file parse, ~300 ms on a large file) and the rules that
 * govern the file read (~100 ms for a busy file of 1,000,000 memories).
 */
export async function prepareHover(deps: HoverDeps, document: TextDocument): Promise<void> {
  const file = deps.projects.fileFor(document.uri);
  if (!file) return;
  await deps.declarations.of(document, file.path);
  keptGoverningConstraints(file.project.store, file.path);
}

/**
 * Hover on code governed by constraints (pinned code under the cursor, or the symbol it is in):
 * each constraint with rule, scope, pin, age and origin, and links to open or unpin it (the first
 * five, then one link to the rest); then the
 * top three memories of the symbol under the cursor with their why. Constraints that apply to
 * the whole file, a glob or the project show in the file's CodeLens, not on every line.
 */
export async function provideHover(deps: HoverDeps, params: HoverParams, now: number = Date.now()): Promise<Hover | null> {
  const uri = params.textDocument.uri;
  const file = deps.projects.fileFor(uri);
  const document = deps.document(uri);
  if (!file || !document) return null;
  const line = params.position.line;
  const symbol = await deps.declarations.symbolAt(document, file.path, line);
  const live = deps.anchors.liveAnchors(uri);
  const { store, recallWeights } = file.project;
  const cache = editorMemoryCache(store);
  const governing = keptGoverningConstraints(store, file.path).filter((c) => governsLine(c, line, symbol, live));
  // The memories of the symbol, whichever of its lines the cursor is on: cached per symbol.
  const memories = symbol
    ? cache.getRanked(`symbol:${file.path}:${symbol}`, () =>
        recall(store, { file: file.path, symbol, limit: 12 }, { weights: recallWeights, now })
          .filter((r) => r.memory.kind !== 'constraint' && r.memory.symbols.some((s) => s === symbol || symbol.startsWith(`${s}.`) || s.startsWith(`${symbol}.`)))
          .slice(0, TOP_MEMORIES),
      )
    : [];
  if (!governing.length && !memories.length) return null;

  const sections: string[] = [];
  for (const constraint of governing.slice(0, HOVER_CONSTRAINTS)) {
    const actions = [commandLink('Open in panel', Commands.showMemories, [uri, [constraint.id], `the hover on line ${line + 1}`])];
    // Accepting pins it, as the panel's Accept and `engram pin` do (actions/pin.ts).
    if (isRuleCandidate(constraint)) actions.unshift(commandLink('Accept as a rule', Commands.acceptRule, [uri, constraint.id]));
    if (constraint.pin !== 'none') actions.push(commandLink('Unpin', Commands.unpin, [uri, constraint.id]));
    sections.push(`${constraintMarkdown(constraint, now)}\n\n${actions.join(' · ')}`);
  }
  const more = governing.slice(HOVER_CONSTRAINTS);
  if (more.length) {
    const ids = more.slice(0, MEMORY_SELECTION_MAX).map((c) => c.id);
    sections.push(`${more.length === 1 ? '1 more constraint applies' : `${more.length} more constraints apply`} here · ${commandLink('Open them in panel', Commands.showMemories, [uri, ids, `the hover on line ${line + 1}`])}`);
  }
  if (memories.length) {
    sections.push([`**Engram · memories of \`${escapeMarkdown(symbol!)}\`**`, '', ...memories.map((r) => memoryLine(r.memory, uri, `the hover on ${symbol}`, now))].join('\n'));
  }
  return { contents: { kind: 'markdown', value: sections.join('\n\n---\n\n') } };
}
