import type { ProjectStats, StatsViewMessage, StatsViewRequest } from '../../../contracts/protocol';
import { Tags } from '../shared/toolkit';
import { connectToExtension } from '../shared/vscodeApi';

const vscode = connectToExtension<StatsViewRequest>();
const root = document.getElementById('root')!;

function element<K extends keyof HTMLElementTagNameMap>(tag: K | string, text?: string, className?: string): HTMLElement {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function grid(rows: readonly (readonly [string, string | number])[], label: string): HTMLElement {
  const table = element(Tags.grid);
  table.setAttribute('aria-label', label);
  table.setAttribute('grid-template-columns', '1fr 1fr');
  for (const [name, value] of rows) {
    const row = element(Tags.row);
    const a = element(Tags.cell, name);
    a.setAttribute('grid-column', '1');
    const b = element(Tags.cell, String(value));
    b.setAttribute('grid-column', '2');
    row.append(a, b);
    table.append(row);
  }
  return table;
}

function renderProject(project: ProjectStats): HTMLElement {
  const section = element('section');
  section.append(element('h2', project.root));
  section.append(element('p', `Database: ${project.databaseFile} (schema ${project.schemaVersion})`, 'muted'));
  section.append(
    grid(
      [
        ['Active memories', project.byStatus.active],
        ['Archived', project.byStatus.archived],
        ['Forgotten', project.byStatus.forgotten],
        ['Hard pins', project.pinned.hard],
        ['Soft pins', project.pinned.soft],
        ['Agent sessions', project.sessions],
        ...Object.entries(project.byKind).map(([kind, n]) => [`Kind: ${kind}`, n] as const),
      ],
      `Memory counts for ${project.root}`,
    ),
  );
  return section;
}

function render(message: StatsViewMessage): void {
  root.replaceChildren();
  root.append(element('h1', 'Engram memory'));
  if (message.type === 'error') {
    root.append(element('p', `The memory server is not available: ${message.message}`, 'error'));
  } else if (message.stats.projects.length === 0) {
    root.append(element('p', 'No project is open. Open a folder to give Engram a project to remember.', 'muted'));
  } else {
    const { runtime } = message.stats;
    root.append(element('p', `Memory server: Node ${runtime.node} (ABI ${runtime.abi}), pid ${runtime.pid}`, 'muted'));
    for (const project of message.stats.projects) root.append(renderProject(project));
  }
  const toolbar = element('div', undefined, 'toolbar');
  const refresh = element(Tags.button, 'Refresh');
  refresh.addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
  toolbar.append(refresh);
  root.append(toolbar);
}

window.addEventListener('message', (event: MessageEvent<StatsViewMessage>) => {
  const message = event.data;
  if (message?.type === 'stats' || message?.type === 'error') render(message);
});
vscode.postMessage({ type: 'ready' });
