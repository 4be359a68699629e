/** Byte helpers the tests and the benchmarks share. */

/**
 * The parts one after another, in one new array.
 * @param {readonly Uint8Array[]} parts
 * @returns {Uint8Array}
 */
export function concat(parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
