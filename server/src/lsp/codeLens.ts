import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnchorKeeper } from '../anchors/anchorKeeper';
import { isShared } from '../team/teamMark';
import { Commands, type CountedMemories } from '../../../contracts/protocol';
import { declarationConstraints, declarationCounts, fileCounts } from './countedMemories';
import type { DocumentDeclarations } from './documentDeclarations';
import type { ProjectRegistry } from './projectRegistry';

export interface CodeLensDeps {
  readonly projects: ProjectRegistry;
  readonly anchors: AnchorKeeper;
  readonly declarations: DocumentDeclarations;
  readonly document: (uri: string) => TextDocument | undefined;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function titleOf(constraints: number, memories: number, candidates = 0): string {
  return [
    constraints ? plural(constraints, 'constraint') : '',
    memories ? plural(memories, 'memory').replace('memorys', 'memories') : '',
    candidates ? `${plural(candidates, 'rule candidate')} to review` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * `shown`: a constraint's id, or what the lens counts, which the panel asks for when it is clicked.
 * `from` says in the panel where the memories came from ("Showing 2 memories from the CodeLens on findCustomer").
 */
function lens(line: number, title: string, uri: string, shown: readonly string[] | CountedMemories, from: string): CodeLens {
  return { range: { start: { line, character: 0 }, end: { line, character: 0 } }, command: { title, command: Commands.showMemories, arguments: [uri, shown, from] } };
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
  const counts = fileCounts(store, file.path);
  const { constraints, candidates, memories } = counts;
  if (!constraints.length && !candidates.length && !memories) return [];
  const lenses: CodeLens[] = [lens(0, `Engram: ${titleOf(constraints.length, memories, candidates.length)}`, uri, { of: 'file' }, 'the CodeLens at the top of the file')];

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
  if (document && (memories || counts.declared.length)) {
    const declarations = await deps.declarations.of(document, file.path);
    const bySymbol = memories ? declarationCounts(store, file.path, declarations.map((decl) => decl.name)) : new Map<string, number>();
    for (const decl of declarations) {
      const count = bySymbol.get(decl.name) ?? 0;
      const symbolConstraints = declarationConstraints(counts, decl.name).length;
      if (!count && !symbolConstraints) continue;
      lenses.push(lens(decl.startLine, titleOf(symbolConstraints, count), uri, { of: 'declaration', name: decl.name }, `the CodeLens on ${decl.name}`));
    }
  }
  return lenses;
}
