import { readHookLogTail, summarizeHookLog } from '../../hooks/hookLogSummary';
import { hookLogFile } from '../../hooks/hookLog';
import { findNativeBinding, probeSqlite } from '../../store/nativeBinding';
import type { Project } from '../../project';
import type { Command } from '../command';
import { projectOptionSpec, sweepRedactions, withProject } from '../projectOption';
import { explainStoreError, storePlace } from '../../store/storeProblem';
import { checkClaudeFrontDoors } from './doctorClaude';
import { checkTeamHub } from './doctorHub';
import { repairProject } from './doctorRepair';
import { teamFileReport } from './team';
import { describeRuntimeOrigin, runtimeOriginOf } from '../../runtime/runtimeOrigin';
import { canLoadSqlite, MIN_NODE_VERSION } from '../../runtime/runtimeRequirement';

interface Check {
  readonly name: string;
  readonly ok: boolean;
  /** Working, but something the user should know (e.g. transcript lines that were skipped). */
  readonly warning?: boolean;
  readonly detail: string;
}

function checkRuntime(env: NodeJS.ProcessEnv): Check {
  const origin = runtimeOriginOf(env);
  const electron = process.versions.electron ? `, Electron ${process.versions.electron}` : '';
  const detail = `Node ${process.version}${electron} at ${process.execPath}${origin ? ` (${describeRuntimeOrigin(origin)})` : ''}`;
  return canLoadSqlite()
    ? { name: 'runtime', ok: true, detail }
    : { name: 'runtime', ok: false, detail: `${detail}: Engram needs Node.js ${MIN_NODE_VERSION} or newer` };
}

function checkBinding(): Check {
  try {
    const binding = findNativeBinding();
    const { sqliteVersion, fts5 } = probeSqlite(binding);
    return fts5
      ? { name: 'binding', ok: true, detail: `${binding} (SQLite ${sqliteVersion}, FTS5)` }
      : { name: 'binding', ok: false, detail: `${binding} (SQLite ${sqliteVersion}) has no FTS5: full-text recall cannot work` };
  } catch (error) {
    return { name: 'binding', ok: false, detail: (error as Error).message };
  }
}

/** A check that fails with the store's own explanation instead of stopping the doctor (a damaged page, a lock). */
function guarded(name: string, project: Project, env: NodeJS.ProcessEnv, check: () => Check): Check {
  try {
    return check();
  } catch (error) {
    return { name, ok: false, detail: (explainStoreError(error, storePlace(project.databaseFile, env)) as Error).message };
  }
}

function checkIntegrity(project: Project): Check {
  const problems = project.integrityProblems();
  if (!problems.length) return { name: 'integrity', ok: true, detail: "SQLite's integrity check found nothing wrong" };
  const more = problems.length > 1 ? ` (and ${problems.length - 1}${problems.length >= 10 ? ' or more' : ''} other problems)` : '';
  return { name: 'integrity', ok: false, detail: `the database is damaged: ${problems[0]}${more}; \`engram doctor --repair\` rebuilds it with every memory that can be read (the damaged file is kept)` };
}

function checkDatabase(project: Project, env: NodeJS.ProcessEnv): Check[] {
  const checks: Check[] = [
    { name: 'project', ok: true, detail: project.root },
    guarded('database', project, env, () => ({ name: 'database', ok: true, detail: `${project.databaseFile} (schema ${project.store.schemaVersion()})` })),
    guarded('integrity', project, env, () => checkIntegrity(project)),
    guarded('memories', project, env, () => {
      const counts = project.store.counts();
      return {
        name: 'memories',
        ok: true,
        detail: `${counts.byStatus.active} active, ${counts.byStatus.archived} archived, ${counts.byStatus.forgotten} forgotten; ${counts.pinned.hard} hard and ${counts.pinned.soft} soft pins; ${counts.sessions} agent sessions`,
      };
    }),
    guarded('transcripts', project, env, () => checkTranscripts(project)),
  ];
  const deferred = guarded('indexes', project, env, () => {
    const pending = project.deferredIndexes.pending();
    return pending.length
      ? { name: 'indexes', ok: true, warning: true, detail: `${pending.length} indexes an interrupted \`engram import\` set aside are not built yet (${pending.join(', ')}): the memory server or the next \`engram import\` builds them; until then some queries are slower` }
      : { name: 'indexes', ok: true, detail: '' };
  });
  if (!deferred.ok || deferred.detail) checks.push(deferred);
  checks.push(guarded('redaction', project, env, () => checkRedaction(project)));
  for (const notice of project.notices) checks.push({ name: 'notice', ok: true, detail: notice });
  return checks;
}

/** Whether stored texts wait for a sweep by newer redaction rules (store/redactionSweep.ts): a warning, as secrets may be stored. */
function checkRedaction(project: Project): Check {
  const status = project.redactionSweep.status();
  if (!status.pending) return { name: 'redaction', ok: true, detail: `stored texts checked by redaction rules ${status.current}` };
  const checked = status.checkedBy ? `redaction rules ${status.checkedBy}` : 'no recorded redaction rules';
  const underWay = status.underWay ? `; a sweep is under way (${status.underWay.phase}, ${status.underWay.rewritten} texts rewritten so far)` : '';
  const backup = status.backup ? `; ${status.backup} holds the texts as they were until it ends` : '';
  return {
    name: 'redaction',
    ok: true,
    warning: true,
    detail:
      `stored texts were checked by ${checked}, not ${status.current}: they may hold secrets today's rules know${underWay}${backup}; ` +
      'the memory server and the next `engram` command sweep them, `engram doctor --repair` now',
  };
}

/** Transcript lines that could not be read were skipped (never fatal); say which files had them. */
function checkTranscripts(project: Project): Check {
  const offsets = project.ingestOffsets.all();
  const damaged = offsets.filter((o) => o.malformedLines > 0);
  const read = `${offsets.length} Claude Code transcripts read`;
  if (!damaged.length) return { name: 'transcripts', ok: true, detail: `${read}, no malformed lines` };
  const total = damaged.reduce((sum, o) => sum + o.malformedLines, 0);
  const files = damaged.slice(0, 5).map((o) => `${o.path} (${o.malformedLines})`).join(', ');
  const more = damaged.length > 5 ? ` and ${damaged.length - 5} more` : '';
  return { name: 'transcripts', ok: true, warning: true, detail: `${read}; ${total} malformed lines skipped in ${files}${more}` };
}

/**
 * Hooks fail open (exit 0, no output), so a broken hook is silent in Claude Code: the doctor is
 * where it shows. A warning, not a failure: the memory itself still works.
 */
function checkHooks(env: NodeJS.ProcessEnv): Check {
  const summary = summarizeHookLog(readHookLogTail(env), Date.now());
  if (!summary.runs) return { name: 'hooks', ok: true, detail: `no Claude Code hook ran in the last 7 days (log: ${hookLogFile(env)}); \`engram connect claude\` sets them up` };
  const outcomes = Object.entries(summary.byOutcome).map(([outcome, n]) => `${n} ${outcome}`).join(', ');
  const detail = `${summary.runs} hook runs in the last 7 days (${outcomes}), median ${summary.medianMs} ms, last at ${summary.lastRun}`;
  if (!summary.failures) return { name: 'hooks', ok: true, detail };
  return { name: 'hooks', ok: true, warning: true, detail: `${detail}; ${summary.failures} gave Claude Code nothing, the last: ${summary.lastFailure} (log: ${hookLogFile(env)})` };
}

/** The team file's problems by line: a warning, since every good line applies (docs/team.md). */
function checkTeamFile(project: Project): Check {
  const { summary, problems } = teamFileReport(project);
  if (!problems.length) return { name: 'team', ok: true, detail: summary };
  const more = problems.length > 3 ? `; and ${problems.length - 3} more (\`engram team status\`)` : '';
  return { name: 'team', ok: true, warning: true, detail: `${summary}; ${problems.slice(0, 3).join('; ')}${more}` };
}

function sweepCheck(project: Project, io: Parameters<typeof sweepRedactions>[1]): Check {
  try {
    return { name: 'sweep', ok: true, detail: sweepRedactions(project, io) ?? 'no stored text holds a secret the redaction rules know' };
  } catch (error) {
    return { name: 'sweep', ok: false, detail: (explainStoreError(error, storePlace(project.databaseFile, io.env)) as Error).message };
  }
}

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'check the runtime, the SQLite binding and the project database (--repair: rebuild a damaged one, sweep stored texts for secrets newer rules know); exit 1 when something is wrong',
  usage: '[--json] [--runtime] [--repair]',
  // --runtime: only whether this runtime can run Engram (the extension asks it of each candidate).
  // --repair: first rebuild a database whose integrity check fails, with every memory that can be read.
  options: { ...projectOptionSpec, json: { type: 'boolean' }, runtime: { type: 'boolean' }, repair: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  async run(args, io) {
    const checks: Check[] = [checkRuntime(io.env), checkBinding()];
    if (args.values.runtime) return report(checks, args.values.json === true, io);
    if (checks.every((c) => c.ok)) {
      if (args.values.repair) {
        try {
          checks.push({ name: 'repair', ok: true, detail: repairProject(args, io) });
        } catch (error) {
          checks.push({ name: 'repair', ok: false, detail: (error as Error).message });
        }
      }
      try {
        const repair = args.values.repair === true;
        checks.push(
          ...(await withProject(
            args,
            io,
            async (project) => [
              ...(repair ? [sweepCheck(project, io)] : []),
              ...checkDatabase(project, io.env),
              guarded('team', project, io.env, () => checkTeamFile(project)),
              await checkTeamHub(project, io),
              checkClaudeFrontDoors(project.root, io.env),
            ],
            // The doctor reports a sweep that is due; --repair runs it.
            { sweep: false },
          )),
        );
      } catch (error) {
        checks.push({ name: 'database', ok: false, detail: (error as Error).message });
      }
    }
    checks.push(checkHooks(io.env));
    return report(checks, args.values.json === true, io);
  },
};

function report(checks: readonly Check[], json: boolean, io: { out: (text: string) => void }): number {
  const ok = checks.every((c) => c.ok);
  if (json) {
    io.out(`${JSON.stringify({ ok, checks })}\n`);
  } else {
    for (const check of checks) io.out(`${check.ok ? (check.warning ? '!' : '✓') : '✗'} ${check.name.padEnd(11)} ${check.detail}\n`);
    io.out(ok ? 'Engram is healthy.\n' : 'Engram is NOT working: see the ✗ lines above.\n');
  }
  return ok ? 0 : 1;
}
