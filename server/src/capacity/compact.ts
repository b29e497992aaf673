import type { Project } from '../project';
import { consolidateDiffs, type ConsolidationReport } from './consolidate';
import type { CapacitySettings } from './settings';
import { enforceWatermarks, type WatermarkReport } from './watermarks';

export interface CompactionReport {
  /** True when nothing was changed: the report says what would have happened. */
  readonly dryRun: boolean;
  readonly consolidation: ConsolidationReport;
  readonly watermarks: WatermarkReport;
}

/**
 * Keeps a project's active memories within capacity: consolidates old diffs first (which alone
 * may bring the count under the high mark), then enforces the watermarks. A dry run does the
 * consolidation inside a transaction it rolls back, and ranks what the watermarks would archive
 * after it, so its report is what a real run would do now.
 */
export function compact(project: Pick<Project, 'store' | 'lifecycle'>, settings: CapacitySettings, options: { now?: number; dryRun?: boolean } = {}): CompactionReport {
  const now = options.now ?? Date.now();
  const dryRun = options.dryRun ?? false;
  const run = () => {
    const consolidation = consolidateDiffs(project, settings.consolidation, now);
    return { consolidation, watermarks: enforceWatermarks(project, settings.watermarks, now, { dryRun }) };
  };
  return { dryRun, ...(dryRun ? project.lifecycle.rehearse(run) : run()) };
}
