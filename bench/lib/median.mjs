/**
 * The median of `values` (the mean of the middle two for an even count; NaN for none): every benchmark
 * reports medians across runs, so that one slow spell of the machine does not move the number.
 * @param {readonly number[]} values
 * @returns {number}
 */
export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const upper = sorted[middle] ?? NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? NaN) + upper) / 2;
}
