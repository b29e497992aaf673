import { after, before } from 'node:test';

/** Just enough of a DOM for webview/src/shared/dom.ts's builders: elements, attributes, text. */
export class FakeNode {
  readonly childNodes: FakeNode[] = [];
  private readonly attributes = new Map<string, string>();
  constructor(readonly tagName: string, private readonly text = '') {}
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  appendChild(child: FakeNode): FakeNode {
    this.childNodes.push(child);
    return child;
  }
  get textContent(): string {
    return this.text + this.childNodes.map((c) => c.textContent).join('');
  }
}

/** Installs a `document` of FakeNodes for the tests of the enclosing describe, and puts the old one back after. */
export function useFakeDocument(): void {
  const saved = (globalThis as { document?: unknown }).document;
  before(() => {
    (globalThis as { document?: unknown }).document = { createElement: (tag: string) => new FakeNode(tag), createTextNode: (text: string) => new FakeNode('#text', text) };
  });
  after(() => {
    (globalThis as { document?: unknown }).document = saved;
  });
}
