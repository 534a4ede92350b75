/**
 * Text cleaning of the de-identifier, on binary strings (one character per byte, see tokenize.ts): finding the
 * file's identifying strings inside text that is kept, and telling a numeric private value from free text.
 * Descriptions are cleaned by vocabulary (vocabulary.ts). Everything here is linear in the text.
 */

const fold = (code: number): number => (code >= 0x61 && code <= 0x7a ? code - 0x20 : code);

/**
 * Every occurrence of a set of strings (ASCII case-insensitive) found in one pass over a text (Aho–Corasick), so
 * checking each kept value against all of a file's identifiers costs the value's length, not values × identifiers.
 * The trie lives in typed arrays: children as first-child / next-sibling lists.
 */
export class IdentifierIndex {
  private readonly char: Uint8Array;
  private readonly firstChild: Int32Array;
  private readonly nextSibling: Int32Array;
  private readonly fail: Int32Array;
  /** Length of the longest identifier that ends at this node (itself or through its fail links); 0 for none. */
  private readonly longest: Uint16Array;
  private size = 1;

  constructor(identifiers: Iterable<string>) {
    const list = [...new Set(identifiers)].filter((identifier) => identifier.length > 0 && identifier.length < 0xffff);
    const capacity = list.reduce((sum, identifier) => sum + identifier.length, 1);
    this.char = new Uint8Array(capacity);
    this.firstChild = new Int32Array(capacity).fill(-1);
    this.nextSibling = new Int32Array(capacity).fill(-1);
    this.fail = new Int32Array(capacity);
    this.longest = new Uint16Array(capacity);
    for (const identifier of list) {
      let node = 0;
      for (let i = 0; i < identifier.length; i++) {
        const code = fold(identifier.charCodeAt(i) & 0xff);
        let child = this.child(node, code);
        if (child < 0) {
          child = this.size++;
          this.char[child] = code;
          this.nextSibling[child] = this.firstChild[node]!;
          this.firstChild[node] = child;
        }
        node = child;
      }
      this.longest[node] = Math.max(this.longest[node]!, identifier.length);
    }
    const queue = new Int32Array(this.size);
    let head = 0;
    let tail = 0;
    for (let child = this.firstChild[0]!; child >= 0; child = this.nextSibling[child]!) queue[tail++] = child;
    while (head < tail) {
      const node = queue[head++]!;
      for (let child = this.firstChild[node]!; child >= 0; child = this.nextSibling[child]!) {
        this.fail[child] = this.step(this.fail[node]!, this.char[child]!);
        this.longest[child] = Math.max(this.longest[child]!, this.longest[this.fail[child]!]!);
        queue[tail++] = child;
      }
    }
  }

  get empty(): boolean {
    return this.size === 1;
  }

  private child(node: number, code: number): number {
    for (let child = this.firstChild[node]!; child >= 0; child = this.nextSibling[child]!) {
      if (this.char[child] === code) return child;
    }
    return -1;
  }

  private step(state: number, code: number): number {
    let node = state;
    for (;;) {
      const child = this.child(node, code);
      if (child >= 0) return child;
      if (node === 0) return 0;
      node = this.fail[node]!;
    }
  }

  /** Ranges [start, end) of the text covered by identifiers, merged, in order. */
  private ranges(text: string): [number, number][] {
    const ranges: [number, number][] = [];
    if (this.empty) return ranges;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, fold(text.charCodeAt(i) & 0xff));
      const length = this.longest[state]!;
      if (length === 0) continue;
      const start = i + 1 - length;
      while (ranges.length > 0 && ranges[ranges.length - 1]![0] >= start) ranges.pop();
      const last = ranges[ranges.length - 1];
      if (last && last[1] >= start) last[1] = i + 1;
      else ranges.push([start, i + 1]);
    }
    return ranges;
  }

  contains(text: string): boolean {
    return this.ranges(text).length > 0;
  }

  /** The text with every identifier overwritten by `mask` characters: same length, so binary layouts survive. */
  mask(text: string, mask = 'X'): string {
    const ranges = this.ranges(text);
    if (ranges.length === 0) return text;
    let out = '';
    let position = 0;
    for (const [start, end] of ranges) {
      out += text.slice(position, start) + mask.repeat(end - start);
      position = end;
    }
    return out + text.slice(position);
  }

  /** The text with every identifier removed. */
  remove(text: string): string {
    const ranges = this.ranges(text);
    if (ranges.length === 0) return text;
    let out = '';
    let position = 0;
    for (const [start, end] of ranges) {
      out += text.slice(position, start);
      position = end;
    }
    return out + text.slice(position);
  }
}

/** A value made of numbers only (IS, DS, numbers in a text VR or in UN), the only text a safe private value may be. */
export function isNumericText(text: string): boolean {
  return /^[\d\s.+\-eE\\\0]*$/.test(text);
}

/** True when every byte is printable ASCII or padding: the value is text, not binary numbers. */
export function looksLikeText(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte !== 0 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && (byte < 0x20 || byte > 0x7e)) return false;
  }
  return bytes.length > 0;
}
