/**
 * Positions 0…n−1 of the best `limit`, best first, where `after(a, b)` says position a ranks
 * after b: a heap of the best so far, its worst at the root. A comparator sort of all n (a typed
 * array's sort copies it to boxed numbers) was a twentieth of what a recall allocated, and took
 * 12 ms for a hot file's 26,000 memories where CodeLens names 500.
 */
export function bestFirst(n: number, limit: number, after: (a: number, b: number) => boolean): Uint32Array {
  const size = Math.max(0, Math.min(n, limit));
  const heap = new Uint32Array(size);
  const siftDown = (from: number, count: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= count) return;
      const right = left + 1;
      const worse = right < count && after(heap[right]!, heap[left]!) ? right : left;
      if (!after(heap[worse]!, heap[at]!)) return;
      const swap = heap[at]!;
      heap[at] = heap[worse]!;
      heap[worse] = swap;
      at = worse;
    }
  };
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (count < size) {
      // Sift up.
      let at = count++;
      heap[at] = i;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!after(heap[at]!, heap[parent]!)) break;
        const swap = heap[at]!;
        heap[at] = heap[parent]!;
        heap[parent] = swap;
        at = parent;
      }
    } else if (size > 0 && after(heap[0]!, i)) {
      heap[0] = i;
      siftDown(0, count);
    }
  }
  // Worst to the end, one at a time: best first.
  for (let end = count - 1; end > 0; end--) {
    const swap = heap[0]!;
    heap[0] = heap[end]!;
    heap[end] = swap;
    siftDown(0, end);
  }
  return heap;
}
