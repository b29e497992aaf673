import { compact, type CompactionReport } from '../../capacity/compact';
import { capacitySettingsSchema } from '../../capacity/settings';
import { integerOption, UsageError, type Command } from '../command';
import { projectOptionSpec, withProject } from '../projectOption';

const MAX_COUNT = 1_000_000_000;

export const compactCommand: Command = {
  name: 'compact',
  summary: 'consolidate old diffs into summaries, then archive the lowest-value memories above the high mark',
  usage: '[--high N] [--low N] [--consolidate-days D] [--min-group N] [--dry-run] [--json]',
  options: {
    ...projectOptionSpec,
    high: { type: 'string' },
    low: { type: 'string' },
    'consolidate-days': { type: 'string' },
    'min-group': { type: 'string' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  positionals: { min: 0, max: 0 },
  run(args, io) {
    const parsed = capacitySettingsSchema.safeParse({
      high: integerOption(args, 'high', { min: 1, max: MAX_COUNT }),
      low: integerOption(args, 'low', { min: 0, max: MAX_COUNT }),
      consolidateAfterDays: integerOption(args, 'consolidate-days', { min: 1, max: 36_500 }),
      consolidateMinGroup: integerOption(args, 'min-group', { min: 2, max: MAX_COUNT }),
    });
    if (!parsed.success) throw new UsageError(`--low must not be above --high`);
    return withProject(args, io, async (project) => {
      const report = compact(project, parsed.data, { dryRun: args.values['dry-run'] === true });
      if (args.values.json) {
        io.out(`${JSON.stringify(asJson(report))}\n`);
        return 0;
      }
      io.out(describe(report));
      return 0;
    });
  },
};

function asJson(report: CompactionReport) {
  return {
    dryRun: report.dryRun,
    consolidation: {
      archived: report.consolidation.archived,
      summaries: report.consolidation.groups.map((g) => ({
        ...(report.dryRun ? {} : { id: g.summary.id }),
        title: g.summary.title,
        file: g.file,
        symbol: g.symbol,
        sources: g.sources,
      })),
    },
    watermarks: { ...report.watermarks, archived: report.watermarks.archived.length, archivedIds: report.watermarks.archived },
  };
}

function describe(report: CompactionReport): string {
  const would = (done: string, planned: string) => (report.dryRun ? planned : done);
  const lines: string[] = [];
  const { groups, archived } = report.consolidation;
  if (groups.length === 0) {
    lines.push('No old diffs to consolidate.');
  } else {
    lines.push(`${would('Consolidated', 'Would consolidate')} ${count(archived, 'old diff memory', 'old diff memories')} into ${count(groups.length, 'summary', 'summaries')}:`);
    for (const g of groups) lines.push(`  ${report.dryRun ? '' : `${g.summary.id}  `}${g.summary.title}`);
  }
  const w = report.watermarks;
  if (w.archived.length === 0) {
    lines.push(`${count(w.activeBefore, 'active memory', 'active memories')}, within the high mark of ${n(w.high)}: nothing to archive.`);
  } else {
    lines.push(
      `${count(w.activeBefore, 'active memory', 'active memories')}, above the high mark of ${n(w.high)}: ` +
        `${would('archived', 'would archive')} the ${n(w.archived.length)} of lowest value, leaving ${n(w.activeAfter)} (low mark ${n(w.low)}).`,
    );
    if (w.shortfall > 0) lines.push(`  ${n(w.shortfall)} above the low mark: the rest are hard-pinned, and hard pins are never archived.`);
  }
  if (w.archived.length > 0 || archived > 0) {
    lines.push('Archived memories are still found by `engram recall --archived`; `engram restore ID…` brings one back (`--json` lists the ids).');
  }
  if (report.dryRun) lines.push('Dry run: nothing was changed.');
  return `${lines.join('\n')}\n`;
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}

function count(value: number, one: string, many: string): string {
  return `${n(value)} ${value === 1 ? one : many}`;
}
