/**
 * Typed arrays that compiling reuses from one compile to the next. Compiling one agent's rules needs a
 * dozen arrays that live only until its bytecode is written, and most files have a few dozen rules: V8
 * allocates a typed array of more than 64 bytes outside its heap (about a microsecond each, and more work
 * for the collector), which cost more than compiling a small file's rules. So each array is kept for the
 * next compile, grown when one needs more; one that a rare large file needed is not kept.
 *
 * What an array holds is left over from its last use: a compile writes every element it reads.
 */

/**
 * Arrays larger than this are not kept: they serve files of thousands of rules, whose compile costs far
 * more than allocating them, and all the arrays kept stay within a few hundred KiB.
 */
const KEEP_BYTES = 16 * 1024;

type TypedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

export class Scratch<T extends TypedArray> {
  private kept: T;

  constructor(private readonly make: (length: number) => T) {
    this.kept = make(64);
  }

  /** An array of at least `length` elements, holding whatever it held. */
  take(length: number): T {
    if (length <= this.kept.length) return this.kept;
    const array = this.make(Math.max(length, 2 * this.kept.length));
    if (array.byteLength <= KEEP_BYTES) this.kept = array;
    return array;
  }

  /** `array` (from take()), or a larger one in its place, with room for `length` elements; its first `keep` are kept. */
  grow(array: T, length: number, keep: number): T {
    if (length <= array.length) return array;
    const grown = this.make(Math.max(length, 2 * array.length));
    grown.set(array.subarray(0, keep));
    if (grown.byteLength <= KEEP_BYTES) this.kept = grown;
    return grown;
  }
}
