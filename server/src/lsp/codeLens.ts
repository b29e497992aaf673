import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import { Commands } from '../protocol';
import type { ProjectRegistry } from './projectRegistry';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * One lens at the top of a file that has constraints ("Engram: 2 constraints"), and one above
 * each pinned selection, naming its rule.
 */
export function provideCodeLenses(projects: ProjectRegistry, params: CodeLensParams): CodeLens[] {
  const uri = params.textDocument.uri;
  const file = projects.fileFor(uri);
  if (!file) return [];
  const constraints = file.project.store.constraintsForFile(file.path);
  if (constraints.length === 0) return [];
  const top: CodeLens = {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    command: {
      title: `Engram: ${plural(constraints.length, 'constraint')}`,
      command: Commands.showMemories,
      arguments: [uri, constraints.map((c) => c.id)],
    },
  };
  const anchored = constraints
    .filter((c) => c.anchor?.path === file.path)
    .map((c): CodeLens => {
      const line = c.anchor!.range.startLine;
      const label = c.anchor!.stale ? 'stale constraint' : c.pin === 'none' ? 'constraint' : `${c.pin} constraint`;
      return {
        range: { start: { line, character: 0 }, end: { line, character: 0 } },
        command: { title: `$(pin) ${label}: ${c.title}`, command: Commands.showMemories, arguments: [uri, [c.id]] },
      };
    });
  return [top, ...anchored];
}
