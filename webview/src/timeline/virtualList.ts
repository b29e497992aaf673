/**
 * A windowed list: only the rows in view (plus a margin) are in the DOM, positioned by offsets
 * summed from each row's fixed height, so 100,000 rows scroll as lightly as 100. Keyboard: the
 * list is one tab stop (a listbox); arrows, Page Up/Down, Home and End move the selection over
 * selectable rows, Enter activates it.
 */
export interface VirtualListOptions<Row> {
  readonly height: (row: Row) => number;
  readonly render: (row: Row, selected: boolean) => HTMLElement;
  readonly selectable: (row: Row) => boolean;
  /** A stable key for a row, to keep the selection when rows are replaced. */
  readonly key: (row: Row) => string;
  readonly onSelect: (row: Row | null) => void;
  readonly onActivate: (row: Row) => void;
  /** Scrolled near the last row: time to fetch the next page. */
  readonly onNearEnd: () => void;
  readonly onScroll?: (scrollTop: number) => void;
}

const OVERSCAN_PX = 400;
const NEAR_END_PX = 1500;

export class VirtualList<Row> {
  private rows: Row[] = [];
  /** offsets[i]: top of row i; offsets[rows.length]: total height. */
  private offsets: number[] = [0];
  private selected = -1;
  private readonly rendered = new Map<number, HTMLElement>();
  private readonly spacer: HTMLElement;
  private frame = 0;
  /** Size of the whole list for screen readers; -1 while more pages may come. */
  private setSize = -1;
  private positions: number[] = [];
  private readonly footer: HTMLElement;
  private footerHeight = 0;

  constructor(
    readonly element: HTMLElement,
    private readonly options: VirtualListOptions<Row>,
  ) {
    element.setAttribute('role', 'listbox');
    element.tabIndex = 0;
    this.spacer = document.createElement('div');
    this.spacer.className = 'virtual-spacer';
    this.footer = document.createElement('div');
    this.footer.className = 'virtual-footer';
    this.footer.setAttribute('role', 'presentation');
    element.replaceChildren(this.spacer, this.footer);
    element.addEventListener('scroll', () => this.schedule());
    element.addEventListener('keydown', (event) => this.onKey(event));
    element.addEventListener('focus', () => {
      if (this.selected < 0) this.selectIndex(this.nextSelectable(-1, 1), true);
    });
    new ResizeObserver(() => this.schedule()).observe(element);
  }

  get length(): number {
    return this.rows.length;
  }

  get selectedRow(): Row | null {
    return this.rows[this.selected] ?? null;
  }

  /** Replaces every row; the selection follows its key when that row is still there. */
  setRows(rows: Row[], complete: boolean): void {
    const selectedKey = this.selectedRow ? this.options.key(this.selectedRow) : null;
    this.rows = [];
    this.offsets = [0];
    this.positions = [];
    this.clearRendered();
    this.selected = -1;
    this.append(rows, complete);
    if (selectedKey !== null) {
      const index = this.rows.findIndex((r) => this.options.key(r) === selectedKey);
      if (index >= 0) this.selected = index;
    }
    this.options.onSelect(this.selectedRow);
    this.schedule();
  }

  /** Adds rows at the end (the next page). `complete`: no more will come. */
  append(rows: readonly Row[], complete: boolean): void {
    for (const row of rows) {
      this.rows.push(row);
      this.offsets.push(this.offsets[this.offsets.length - 1]! + this.options.height(row));
      if (this.options.selectable(row)) this.positions.push(this.rows.length - 1);
    }
    this.setSize = complete ? this.positions.length : -1;
    this.layoutFooter();
    // Rows already in the DOM may show a "loading more" row that moved: draw them again.
    this.clearRendered();
    this.schedule();
  }

  /** Replaces one row in place (same height), e.g. a memory whose pin changed. */
  update(predicate: (row: Row) => boolean, next: (row: Row) => Row): void {
    this.rows.forEach((row, index) => {
      if (!predicate(row)) return;
      this.rows[index] = next(row);
      this.rendered.get(index)?.remove();
      this.rendered.delete(index);
    });
    this.schedule();
    if (this.selectedRow && predicate(this.selectedRow)) this.options.onSelect(this.selectedRow);
  }

  /** A line after the last row ("Loading more…", "End of the timeline", why it is empty); null for none. */
  setFooter(content: HTMLElement | string | null, height = 44): void {
    this.footer.replaceChildren(content ?? '');
    this.footerHeight = content === null ? 0 : height;
    this.footer.hidden = content === null;
    this.layoutFooter();
  }

  private layoutFooter(): void {
    const total = this.offsets[this.offsets.length - 1]!;
    this.footer.style.top = `${total}px`;
    this.footer.style.minHeight = `${this.footerHeight}px`;
    this.spacer.style.height = `${total + this.footerHeight}px`;
  }

  selectKey(key: string, reveal: boolean): boolean {
    const index = this.rows.findIndex((r) => this.options.key(r) === key);
    if (index < 0) return false;
    this.selectIndex(index, reveal);
    return true;
  }

  get scrollTop(): number {
    return this.element.scrollTop;
  }

  set scrollTop(value: number) {
    this.element.scrollTop = value;
    this.schedule();
  }

  private clearRendered(): void {
    for (const node of this.rendered.values()) node.remove();
    this.rendered.clear();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** First row whose bottom is below `y`. */
  private indexAt(y: number): number {
    let low = 0;
    let high = this.rows.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.offsets[mid + 1]! <= y) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private draw(): void {
    const top = this.element.scrollTop;
    const bottom = top + this.element.clientHeight;
    this.options.onScroll?.(top);
    if (!this.rows.length) {
      this.clearRendered();
      this.element.removeAttribute('aria-activedescendant');
      return;
    }
    const first = this.indexAt(Math.max(0, top - OVERSCAN_PX));
    const last = this.indexAt(bottom + OVERSCAN_PX);
    for (const [index, node] of this.rendered) {
      if (index < first || index > last) {
        node.remove();
        this.rendered.delete(index);
      }
    }
    for (let index = first; index <= last; index++) {
      if (this.rendered.has(index)) continue;
      const row = this.rows[index]!;
      const node = this.options.render(row, index === this.selected);
      node.id = `row-${index}`;
      node.style.position = 'absolute';
      node.style.top = `${this.offsets[index]}px`;
      node.style.height = `${this.options.height(row)}px`;
      node.style.left = '0';
      node.style.right = '0';
      if (this.options.selectable(row)) {
        node.setAttribute('role', 'option');
        node.setAttribute('aria-selected', String(index === this.selected));
        node.setAttribute('aria-setsize', String(this.setSize));
        node.setAttribute('aria-posinset', String(this.positionOf(index) + 1));
        node.addEventListener('click', () => this.selectIndex(index, false));
        node.addEventListener('dblclick', () => this.options.onActivate(row));
      } else {
        node.setAttribute('role', 'presentation');
      }
      this.rendered.set(index, node);
      this.element.appendChild(node);
    }
    if (this.selected >= 0 && this.rendered.has(this.selected)) this.element.setAttribute('aria-activedescendant', `row-${this.selected}`);
    else this.element.removeAttribute('aria-activedescendant');
    if (this.offsets[this.rows.length]! - bottom < NEAR_END_PX) this.options.onNearEnd();
  }

  private positionOf(index: number): number {
    let low = 0;
    let high = this.positions.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.positions[mid]! < index) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private selectIndex(index: number, reveal: boolean): void {
    if (index < 0 || index >= this.rows.length) return;
    const previous = this.selected;
    this.selected = index;
    for (const i of [previous, index]) {
      this.rendered.get(i)?.remove();
      this.rendered.delete(i);
    }
    if (reveal) this.reveal(index);
    this.schedule();
    this.options.onSelect(this.selectedRow);
  }

  private reveal(index: number): void {
    const top = this.offsets[index]!;
    const bottom = this.offsets[index + 1]!;
    // Keep the row's day and session headings in view above it when scrolling up to it.
    if (top < this.element.scrollTop) this.element.scrollTop = Math.max(0, top - 60);
    else if (bottom > this.element.scrollTop + this.element.clientHeight) this.element.scrollTop = bottom - this.element.clientHeight;
  }

  private nextSelectable(from: number, step: 1 | -1): number {
    for (let i = from + step; i >= 0 && i < this.rows.length; i += step) if (this.options.selectable(this.rows[i]!)) return i;
    return from;
  }

  private onKey(event: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.element.clientHeight / 52));
    let target: number | null = null;
    switch (event.key) {
      case 'ArrowDown':
        target = this.nextSelectable(this.selected, 1);
        break;
      case 'ArrowUp':
        target = this.nextSelectable(this.selected, -1);
        break;
      case 'PageDown':
        target = this.selected;
        for (let i = 0; i < page; i++) target = this.nextSelectable(target, 1);
        break;
      case 'PageUp':
        target = this.selected;
        for (let i = 0; i < page; i++) target = this.nextSelectable(target, -1);
        break;
      case 'Home':
        target = this.nextSelectable(-1, 1);
        break;
      case 'End':
        target = this.nextSelectable(this.rows.length, -1);
        break;
      case 'Enter':
      case ' ':
        if (this.selectedRow) {
          event.preventDefault();
          this.options.onActivate(this.selectedRow);
        }
        return;
      default:
        return;
    }
    event.preventDefault();
    if (target !== null && target >= 0) this.selectIndex(target, true);
  }
}
