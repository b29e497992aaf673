import type { MemoryAction, ViewMemory } from '../../../contracts/viewProtocol';
import type { ViewChannel } from './channel';
import { cardActions, copyCall, type CardAction, type CopyCall } from './cardActions';
import { candidateBadge, candidateNotice } from './candidateNotice';
import { hubBadge, hubOnlyNote, teamBadge } from './teamBadge';
import { h } from './dom';
import { age, dateTime, KIND_LABELS, SOURCE_LABELS } from './format';
import { icon } from './icons';
import { Tags, setValue, valueOf } from './toolkit';

/** What a card shows besides the memory itself. */
export interface CardOptions {
  readonly projectRoot: string;
  /** Recall's score and its breakdown (shown on demand). */
  readonly score?: { readonly score: number; readonly explanation: readonly { readonly reason: string; readonly points: number }[] };
  /** For a constraint in the panel: does it govern the cursor, is its code gone, where is it now. */
  readonly constraint?: { readonly atCursor: boolean; readonly stale: boolean; readonly lines: { readonly start: number; readonly end: number } | null };
  /** The timeline's detail pane: the whole body, a patch preview, and the archive action. */
  readonly detailed?: boolean;
}

/** UI state of cards that must survive a re-render (a refetch after any memory changes). */
export interface CardUiState {
  openScores: string[];
  editing: { id: string; title: string; body: string; why: string } | null;
}

export interface CardHost {
  readonly channel: ViewChannel<unknown>;
  readonly ui: CardUiState;
  /** Draw again after the UI state changed (and save it). */
  readonly rerender: () => void;
  /** An action changed the memory: show its new state now, before the refetch arrives. */
  readonly updated: (memory: ViewMemory) => void;
  /** The memory was forgotten: offer Undo. */
  readonly forgotten: (memory: ViewMemory, projectRoot: string) => void;
  /** One line for the user: what happened, or what went wrong and what to do. */
  readonly report: (message: string, kind: 'info' | 'error') => void;
}

const KIND_ICON_CLASS = 'kind-icon';
const PATCH_PREVIEW_LINES = 80;

function button(label: string, focusKey: string, onClick: () => void, options: { appearance?: 'primary' | 'secondary'; title?: string } = {}): HTMLElement {
  const node = h(Tags.button, { appearance: options.appearance ?? 'secondary', 'data-focus': focusKey, title: options.title, 'aria-label': options.title ? `${label}: ${options.title}` : undefined }, label);
  node.addEventListener('click', onClick);
  return node;
}

function linkButton(label: string, focusKey: string, onClick: () => void, title?: string): HTMLElement {
  const node = h('button', { type: 'button', class: 'link', 'data-focus': focusKey, title }, label);
  node.addEventListener('click', onClick);
  return node;
}

function copied(channel: ViewChannel<unknown>, copy: CopyCall): Promise<{ readonly text: string }> {
  return copy.method === 'copy' ? channel.call('copy', copy.params) : channel.call('copyText', copy.params);
}

function lineRange(start: number, end: number): string {
  return start === end ? `line ${start + 1}` : `lines ${start + 1}–${end + 1}`;
}

/** Runs an action on the memory and reports the outcome; the view refetches when the server announces the change. */
async function act(memory: ViewMemory, projectRoot: string, action: Exclude<MemoryAction, { type: 'copy' }>, host: CardHost): Promise<void> {
  try {
    const result = await host.channel.call('action', { projectRoot, id: memory.id, action });
    if (!result.memory) {
      host.report(`"${memory.title}" no longer exists (it was purged).`, 'error');
      return;
    }
    if (action.type === 'forget' && result.changed) host.forgotten(result.memory, projectRoot);
    else host.updated(result.memory);
  } catch (error) {
    host.report(`Could not ${action.type} "${memory.title}": ${(error as Error).message}`, 'error');
  }
}

function pinBadge(memory: ViewMemory): HTMLElement | null {
  if (memory.pin === 'none') return null;
  return h('span', { class: `badge pin-${memory.pin}`, title: memory.pin === 'hard' ? 'Hard pin: always given to agents where it applies, never archived' : 'Soft pin: ranked first' }, icon('pin'), `${memory.pin} pin`);
}

function places(memory: ViewMemory, options: CardOptions, host: CardHost): HTMLElement | null {
  const items: HTMLElement[] = [];
  const open = (path: string, target: { line?: number; symbol?: string }) => () => {
    host.channel.call('open', { projectRoot: options.projectRoot, path, ...target }).catch((error: Error) => host.report(error.message, 'error'));
  };
  // A memory only on the hub may be another project's: its paths name no file here.
  const link: typeof linkButton = memory.hub ? (label) => h('span', { class: 'place' }, label) : linkButton;
  if (memory.anchor) {
    const live = options.constraint?.lines;
    const stale = options.constraint?.stale ?? memory.anchor.stale;
    const start = live?.start ?? memory.anchor.startLine;
    const end = live?.end ?? memory.anchor.endLine;
    const label = stale ? `${memory.anchor.path} (its pinned code is gone)` : `${memory.anchor.path}, ${lineRange(start, end)}`;
    items.push(link(label, `${memory.id}:anchor`, open(memory.anchor.path, stale ? {} : { line: start }), 'Open at the pinned code'));
  }
  for (const file of memory.files) {
    if (memory.anchor?.path === file) continue;
    items.push(link(file, `${memory.id}:file:${file}`, open(file, {}), `Open ${file}`));
  }
  const symbolFile = memory.anchor?.path ?? memory.files[0];
  for (const symbol of memory.symbols) {
    items.push(
      symbolFile
        ? link(symbol, `${memory.id}:symbol:${symbol}`, open(symbolFile, { symbol }), `Open ${symbol} in ${symbolFile}`)
        : h('span', { class: 'symbol' }, symbol),
    );
  }
  if (memory.glob) items.push(h('span', { class: 'glob' }, `files matching ${memory.glob}`));
  if (!items.length && memory.kind === 'constraint') items.push(h('span', { class: 'muted' }, 'the whole project'));
  return items.length ? h('div', { class: 'places', role: 'group', 'aria-label': 'Where it applies' }, ...items) : null;
}

function scoreSection(memory: ViewMemory, options: CardOptions, host: CardHost): HTMLElement | null {
  if (!options.score) return null;
  const open = host.ui.openScores.includes(memory.id);
  const toggle = h('button', { type: 'button', class: 'link score-toggle', 'aria-expanded': String(open), 'data-focus': `${memory.id}:score` }, `Score ${options.score.score.toFixed(2)} ${open ? '▾' : '▸'}`);
  toggle.addEventListener('click', () => {
    host.ui.openScores = open ? host.ui.openScores.filter((id) => id !== memory.id) : [...host.ui.openScores, memory.id];
    host.rerender();
  });
  const rows = open
    ? h('table', { class: 'score' }, h('caption', { class: 'muted' }, 'Why it ranks here (the parts sum to the score)'),
        ...options.score.explanation.map((part) => h('tr', {}, h('td', {}, part.reason), h('td', { class: 'points' }, part.points.toFixed(2)))))
    : null;
  return h('div', { class: 'score-section' }, toggle, rows);
}

function patchPreview(body: string): HTMLElement {
  const lines = body.split('\n');
  const shown = lines.slice(0, PATCH_PREVIEW_LINES);
  const pre = h('pre', { class: 'patch', tabindex: 0, 'aria-label': 'Patch' });
  for (const line of shown) {
    const kind = line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : '';
    pre.append(h('span', { class: kind ? `patch-${kind}` : undefined }, `${line}\n`));
  }
  if (lines.length > shown.length) pre.append(h('span', { class: 'muted' }, `… ${lines.length - shown.length} more lines: Open diff shows all of it.`));
  return pre;
}

function editForm(memory: ViewMemory, options: CardOptions, host: CardHost): HTMLElement {
  const draft = host.ui.editing!;
  const title = h(Tags.textField, { 'data-focus': `${memory.id}:edit-title`, 'aria-label': 'Title', maxlength: 1000 }, 'Title');
  setValue(title, draft.title);
  title.addEventListener('input', () => (draft.title = valueOf(title)));
  const why = h(Tags.textField, { 'data-focus': `${memory.id}:edit-why`, 'aria-label': 'Why', maxlength: 10000 }, 'Why');
  setValue(why, draft.why);
  why.addEventListener('input', () => (draft.why = valueOf(why)));
  const fields: HTMLElement[] = [title];
  if (memory.kind !== 'diff') {
    const body = h(Tags.textArea, { 'data-focus': `${memory.id}:edit-body`, 'aria-label': 'Text', rows: 4, resize: 'vertical' }, 'Text');
    setValue(body, draft.body);
    body.addEventListener('input', () => (draft.body = valueOf(body)));
    fields.push(body);
  }
  fields.push(why);
  const save = button('Save', `${memory.id}:edit-save`, () => {
    if (!draft.title.trim()) {
      host.report('A memory needs a title.', 'error');
      return;
    }
    host.ui.editing = null;
    host.rerender();
    void act(memory, options.projectRoot, { type: 'edit', title: draft.title, ...(memory.kind === 'diff' ? {} : { body: draft.body }), why: draft.why }, host);
  }, { appearance: 'primary' });
  const cancel = button('Cancel', `${memory.id}:edit-cancel`, () => {
    host.ui.editing = null;
    host.rerender();
  });
  const form = h('form', { class: 'edit-form', 'aria-label': `Edit "${memory.title}"` }, ...fields, h('div', { class: 'actions' }, save, cancel));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    save.click();
  });
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      host.ui.editing = null;
      host.rerender();
    }
  });
  return form;
}

async function startEditing(memory: ViewMemory, projectRoot: string, host: CardHost): Promise<void> {
  let full = memory;
  if (memory.bodyTruncated) {
    try {
      full = (await host.channel.call('detail', { projectRoot, id: memory.id })) ?? memory;
    } catch (error) {
      host.report(`Could not load "${memory.title}" to edit it: ${(error as Error).message}`, 'error');
      return;
    }
  }
  host.ui.editing = { id: memory.id, title: full.title, body: full.body, why: full.why ?? '' };
  host.rerender();
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-focus="${CSS.escape(`${memory.id}:edit-title`)}"]`)?.focus());
}

function actionButton(action: CardAction, memory: ViewMemory, projectRoot: string, host: CardHost): HTMLElement {
  const key = (name: string) => `${memory.id}:${name}`;
  const run = (change: Exclude<MemoryAction, { type: 'copy' }>) => () => void act(memory, projectRoot, change, host);
  switch (action) {
    case 'pin':
      return button('Pin', key('pin'), run({ type: 'pin', pin: 'soft' }), { title: 'Soft pin: ranked first' });
    case 'pin-hard':
      return button('Pin hard', key('pin-hard'), run({ type: 'pin', pin: 'hard' }), { title: 'Always given to agents where it applies' });
    case 'unpin':
      // Same focus key as "Pin": after a click, focus stays on the toggle.
      return button('Unpin', key('pin'), run({ type: 'pin', pin: 'none' }));
    case 'edit':
      return button('Edit', key('edit'), () => void startEditing(memory, projectRoot, host));
    case 'share':
      return button('Share', key('share'), run({ type: 'share' }), { title: 'Write it to .engram/memories.jsonl for the team (commit it)' });
    case 'unshare':
      return button('Unshare', key('share'), run({ type: 'unshare' }), { title: 'Take it out of .engram/memories.jsonl; it stays yours' });
    case 'diff':
      return button('Open diff', key('diff'), () => host.channel.call('diff', { projectRoot, id: memory.id }).catch((error: Error) => host.report(`Cannot show the diff: ${error.message}`, 'error')));
    case 'copy':
      return button('Copy as context', key('copy'), () =>
        copied(host.channel, copyCall(memory, projectRoot)).then(
          () => host.report(`Copied "${memory.title}" as agent context.`, 'info'),
          (error: Error) => host.report(`Could not copy: ${error.message}`, 'error'),
        ),
      );
    case 'archive':
      return button('Archive', key('archive'), run({ type: 'archive' }), { title: 'Out of automatic context; still found by search' });
    case 'forget':
      return button('Forget', key('forget'), run({ type: 'forget' }), memory.status === 'active' ? { title: 'Out of recall and context; can be restored' } : {});
    case 'restore':
      return button('Restore', key('restore'), run({ type: 'restore' }), { appearance: 'primary' });
  }
}

function actions(memory: ViewMemory, options: CardOptions, host: CardHost): HTMLElement {
  const items = cardActions(memory, options.detailed === true).map((action) => actionButton(action, memory, options.projectRoot, host));
  const group = h('div', { class: 'actions', role: 'group', 'aria-label': 'Actions' }, ...items);
  // Only on the team hub: it can be copied, nothing else (cardActions.ts); the note says whose it is.
  return memory.hub ? h('div', { class: 'hub-actions' }, hubOnlyNote(memory.hub), group) : group;
}

/** One memory: kind, title, why, where it applies, age and origin, and what the user can do with it. */
export function memoryCard(memory: ViewMemory, options: CardOptions, host: CardHost): HTMLElement {
  const badges = [
    options.constraint?.atCursor ? h('span', { class: 'badge here', title: 'Governs the line the cursor is on' }, 'at cursor') : null,
    options.constraint?.stale || memory.anchor?.stale ? h('span', { class: 'badge stale', title: 'The code it was pinned to is gone: re-pin it or forget it' }, 'stale') : null,
    candidateBadge(memory),
    pinBadge(memory),
    memory.hub ? hubBadge(memory.hub) : memory.team ? teamBadge() : null,
    memory.status !== 'active' ? h('span', { class: `badge status-${memory.status}` }, memory.status) : null,
  ];
  const kindIcon = h('span', { class: `${KIND_ICON_CLASS} kind-${memory.kind}` }, icon(memory.kind, KIND_LABELS[memory.kind]));
  const header = h('div', { class: 'card-header' }, kindIcon, h('h3', { class: 'title' }, memory.title), ...badges);
  const why = memory.why ? h('p', { class: 'why' }, h('span', { class: 'label' }, 'Why: '), memory.why) : null;
  const showBody = memory.body && memory.body !== memory.title;
  const body = !showBody ? null : memory.kind === 'diff' ? (options.detailed ? patchPreview(memory.body) : null) : h('p', { class: options.detailed ? 'body' : 'body clamp' }, memory.body);
  const change = memory.change ? h('span', { class: 'change' }, h('span', { class: 'added' }, `+${memory.change.added}`), ' ', h('span', { class: 'removed' }, `−${memory.change.removed}`)) : null;
  const session = memory.sessionId
    ? linkButton(`session ${memory.sessionId.slice(0, 8)}`, `${memory.id}:session`, () => {
        void host.channel.call('openTimeline', { sessionId: memory.sessionId!, tab: 'timeline' });
      }, 'Show this agent session in the timeline')
    : null;
  const meta = h(
    'div',
    { class: 'meta' },
    h('span', {}, KIND_LABELS[memory.kind]),
    change,
    h('span', {}, SOURCE_LABELS[memory.source]),
    h('time', { datetime: new Date(memory.updatedAt).toISOString(), title: `Updated ${dateTime(memory.updatedAt)} · created ${dateTime(memory.createdAt)}` }, age(memory.updatedAt)),
    session,
  );
  const editing = host.ui.editing?.id === memory.id;
  // Accepting is pinning (engram/setPin → actions/pin.ts), as anywhere else.
  const accept = button('Accept', `${memory.id}:pin`, () => void act(memory, options.projectRoot, { type: 'pin', pin: 'soft' }, host), {
    appearance: 'primary',
    title: 'Make it a rule agents are given (a soft pin)',
  });
  return h(
    'article',
    { class: `memory-card kind-${memory.kind}${memory.status !== 'active' ? ' inactive' : ''}`, 'data-memory-id': memory.id, 'aria-label': `${KIND_LABELS[memory.kind]}: ${memory.title}` },
    header,
    memory.status === 'active' && !memory.hub ? candidateNotice(memory, accept) : null,
    editing ? editForm(memory, options, host) : null,
    editing ? null : why,
    editing ? null : body,
    places(memory, options, host),
    meta,
    scoreSection(memory, options, host),
    editing ? null : actions(memory, options, host),
  );
}
