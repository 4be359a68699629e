/**
 * The reference executor: runs the bytecode (src/compile/bytecode.ts) in plain TypeScript.
 *
 * It is written to be obviously right rather than fast: matching keeps the set of path positions that the
 * pattern read so far can end at, the way Google's reference matcher does, so it shares no algorithm with
 * the WebAssembly matcher it checks (which searches for the pieces between wildcards). It is also the
 * fallback where WebAssembly cannot run.
 */
import {
  HEADER_SIZE,
  NO_MATCH,
  ROBOTS_TXT_IMPLICIT_ALLOW,
  RULE_END_ANCHORED,
  RULE_ENTRY_SIZE,
  RULESET_NORMALIZE_URL,
  RULESET_ROBOTS_TXT_ALLOWED,
} from '../compile/bytecode.js';
import { percentNormalize } from '../compile/normalize.js';
import { pathParamsQuery } from './url-path.js';

const STAR = 0x2a;
const ROBOTS_TXT = new TextEncoder().encode('/robots.txt');

/** Returns the index of the deciding rule, NO_MATCH, or ROBOTS_TXT_IMPLICIT_ALLOW. */
export function executeBytecode(block: Uint8Array, url: Uint8Array): number {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const flags = view.getUint32(4, true);
  const ruleCount = view.getUint32(8, true);
  let path = pathParamsQuery(url);
  if (flags & RULESET_NORMALIZE_URL) path = percentNormalize(path, true);
  if (flags & RULESET_ROBOTS_TXT_ALLOWED && isRobotsTxt(path)) return ROBOTS_TXT_IMPLICIT_ALLOW;

  for (let index = 0; index < ruleCount; index++) {
    const entry = HEADER_SIZE + index * RULE_ENTRY_SIZE;
    const offset = view.getUint32(entry, true);
    const length = view.getUint32(entry + 4, true);
    const anchored = (view.getUint32(entry + 8, true) & RULE_END_ANCHORED) !== 0;
    if (matches(path, block.subarray(offset, offset + length), anchored)) return index;
  }
  return NO_MATCH;
}

/** Whether the rule at `index` allows (an out-of-table index means nothing disallowed). */
export function isAllowRule(block: Uint8Array, index: number): boolean {
  if (index < 0) return true;
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  return (view.getUint32(HEADER_SIZE + index * RULE_ENTRY_SIZE + 8, true) & 1) === 1;
}

function isRobotsTxt(path: Uint8Array): boolean {
  if (path.length < ROBOTS_TXT.length) return false;
  if (path.length > ROBOTS_TXT.length && path[ROBOTS_TXT.length] !== 0x3f /* ? */) return false;
  return ROBOTS_TXT.every((byte, i) => path[i] === byte);
}

/** Anchored at the start; `*` matches any run of bytes; `anchored` pins the end. */
function matches(path: Uint8Array, pattern: Uint8Array, anchored: boolean): boolean {
  // Positions in `path` where a match of the pattern read so far can end, ascending.
  let positions = [0];
  for (const byte of pattern) {
    if (byte === STAR) {
      const first = positions[0] as number;
      positions = [];
      for (let p = first; p <= path.length; p++) positions.push(p);
    } else {
      positions = positions.filter((p) => path[p] === byte).map((p) => p + 1);
      if (positions.length === 0) return false;
    }
  }
  return anchored ? positions[positions.length - 1] === path.length : true;
}
