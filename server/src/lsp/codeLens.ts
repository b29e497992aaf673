import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnchorKeeper } from '../anchors/anchorKeeper';
import { keptGoverningConstraints } from '../constraints/governing';
import { isRuleCandidate } from '../memory/ruleCandidate';
import { isShared } from '../team/teamMark';
import { editorMemoryCache } from './editorMemoryCache';
import { Commands } from '../../../contracts/protocol';
import type { DocumentDeclarations } from './documentDeclarations';
import type { ProjectRegistry } from './projectRegistry';

export interface CodeLensDeps {
  readonly projects: ProjectRegistry;
  readonly anchors: AnchorKeeper;
  readonly declarations: DocumentDeclarations;
  readonly document: (uri: string) => TextDocument | undefined;
}

/** Memories a lens names (the newest), for the panel to show; its counts are exact. */
const FILE_MEMORIES = 500;
/** The same above a declaration: dozens of lenses per file each carry their ids to VS Code. */
const SYMBOL_MEMORIES = 50;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function counts(constraints: number, memories: number, candidates = 0): string {
  return [
    constraints ? plural(constraints, 'constraint') : '',
    memories ? plural(memories, 'memory').replace('memorys', 'memories') : '',
    candidates ? `${plural(candidates, 'rule candidate')} to review` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** `from` says in the panel where the memories came from ("Showing 2 memories from the CodeLens on findCustomer"). */
function lens(line: number, title: string, uri: string, ids: readonly string[], from: string): CodeLens {
  return { range: { start: { line, character: 0 }, end: { line, character: 0 } }, command: { title, command: Commands.showMemories, arguments: [uri, ids, from] } };
}

/**
 * CodeLenses: at the top of a file, "Engram: 2 constraints · 7 memories" (everything that
 * applies to it); above each declaration with memories, its own counts; above each pinned
 * selection, its rule (where it is now, following unsaved edits), and stale pins at the top.
 */
export async function provideCodeLenses(deps: CodeLensDeps, params: CodeLensParams): Promise<CodeLens[]> {
  const uri = params.textDocument.uri;
  const file = deps.projects.fileFor(uri);
  if (!file) return [];
  const store = file.project.store;
  const cache = editorMemoryCache(store);
  const governing = keptGoverningConstraints(store, file.path);
  // Candidates are not rules until a person accepts them: counted apart at the top, never shown as a rule.
  const constraints = governing.filter((c) => !isRuleCandidate(c));
  const candidates = governing.filter(isRuleCandidate);
  const memories = cache.get(`tally:${file.path}`, () => store.fileMemoryTally(file.path, FILE_MEMORIES));
  if (!governing.length && !memories.total) return [];
  const ids = [...constraints, ...candidates].map((c) => c.id);
  const lenses: CodeLens[] = [
    lens(0, `Engram: ${counts(constraints.length, memories.total, candidates.length)}`, uri, [...ids, ...memories.recentIds], 'the CodeLens at the top of the file'),
  ];

  const live = deps.anchors.liveAnchors(uri);
  for (const c of constraints) {
    if (!c.anchor || c.anchor.path !== file.path) continue;
    const current = live?.get(c.id);
    const stale = current ? current.stale : c.anchor.stale;
    const line = stale ? 0 : current ? current.span.start : c.anchor.range.startLine;
    const label = `${stale ? 'stale constraint (its code is gone)' : c.pin === 'none' ? 'constraint' : `${c.pin} constraint`}${isShared(c) ? ' · team' : ''}`;
    lenses.push(lens(line, `$(pin) ${label}: ${c.title}`, uri, [c.id], stale ? 'the CodeLens of a stale constraint' : 'the CodeLens above the pinned code'));
  }

  const document = deps.document(uri);
  const fileConstraints = constraints.filter((c) => c.files.includes(file.path) && c.symbols.length);
  if (document && (memories.total || fileConstraints.length)) {
    const declarations = await deps.declarations.of(document, file.path);
    const names = declarations.map((decl) => decl.name);
    const bySymbol = memories.total ? cache.get(`symbols:${file.path}:${names.join('\n')}`, () => store.symbolMemoryTally(file.path, names, SYMBOL_MEMORIES)) : new Map();
    for (const decl of declarations) {
      const ofSymbol = bySymbol.get(decl.name);
      const symbolConstraints = fileConstraints.filter((c) => c.symbols.includes(decl.name));
      if (!ofSymbol && !symbolConstraints.length) continue;
      const ids = [...symbolConstraints.map((c) => c.id), ...(ofSymbol?.ids ?? [])];
      lenses.push(lens(decl.startLine, counts(symbolConstraints.length, ofSymbol?.count ?? 0), uri, ids, `the CodeLens on ${decl.name}`));
    }
  }
  return lenses;
}
