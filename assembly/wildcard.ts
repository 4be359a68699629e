// Matching one wildcard pattern against a path, rule by rule (its TypeScript twin: matchesPattern in
// src/engine/matcher.ts).

import { bytesEqual, findByte } from './scan';
import { STAR } from './bytes';

// `*` splits the pattern into literal pieces. Each piece is found leftmost after the previous one, which
// is exact for patterns whose only metacharacter is `*`, and costs O(|path| × |pattern|) at worst.
export function matchesPattern(path: usize, pathLength: usize, pattern: usize, patternLength: usize, anchored: bool): bool {
  // The first piece is anchored at the start of the path. Most rules are turned away here (a file's wildcard
  // rules mostly start with different directories), so when the first '*' is among the first 16 bytes the
  // piece is found and compared in one step, 16 bytes at a time (both buffers have room to read past).
  const head = v128.load(pattern);
  let stars = i8x16.bitmask(i8x16.eq(head, i8x16.splat(<i8>STAR)));
  if (patternLength < 16) stars &= (1 << <i32>patternLength) - 1;
  let pieceEnd: usize;
  if (stars != 0) {
    pieceEnd = <usize>ctz(stars);
    const piece = (1 << <i32>pieceEnd) - 1;
    if (pieceEnd > pathLength || (i8x16.bitmask(i8x16.eq(head, v128.load(path))) & piece) != piece) return false;
  } else {
    pieceEnd = findByte(pattern, 0, patternLength, STAR);
    if (pieceEnd > pathLength || !bytesEqual(path, pattern, pieceEnd)) return false;
  }
  let position = pieceEnd;
  let pieceStart = pieceEnd + 1;
  while (true) {
    pieceEnd = findByte(pattern, pieceStart, patternLength, STAR);
    const pieceLength = pieceEnd - pieceStart;
    if (pieceEnd >= patternLength) {
      // The last piece: pinned to the end when the pattern ended in `$`.
      if (anchored) {
        return pathLength - position >= pieceLength &&
          bytesEqual(path + pathLength - pieceLength, pattern + pieceStart, pieceLength);
      }
      return indexOf(path, position, pathLength, pattern + pieceStart, pieceLength) >= 0;
    }
    const found = indexOf(path, position, pathLength, pattern + pieceStart, pieceLength);
    if (found < 0) return false;
    position = <usize>found + pieceLength;
    pieceStart = pieceEnd + 1;
  }
}

/**
 * Where `needle` first occurs in haystack[from..end), or -1. Candidates (the needle's first byte) are found
 * 16 bytes at a time; reads up to 15 bytes past `end`, which the host keeps in its buffers.
 */
function indexOf(haystack: usize, from: usize, end: usize, needle: usize, needleLength: usize): isize {
  if (needleLength == 0) return <isize>from;
  if (end < needleLength || from > end - needleLength) return -1;
  const candidates = end - needleLength + 1;
  const first = i8x16.splat(load<i8>(needle));
  for (let i = from; i < candidates; i += 16) {
    let mask = i8x16.bitmask(i8x16.eq(v128.load(haystack + i), first));
    const remaining = candidates - i;
    if (remaining < 16) mask &= (1 << <i32>remaining) - 1;
    while (mask != 0) {
      const at = i + <usize>ctz(mask);
      if (bytesEqual(haystack + at + 1, needle + 1, needleLength - 1)) return <isize>at;
      mask &= mask - 1;
    }
  }
  return -1;
}
