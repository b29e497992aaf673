/** Small DOM builders: webviews render with textContent and attributes only, never HTML strings. */

type Child = Node | string | null | undefined | false;

export interface Attributes {
  readonly [name: string]: string | number | boolean | null | undefined;
}

/** An element with attributes (`class`, `aria-*`, `data-*`, …; false/null/undefined are left out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, attributes?: Attributes, ...children: Child[]): HTMLElement;
export function h(tag: string, attributes: Attributes = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Runs `render` and gives focus back to the element with the same `data-focus` key, if it is still there. */
export function keepingFocus(render: () => void): void {
  const key = (document.activeElement as HTMLElement | null)?.closest?.('[data-focus]')?.getAttribute('data-focus');
  render();
  if (!key) return;
  const again = document.querySelector<HTMLElement>(`[data-focus="${CSS.escape(key)}"]`);
  again?.focus();
}
