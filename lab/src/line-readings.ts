/**
 * Which readings read a line differently: for each line, the readings whose parse reports it (ignored, unknown,
 * invalid) while another reading takes it. Shown beside the lint diagnostics, so that "only Google reads this"
 * is seen on the line itself.
 */
import type { ProfileName } from 'robotstxt-wasm';
import type { Parses } from './matrix.js';
import { READINGS, READING_TITLE } from './readings.js';

/** For each line (1-based) that the readings disagree on: what each reading makes of it. */
export function linesReadDifferently(parses: Parses): Map<number, string> {
  const reportedBy = new Map<number, Map<ProfileName, string>>();
  for (const reading of READINGS) {
    for (const diagnostic of parses.of(reading).diagnostics) {
      if (diagnostic.line === 0) continue;
      let readings = reportedBy.get(diagnostic.line);
      if (readings === undefined) reportedBy.set(diagnostic.line, (readings = new Map()));
      if (!readings.has(reading)) readings.set(reading, diagnostic.message);
    }
  }
  const differ = new Map<number, string>();
  for (const [line, readings] of reportedBy) {
    if (readings.size === READINGS.length) continue;
    const takers = READINGS.filter((reading) => !readings.has(reading)).map((reading) => READING_TITLE[reading]);
    const refusers = [...readings].map(([reading, message]) => `${READING_TITLE[reading]}: ${message}`);
    differ.set(line, `Read by ${takers.join(' and ')}; not by ${refusers.join('; ')}`);
  }
  return differ;
}
