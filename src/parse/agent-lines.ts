/**
 * What a `User-agent:` value names (RFC 9309 §2.2.1): its product token, and whether it is the global `*`.
 * The parser (./groups.ts) and the one-agent selector (./agent-selector.ts) read agent lines by these alone.
 */
import { isTokenByte } from './ascii.js';

/** Bytes of the leading run of `[A-Za-z_-]` of body[start, end) (the product token). */
export function productTokenLength(body: Uint8Array, start: number, end: number): number {
  let at = start;
  while (at < end && isTokenByte(body[at] as number)) at++;
  return at - start;
}

/** Whether body[start, end) is the global agent: `*` alone, or (Google's tolerance) followed by whitespace. */
export function isGlobalAgent(body: Uint8Array, start: number, end: number): boolean {
  const next = start + 1 < end ? body[start + 1] : undefined;
  return end > start && body[start] === 0x2a && (next === undefined || next === 0x20 || (next >= 0x09 && next <= 0x0d));
}
