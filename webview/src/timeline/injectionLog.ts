import type { InjectionEntry } from '../../../contracts/protocol';
import type { AgentSessionSummary } from '../../../contracts/viewProtocol';
import type { ViewChannel } from '../shared/channel';
import { h, keepingFocus } from '../shared/dom';
import { age, dateTime, KIND_LABELS, plural, sessionLabel, time } from '../shared/format';
import { icon } from '../shared/icons';
import { Tags } from '../shared/toolkit';

/** What the injection log shows: agent sessions, the selected one, and what it was given. */
export interface InjectionLogModel {
  readonly sessions: readonly AgentSessionSummary[] | null;
  readonly selected: string | null;
  readonly entries: readonly InjectionEntry[] | null;
  readonly error: string | null;
}

const EVENT_LABELS: Readonly<Record<string, string>> = {
  'session-start': 'Session start',
  'user-prompt-submit': 'Prompt',
  'mcp-recall': 'MCP recall',
};

/** Entries given together (one hook run: same event, same moment). */
function batches(entries: readonly InjectionEntry[]): { event: string; at: number; items: InjectionEntry[] }[] {
  const out: { event: string; at: number; items: InjectionEntry[] }[] = [];
  for (const entry of entries) {
    const last = out[out.length - 1];
    if (last && last.event === entry.event && last.at === entry.createdAt) last.items.push(entry);
    else out.push({ event: entry.event, at: entry.createdAt, items: [entry] });
  }
  return out;
}

function sessionDetail(session: AgentSessionSummary, model: InjectionLogModel, onTimeline: (sessionId: string) => void): HTMLElement {
  const toTimeline = h(Tags.button, { appearance: 'secondary', 'data-focus': `injections:timeline:${session.id}` }, 'Show its memories in the timeline');
  toTimeline.addEventListener('click', () => onTimeline(session.id));
  const header = h(
    'header',
    { class: 'session-detail-header' },
    h('h2', {}, sessionLabel(session)),
    h('p', { class: 'muted' }, `${plural(session.given, 'memory', 'memories')} given, ${plural(session.tokens, 'token')} (estimated) · ${plural(session.memories, 'memory', 'memories')} made · last active ${age(session.lastAt)}`),
    h('div', { class: 'actions' }, toTimeline),
  );
  const compactions = session.compactions.length
    ? h(
        'ul',
        { class: 'compactions' },
        ...session.compactions.map((c) => h('li', {}, icon('compaction'), `Context compacted at ${dateTime(c.at)} (${c.trigger}) — ${plural(c.carriedOver, 'memory', 'memories')} carried over`)),
      )
    : null;
  const note = session.compactions.length
    ? h('p', { class: 'muted' }, 'The log starts again at each compaction: what was given before it left the agent\'s context with it, and may be given again.')
    : null;
  let body: HTMLElement;
  if (model.error) body = h('p', { class: 'error', role: 'alert' }, `Could not load the log: ${model.error}`);
  else if (!model.entries) body = h('div', { class: 'loading', role: 'status' }, h(Tags.progressRing, { 'aria-hidden': 'true' }), 'Loading…');
  else if (!model.entries.length) body = h('p', { class: 'muted' }, 'Engram has given this session nothing since its last compaction. Hooks give context at session start and with each prompt once Claude Code is connected (Engram: Connect Claude Code).');
  else {
    body = h(
      'ol',
      { class: 'injection-batches' },
      ...batches(model.entries).map((batch) =>
        h(
          'li',
          { class: 'batch' },
          h('h3', {}, `${EVENT_LABELS[batch.event] ?? batch.event} · ${time(batch.at)}`, h('span', { class: 'muted' }, ` — ${plural(batch.items.length, 'memory', 'memories')}, ${plural(batch.items.reduce((n, i) => n + i.tokens, 0), 'token')}`)),
          h(
            'ul',
            {},
            ...batch.items.map((item) =>
              h(
                'li',
                { class: 'given' },
                item.memory ? h('span', { class: `kind-icon kind-${item.memory.kind}` }, icon(item.memory.kind, KIND_LABELS[item.memory.kind])) : null,
                h('span', { class: 'title' }, item.memory?.title ?? `${item.memoryId} (purged since)`),
                item.memory?.pin && item.memory.pin !== 'none' ? h('span', { class: `badge pin-${item.memory.pin}` }, `${item.memory.pin} pin`) : null,
                h('span', { class: 'muted tokens' }, plural(item.tokens, 'token')),
              ),
            ),
          ),
        ),
      ),
    );
  }
  return h('div', { class: 'session-detail' }, header, compactions, note, body);
}

/** The injection log: every agent session Engram knows, and exactly what it gave the selected one, when, and how many tokens. */
export function renderInjectionLog(model: InjectionLogModel, onSelect: (sessionId: string) => void, onTimeline: (sessionId: string) => void): HTMLElement {
  if (!model.sessions) return h('div', { class: 'loading', role: 'status' }, h(Tags.progressRing, { 'aria-hidden': 'true' }), 'Loading agent sessions…');
  if (!model.sessions.length) {
    return h(
      'section',
      { class: 'empty-state' },
      h('h2', {}, 'No agent sessions yet'),
      h('p', {}, 'When Claude Code runs in this project, its sessions appear here with what Engram gave each one. Run Engram: Connect Claude Code to give it memory through hooks.'),
    );
  }
  const list = h(
    'ul',
    { class: 'session-list', 'aria-label': 'Agent sessions' },
    ...model.sessions.map((s) => {
      const selected = s.id === model.selected;
      const item = h(
        'button',
        { type: 'button', class: `session-item${selected ? ' selected' : ''}`, 'aria-current': selected ? 'true' : undefined, 'data-focus': `injections:session:${s.id}` },
        h('span', { class: 'title' }, sessionLabel(s)),
        h('span', { class: 'muted' }, `${plural(s.given, 'memory', 'memories')} given · ${plural(s.tokens, 'token')} · ${age(s.lastAt)}`),
      );
      item.addEventListener('click', () => onSelect(s.id));
      return h('li', {}, item);
    }),
  );
  const selected = model.sessions.find((s) => s.id === model.selected);
  return h('div', { class: 'injection-log' }, list, selected ? sessionDetail(selected, model, onTimeline) : h('p', { class: 'muted session-detail' }, 'Choose a session to see what Engram gave it.'));
}

export interface InjectionLogHost {
  readonly channel: ViewChannel<unknown>;
  readonly projectRoot: () => string | undefined;
  /** The session whose log is shown; kept in the page's saved state. */
  readonly selected: () => string | null;
  readonly setSelected: (sessionId: string) => void;
  readonly visible: () => boolean;
  /** The sessions arrived (the timeline's session filter lists them too). */
  readonly loaded: (projectRoot: string, sessions: readonly AgentSessionSummary[]) => void;
  readonly showSession: (sessionId: string) => void;
  readonly showInTimeline: (sessionId: string) => void;
}

/** The injection log tab: fetches the sessions and the selected session's log, and draws them. */
export class InjectionLogView {
  /** null until fetched (or after the project changed). */
  sessions: readonly AgentSessionSummary[] | null = null;
  private entries: readonly InjectionEntry[] | null = null;
  private error: string | null = null;

  constructor(
    private readonly element: HTMLElement,
    private readonly host: InjectionLogHost,
  ) {}

  /** Another session is to be shown: its log is fetched again. */
  clearEntries(): void {
    this.entries = null;
    this.render();
  }

  async load(): Promise<void> {
    try {
      const result = await this.host.channel.call('sessions', { projectRoot: this.host.projectRoot() });
      this.sessions = result.sessions;
      this.host.loaded(result.projectRoot, result.sessions);
      if (this.host.visible()) {
        if (!this.host.selected() && result.sessions[0]) this.host.setSelected(result.sessions[0].id);
        this.render();
        const sessionId = this.host.selected();
        if (sessionId) {
          this.error = null;
          const entries = await this.host.channel.call('injections', { projectRoot: result.projectRoot, sessionId });
          if (this.host.selected() !== sessionId) return;
          this.entries = entries;
        }
      }
    } catch (error) {
      this.error = (error as Error).message;
    }
    this.render();
  }

  render(): void {
    if (!this.host.visible()) return;
    const model: InjectionLogModel = { sessions: this.sessions, selected: this.host.selected(), entries: this.entries, error: this.error };
    keepingFocus(() => this.element.replaceChildren(renderInjectionLog(model, this.host.showSession, this.host.showInTimeline)));
  }
}
