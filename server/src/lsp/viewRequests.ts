import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { z } from 'zod';
import type { AnchorKeeper } from '../anchors/anchorKeeper';
import type { ActionResult } from '../actions/actionResult';
import { copyAsContext } from '../actions/copy';
import { editMemory } from '../actions/edit';
import { ActionRefusal, UnknownMemoryError } from '../actions/errors';
import { pinMemory } from '../actions/pin';
import { shareMemoryWithTeam, unshareMemoryFromTeam } from '../actions/share';
import { archive, forget, restore } from '../actions/status';
import { keptGoverningConstraints } from '../constraints/governing';
import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { TeamFileError } from '../team/shareMemory';
import { isShared } from '../team/teamMark';
import { agentSessionsParamsSchema, memoryActionSchema, memoryRefSchema, memorySelectionParamsSchema, projectRootSchema, timelinePageParamsSchema, timelineSearchParamsSchema, TIMELINE_SEARCH_MAX } from '../../../contracts/viewSchemas';
import { answerRecall, RecallInputError } from '../recall/answerRecall';
import { fileDeclarations, languageForPath } from '../symbols';
import {
  AgentSessionsRequest,
  LocateSymbolRequest,
  MemoryActionRequest,
  MemoryDetailRequest,
  MemoryDiffRequest,
  MEMORY_SELECTION_MAX,
  MemoryPanelRequest,
  MemorySelectionRequest,
  TIMELINE_STATUSES,
  TimelinePageRequest,
  TimelineSearchRequest,
  type MemoryActionResult,
  type MemoryPanel,
  type MemorySelection,
  type PanelConstraint,
  type SessionInfo,
  type TimelineEntry,
  type TimelineFilter,
  type TimelinePage,
  type TimelineSearch,
  type ViewMemory,
} from '../../../contracts/viewProtocol';
import type { CodeLensDeps } from './codeLens';
import { countedMemoryIds } from './countedMemories';
import { governsLine } from './governsLine';
import { patchSides } from './patchSides';
import { searchTeamForTimeline, type HubSearchAccess } from './timelineTeamSearch';
import type { MemoryChangeWatch } from './memoryChangeWatch';
import { viewMemory } from './viewMemory';

const PANEL_MEMORIES = 10;
const PANEL_SESSIONS = 5;
/**
 * Constraints the panel lists besides those at the cursor: at 1,000,000 memories a busy file has
 * ~1,200, ~900 KB of cards every time the cursor moved, for a list no one reads to the end.
 */
const PANEL_OTHER_CONSTRAINTS = 20;
const SESSIONS_MAX = 200;
/** How often to look for memory changes to announce (writes by this server or any other process). */

const position = z.object({ line: z.number().int().min(0), character: z.number().int().min(0) });
const projectRoot = projectRootSchema;
const memoryRef = memoryRefSchema;

const panelParams = z.object({ uri: z.string().min(1), position: position.optional(), openUris: z.array(z.string()).max(100).optional() });

const pageParams = timelinePageParamsSchema;
const searchParams = timelineSearchParamsSchema;
const actionParams = memoryRef.extend({ action: memoryActionSchema });
const locateParams = z.object({ projectRoot, path: z.string().min(1).max(4096), symbol: z.string().min(1).max(1000) });

function parse<T>(schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw new ResponseError(ErrorCodes.InvalidParams, parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; '));
}

/** A project-relative path as given by a user in a filter box: '/'-separated, no leading './' or '/', no trailing '/'. */
function normalizedPath(input: string | undefined): string | undefined {
  const cleaned = input?.trim().replace(/\\/g, '/').replace(/^\.\/+/, '').replace(/^\/+|\/+$/g, '');
  return cleaned || undefined;
}

/** A constraint as the panel shows it: where its pinned code is now (following unsaved edits), or stale. */
function panelConstraint(memory: Memory, atCursor: boolean, live: ReturnType<AnchorKeeper['liveAnchors']>): PanelConstraint {
  const current = memory.anchor ? live?.get(memory.id) : undefined;
  const stale = memory.anchor ? (current ? current.stale : memory.anchor.stale) : false;
  const span = current ? current.span : memory.anchor ? { start: memory.anchor.range.startLine, end: memory.anchor.range.endLine } : null;
  return { memory: viewMemory(memory), atCursor, stale, lines: span && !stale ? { start: span.start, end: span.end } : null };
}

function matchesFilter(memory: Memory, filter: TimelineFilter, statuses: readonly string[]): boolean {
  const under = (p: string, base: string) => p === base || p.startsWith(`${base}/`);
  const filterPath = normalizedPath(filter.path);
  return (
    statuses.includes(memory.status) &&
    (!filter.kinds?.length || filter.kinds.includes(memory.kind)) &&
    (!filter.sources?.length || filter.sources.includes(memory.source)) &&
    (!filter.sessionId || memory.sessionId === filter.sessionId) &&
    (!filter.pinned || memory.pin !== 'none') &&
    (!filter.team || isShared(memory)) &&
    (!filterPath || memory.files.some((f) => under(f, filterPath)) || (memory.anchor !== null && under(memory.anchor.path, filterPath))) &&
    (!filter.symbol || memory.symbols.some((s) => s === filter.symbol || s.startsWith(`${filter.symbol}.`)))
  );
}

/** Compaction points belong in the timeline unless the filter asks about memories' own properties. */
function showsCompactions(filter: TimelineFilter, statuses: readonly string[]): boolean {
  return !filter.kinds?.length && !filter.path && !filter.symbol && !filter.sources?.length && !filter.pinned && !filter.team && statuses.includes('active');
}

export interface ViewRequestDeps extends CodeLensDeps {
  /** The team hub as this server reaches it, for the timeline's team search; null without a hub. */
  readonly hubSearch: () => HubSearchAccess | null;
  /** Tells the views when memories change (memoryChangeWatch.ts). */
  readonly changes: MemoryChangeWatch;
}

/**
 * The requests behind the memory panel (sidebar) and the memory timeline, and the notification
 * that tells them to refetch. Actions report changes through `onChanged` (CodeLens, status bar).
 */
export function registerViewRequests(connection: Connection, deps: ViewRequestDeps, onChanged: () => void): void {
  const projectOf = (root: string | undefined): Project => {
    const project = root === undefined ? deps.projects.openProjects()[0] : deps.projects.openAt(root);
    if (!project) throw new ResponseError(ErrorCodes.InvalidParams, root === undefined ? 'no project is open' : `${root} is not a project Engram has open`);
    return watched(project);
  };
  const sessionInfos = (project: Project, ids: Iterable<string | null>): SessionInfo[] => {
    const wanted = [...new Set([...ids].filter((id): id is string => !!id))];
    const known = new Map(project.timeline.sessions(wanted).map((s) => [s.id, s]));
    return wanted.map((id) => known.get(id) ?? { id, agent: null, title: null, startedAt: null });
  };

  const watched = (project: Project) => deps.changes.watchForViews(project);
  const announce = (project: Project) => deps.changes.announce(project);

  connection.onRequest(MemoryPanelRequest.type, async (raw): Promise<MemoryPanel | null> => {
    const params = parse(panelParams, raw);
    const file = deps.projects.fileFor(params.uri);
    if (!file) return null;
    const project = watched(file.project);
    const document = deps.document(params.uri);
    const line = params.position?.line;
    const symbol = document && line !== undefined && line < document.lineCount ? await deps.declarations.symbolAt(document, file.path, line) : null;
    const live = deps.anchors.liveAnchors(params.uri);

    const governing = keptGoverningConstraints(project.store, file.path);
    const atCursor = governing.filter((memory) => governsLine(memory, line, symbol, live));
    const others = governing.filter((memory) => !atCursor.includes(memory));
    const listed = others.slice(0, PANEL_OTHER_CONSTRAINTS);
    const constraints: PanelConstraint[] = [...atCursor.map((memory) => panelConstraint(memory, true, live)), ...listed.map((memory) => panelConstraint(memory, false, live))];
    // Recall leaves out every constraint of the file, listed or not: they are the panel's other section.
    const leaveOut = new Set(governing.map((c) => c.id));

    const openFiles = (params.openUris ?? []).flatMap((u) => {
      const open = deps.projects.fileFor(u);
      return open && open.project === project && open.path !== file.path ? [open.path] : [];
    });
    const recallAt = (at: number | undefined) =>
      answerRecall(project, { file: file.path, line: at, symbol: symbol ?? undefined, openFiles, leaveOut, limit: PANEL_MEMORIES }, document ? document.getText() : undefined);
    let answer;
    try {
      answer = await recallAt(line);
    } catch (error) {
      // The editor's cursor and the server's copy of the document can disagree for a moment.
      if (!(error instanceof RecallInputError)) throw error;
      answer = await recallAt(undefined);
    }
    const memories = answer.results.map((r) => ({ memory: viewMemory(r.memory), score: r.score, explanation: r.explanation }));
    const sessions = project.timeline.sessionsTouching(file.path, PANEL_SESSIONS);
    return { projectRoot: project.root, path: file.path, symbol: symbol ?? answer.symbol, constraints, moreConstraints: others.length - listed.length, memories, sessions };
  });

  connection.onRequest(MemorySelectionRequest.type, (raw): MemorySelection | null => {
    const params = parse(memorySelectionParamsSchema, raw);
    const file = deps.projects.fileFor(params.uri);
    if (!file) return null;
    const project = watched(file.project);
    const ids = 'ids' in params ? params.ids : countedMemoryIds(project.store, file.path, params.counted).slice(0, MEMORY_SELECTION_MAX);
    const live = deps.anchors.liveAnchors(params.uri);
    const constraints: PanelConstraint[] = [];
    const memories: ViewMemory[] = [];
    let missing = 0;
    for (const id of new Set(ids)) {
      const memory = project.store.get(id);
      // Like the panel, only active memories: one forgotten from here leaves, with Undo.
      if (!memory || memory.status !== 'active') missing++;
      else if (memory.kind === 'constraint') constraints.push(panelConstraint(memory, false, live));
      else memories.push(viewMemory(memory));
    }
    return { projectRoot: project.root, path: file.path, constraints, memories, missing };
  });

  connection.onRequest(TimelinePageRequest.type, (raw): TimelinePage => {
    const params = parse(pageParams, raw);
    const project = projectOf(params.projectRoot);
    const { filter } = params;
    const statuses = filter.statuses?.length ? filter.statuses : TIMELINE_STATUSES;
    const rows = project.timeline.page({
      statuses,
      kinds: filter.kinds,
      sources: filter.sources,
      path: normalizedPath(filter.path),
      symbol: filter.symbol?.trim() || undefined,
      sessionId: filter.sessionId,
      pinnedOnly: filter.pinned,
      teamOnly: filter.team,
      before: params.cursor,
      limit: params.limit,
    });
    const last = rows[rows.length - 1];
    const nextCursor = rows.length === params.limit && last ? { updatedAt: last.updatedAt, rowid: last.rowid } : null;
    const entries: TimelineEntry[] = project.store.reads.byRowids(rows.map((r) => r.rowid)).map((m) => ({ type: 'memory', memory: viewMemory(m) }));
    if (showsCompactions(filter, statuses)) {
      // This page covers [its last row, the cursor): the compactions in that span, so none is shown twice.
      const from = nextCursor ? nextCursor.updatedAt : 0;
      const to = params.cursor ? params.cursor.updatedAt : Number.MAX_SAFE_INTEGER;
      for (const point of project.timeline.compactionsBetween(from, to, filter.sessionId)) entries.push({ type: 'compaction', ...point });
      entries.sort((a, b) => timeOf(b) - timeOf(a));
    }
    const sessionIds = entries.map((e) => (e.type === 'memory' ? e.memory.sessionId : e.sessionId));
    return { projectRoot: project.root, projects: deps.projects.openProjects().map((p) => p.root), entries, sessions: sessionInfos(project, sessionIds), nextCursor, teamHub: deps.hubSearch() !== null };
  });

  connection.onRequest(TimelineSearchRequest.type, async (raw): Promise<TimelineSearch> => {
    const params = parse(searchParams, raw);
    const project = projectOf(params.projectRoot);
    const statuses = params.filter.statuses?.length ? params.filter.statuses : TIMELINE_STATUSES;
    const keep = (memory: Memory) => matchesFilter(memory, params.filter, statuses);
    let results: TimelineSearch['results'];
    if (params.scope === 'team' || params.scope === 'team-all') {
      results = await searchTeamForTimeline(project, deps.hubSearch(), { text: params.query, allProjects: params.scope === 'team-all', candidates: TIMELINE_SEARCH_MAX, limit: params.limit }, keep);
    } else {
      const answer = await answerRecall(project, { query: params.query, kinds: params.filter.kinds, includeArchived: statuses.includes('archived'), limit: TIMELINE_SEARCH_MAX });
      results = answer.results
        .filter((r) => keep(r.memory))
        .slice(0, params.limit)
        .map((r) => ({ memory: viewMemory(r.memory), score: r.score, explanation: r.explanation }));
    }
    return { projectRoot: project.root, results, sessions: sessionInfos(project, results.map((r) => r.memory.sessionId)), teamHub: deps.hubSearch() !== null };
  });

  connection.onRequest(AgentSessionsRequest.type, (raw) => {
    const params = parse(agentSessionsParamsSchema, raw);
    const project = projectOf(params.projectRoot);
    const sessions = project.timeline.agentSessions(SESSIONS_MAX).map((s) => ({ ...s, compactions: project.timeline.compactionsOf(s.id) }));
    return { projectRoot: project.root, sessions };
  });

  connection.onRequest(MemoryDetailRequest.type, (raw) => {
    const params = parse(memoryRef, raw);
    const memory = projectOf(params.projectRoot).store.get(params.id);
    return memory ? viewMemory(memory, null) : null;
  });

  connection.onRequest(MemoryActionRequest.type, (raw): MemoryActionResult => {
    const params = parse(actionParams, raw);
    const project = projectOf(params.projectRoot);
    const memory = project.store.get(params.id);
    if (!memory) return { memory: null, changed: false };
    const { action } = params;
    const done = (changed: boolean, extra: { text?: string } = {}): MemoryActionResult => {
      if (changed) {
        onChanged();
        announce(project);
      }
      const after = project.store.get(params.id);
      return { memory: after ? viewMemory(after) : null, changed, ...extra };
    };
    /** The local change stands; the panel says the team file did not get it. */
    const published = (result: ActionResult): MemoryActionResult => {
      const answer = done(result.changed);
      if (result.team.kind === 'refused') throw new ResponseError(ErrorCodes.InvalidRequest, `Changed for you, not in the team file: ${result.team.problem}`);
      return answer;
    };
    // Every rule of an action lives in actions/; this maps the panel's message onto it.
    try {
      switch (action.type) {
        case 'pin':
          return published(pinMemory(project, memory.id, action.pin, 'person'));
        case 'forget':
          return done(forget(project, [memory.id]).changed.length > 0);
        case 'restore':
          return done(restore(project, [memory.id]).changed.length > 0);
        case 'archive':
          return done(archive(project, [memory.id]).changed.length > 0);
        case 'edit':
          return published(editMemory(project, memory.id, { title: action.title, body: action.body, why: action.why }));
        case 'copy':
          return done(false, { text: copyAsContext(project, memory.id) });
        case 'share':
          return done(shareMemoryWithTeam(project, memory.id).changed);
        case 'unshare':
          return done(unshareMemoryFromTeam(project, memory.id).changed);
      }
    } catch (error) {
      if (error instanceof ActionRefusal || error instanceof UnknownMemoryError || error instanceof TeamFileError) throw new ResponseError(ErrorCodes.InvalidRequest, error.message);
      throw error;
    }
  });

  connection.onRequest(MemoryDiffRequest.type, async (raw) => {
    const params = parse(memoryRef, raw);
    const project = projectOf(params.projectRoot);
    const memory = project.store.get(params.id);
    if (!memory) return null;
    if (memory.kind !== 'diff') throw new ResponseError(ErrorCodes.InvalidParams, `${memory.id} is a ${memory.kind}, not a diff memory`);
    const file = memory.files[0];
    if (!file) return null;
    const truncated = memory.meta.truncated === true;
    const sides = patchSides(memory.body, await currentText(project, file), truncated);
    return sides ? { path: file, title: memory.title, ...sides, truncated } : null;
  });

  connection.onRequest(LocateSymbolRequest.type, async (raw) => {
    const params = parse(locateParams, raw);
    const project = projectOf(params.projectRoot);
    const language = languageForPath(params.path);
    if (!language) return null;
    const text = await currentText(project, params.path);
    if (text === null) return null;
    const { declarations } = await fileDeclarations(params.path, language, text);
    const found = declarations.find((d) => d.name === params.symbol) ?? declarations.find((d) => d.name.endsWith(`.${params.symbol}`));
    return found ? { line: found.startLine } : null;
  });

  /** The file as the editor has it (unsaved edits included), else as it is on disk; null when it is gone. */
  async function currentText(project: Project, file: string): Promise<string | null> {
    const absolute = path.join(project.root, ...file.split('/'));
    const open = deps.document(URI.file(absolute).toString());
    if (open) return open.getText();
    try {
      return await readFile(absolute, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}

function timeOf(entry: TimelineEntry): number {
  return entry.type === 'memory' ? entry.memory.updatedAt : entry.at;
}
