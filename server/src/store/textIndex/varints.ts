/**
 * Unsigned LEB128 varints: 7 bits a byte, the high bit set on every byte but a number's last.
 * The text index keeps its lists as gaps between ascending numbers in this form, most of them a
 * byte: a common word's next memory is a few rowids on, a memory's next term id a few ids on.
 */

/** Bytes appended one number at a time; `bytes()` is what was written, in an array of its own. */
export class ByteWriter {
  private buffer: Uint8Array;
  private at = 0;

  constructor(capacity = 1024) {
    this.buffer = new Uint8Array(capacity);
  }

  get length(): number {
    return this.at;
  }

  /** Appends `value` (0 ≤ value < 2³¹). */
  varint(value: number): void {
    if (this.at + 5 > this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2 + 5);
      grown.set(this.buffer.subarray(0, this.at));
      this.buffer = grown;
    }
    let v = value;
    while (v >= 0x80) {
      this.buffer[this.at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buffer[this.at++] = v;
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.at);
  }
}

/**
 * Decodes the ascending numbers of `bytes[from, to)`, written as gaps (the first from 0), into
 * `out` from `outAt`; returns where `out` ends.
 */
export function decodeGaps(bytes: Uint8Array, from: number, to: number, out: Int32Array, outAt: number): number {
  let at = from;
  let n = outAt;
  let previous = 0;
  while (at < to) {
    let byte = bytes[at++]!;
    let value = byte & 0x7f;
    for (let shift = 7; byte & 0x80; shift += 7) {
      byte = bytes[at++]!;
      value |= (byte & 0x7f) << shift;
    }
    previous += value;
    out[n++] = previous;
  }
  return n;
}
