import type { Project } from '../project';
import { itemText } from '../recall/contextItem';
import { UnknownMemoryError } from './errors';

/** A memory as an agent would be given it, for the user to paste; copying it is using it (usage). */
export function copyAsContext(project: Pick<Project, 'store' | 'usage'>, id: string, now: number = Date.now()): string {
  const memory = project.store.get(id);
  if (!memory) throw new UnknownMemoryError([id]);
  project.usage.acted(id, now);
  return itemText(memory);
}
