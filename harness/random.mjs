/**
 * The one seeded random generator of tests, benchmarks and examples: the same sequence for the same seed on every
 * machine and in every JS engine, so a "random" input is the same input on every run.
 */

/**
 * mulberry32: a tiny 32-bit PRNG, good enough to shuffle and sample, and identical in every JS engine.
 * @param {number} seed
 * @returns {() => number} uniform in [0, 1)
 */
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
