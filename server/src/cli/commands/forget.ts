import { archive, forget, restore, type StatusChange } from '../../actions/status';
import type { MemoryStatus } from '../../memory/types';
import type { Project } from '../../project';
import type { Command } from '../command';
import { projectOptionSpec, withProject } from '../projectOption';
import { lifecycleStep, memoryLine } from './lifecycleOutput';

interface StatusCommandSpec {
  readonly name: 'forget' | 'restore' | 'archive';
  readonly summary: string;
  readonly change: (project: Project, ids: readonly string[]) => StatusChange;
  /** "Forgot", "Restored", "Archived". */
  readonly done: string;
}

const UNCHANGED: Readonly<Record<MemoryStatus, string>> = { active: 'is already active', archived: 'is already archived', forgotten: 'was already forgotten' };

function statusCommand(spec: StatusCommandSpec): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: '[--json] ID…',
    options: { ...projectOptionSpec, json: { type: 'boolean' } },
    positionals: { min: 1, max: Infinity },
    run(args, io) {
      return withProject(args, io, async (project) => {
        const result = lifecycleStep(project, () => spec.change(project, args.positionals));
        if (args.values.json) {
          io.out(`${JSON.stringify({
            status: result.to,
            changed: result.changed.map((m) => ({ id: m.id, kind: m.kind, title: m.title, from: m.status })),
            unchanged: result.unchanged.map((m) => ({ id: m.id, status: m.status })),
          })}\n`);
          return 0;
        }
        for (const memory of result.changed) io.out(`${spec.done} ${memoryLine(memory)}${result.to === 'active' ? ` (was ${memory.status})` : ''}\n`);
        for (const memory of result.unchanged) io.out(`${memory.id} ${UNCHANGED[memory.status]}\n`);
        if (result.to !== 'active' && result.changed.length > 0) io.out(`Undo: engram restore ${result.changed.map((m) => m.id).join(' ')}\n`);
        return 0;
      });
    },
  };
}

export const forgetCommand = statusCommand({
  name: 'forget',
  summary: 'forget memories: out of recall and context, kept until purged (undo: engram restore)',
  change: (project, ids) => forget(project, ids),
  done: 'Forgot',
});

export const restoreCommand = statusCommand({
  name: 'restore',
  summary: 'bring forgotten or archived memories back to active',
  change: (project, ids) => restore(project, ids),
  done: 'Restored',
});

export const archiveCommand = statusCommand({
  name: 'archive',
  summary: 'archive memories: out of automatic context, still found by search (hard pins refused)',
  change: (project, ids) => archive(project, ids),
  done: 'Archived',
});
