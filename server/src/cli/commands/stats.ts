import type { Command } from '../command';
import { projectOptionSpec, withProject } from '../projectOption';

export const statsCommand: Command = {
  name: 'stats',
  summary: 'memory counts by kind, status and pin',
  usage: '[--json]',
  options: { ...projectOptionSpec, json: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  run(args, io) {
    return withProject(args, io, async (project) => {
      const counts = project.store.counts();
      const stats = { project: project.root, databaseFile: project.databaseFile, schemaVersion: project.store.schemaVersion(), ...counts };
      if (args.values.json) {
        io.out(`${JSON.stringify(stats)}\n`);
        return 0;
      }
      io.out(`${project.root}\n  database  ${project.databaseFile}\n  memories  ${counts.total} (${counts.byStatus.active} active)\n`);
      for (const [kind, n] of Object.entries(counts.byKind)) if (n) io.out(`    ${kind.padEnd(10)} ${n}\n`);
      io.out(`  pinned    ${counts.pinned.hard} hard, ${counts.pinned.soft} soft\n`);
      return 0;
    });
  },
};
