import type { Hover, HoverParams } from 'vscode-languageserver';
import { rangeContainsLine } from '../anchors/anchorFromText';
import type { ProjectRegistry } from './projectRegistry';
import { constraintMarkdown } from './constraintText';

/** Hover on code governed by anchored constraints: each constraint, hard pins first. */
export function provideHover(projects: ProjectRegistry, params: HoverParams): Hover | null {
  const file = projects.fileFor(params.textDocument.uri);
  if (!file) return null;
  const governing = file.project.store
    .constraintsForFile(file.path)
    .filter((c) => c.anchor && c.anchor.path === file.path && rangeContainsLine(c.anchor.range, params.position.line));
  if (governing.length === 0) return null;
  return {
    contents: { kind: 'markdown', value: governing.map((c) => constraintMarkdown(c)).join('\n\n---\n\n') },
  };
}
