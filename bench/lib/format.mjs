/**
 * How the reports write their figures (bench/matcher/report.mjs, bench/cold/report.mjs, the headline): one way for
 * every suite, so that a figure reads the same wherever it appears.
 * @typedef {import('./engines/engine.mjs').Pass} Pass
 */
import { median } from './median.mjs';

/** A count with its SI prefix (k, M, G), to 2 or 3 significant digits. @param {number} value */
export function si(value) {
  if (value >= 1e9) return `${(value / 1e9).toFixed(2)} G`;
  if (value >= 1e6) return `${(value / 1e6).toFixed(value >= 1e8 ? 0 : value >= 1e7 ? 1 : 2)} M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(value >= 1e5 ? 0 : 1)} k`;
  return value.toFixed(0);
}

/** @param {number} bytes */
export function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(2)} MB`;
}

/** A rate as the reports show it, by the unit of its workload. @param {number} perSecond @param {Pass['unit']} unit */
export function rate(perSecond, unit) {
  if (unit === 'bytes') return (perSecond / 1e6).toFixed(1);
  if (unit === 'files') return `${(1e6 / perSecond).toFixed(perSecond > 1e5 ? 1 : 0)} µs`;
  return si(perSecond);
}

/**
 * How far a set of runs' values lie apart: ± half their range, as a share of their median ('' for a single run).
 * @param {readonly number[]} values
 */
export function spread(values) {
  return values.length > 1 ? `±${((50 * (Math.max(...values) - Math.min(...values))) / median(values)).toFixed(0)}%` : '';
}

/** @param {number} ratio */
export function times(ratio) {
  return Number.isNaN(ratio) ? '–' : `${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(1)}×`;
}

/** @param {boolean} ok */
export function mark(ok) {
  return ok ? '✓' : '✗';
}

/**
 * A targets table: `heading`, then one row per target (its text, what was measured, and whether it is met),
 * then the lines of `after`.
 * @param {string} heading @param {readonly (readonly string[])[]} rows @param {readonly string[]} after
 */
export function targetsTable(heading, rows, after) {
  return [
    heading,
    '',
    '| target | measured | met |',
    '| --- | --- | :---: |',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    ...after,
  ];
}
