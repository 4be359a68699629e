// The batch entry points: many URLs (decideMany) or many byte ranges (decideRanges) decided in one crossing;
// and the single check on bytes (decideRange), which reads one range as the range batch reads each.

import { RANGE_END, RANGE_ENTRY_SIZE, RANGE_NOT_UTF8, RANGE_START } from './layout';
import { decide, verdictOf } from './matcher';
import { isUtf8 } from './utf8';

/**
 * Decides `count` URLs in one call. `table` holds count + 1 u32 offsets into `input` (URL i spans
 * table[i]..table[i+1]); verdicts go to `out` as one byte each, 1 = allowed, 0 = disallowed.
 */
export function decideMany(ruleset: usize, input: usize, table: usize, count: usize, scratch: usize, out: usize): void {
  let start = load<u32>(table);
  for (let i: usize = 0; i < count; i++) {
    const end = load<u32>(table + ((i + 1) << 2));
    const index = decide(ruleset, input + start, end - start, scratch);
    store<u8>(out + i, verdictOf(ruleset, index) ? 1 : 0);
    start = end;
  }
}

/**
 * Decides `count` byte ranges of `input`, each as decideRange() decides it. `table` holds an entry of
 * RANGE_ENTRY_SIZE bytes per range (RANGE_* in ./layout.ts); verdicts go to `out`, one byte per range.
 * Returns how many ranges were RANGE_NOT_UTF8, so that the host looks for none when none.
 */
export function decideRanges(ruleset: usize, input: usize, table: usize, count: usize, scratch: usize, out: usize): u32 {
  let invalid: u32 = 0;
  for (let i: usize = 0; i < count; i++) {
    const start = <usize>load<u32>(table + i * RANGE_ENTRY_SIZE, RANGE_START);
    const end = <usize>load<u32>(table + i * RANGE_ENTRY_SIZE, RANGE_END);
    const verdict = rangeVerdict(ruleset, input + start, end - start, scratch);
    store<u8>(out + i, verdict);
    if (verdict == RANGE_NOT_UTF8) invalid++;
  }
  return invalid;
}

/**
 * The verdict for the bytes input[0, length) read as TextDecoder reads UTF-8: one leading byte order mark
 * (EF BB BF) is dropped, then the rest is decided as decide() decides a URL. 1 allowed, 0 disallowed, or
 * RANGE_NOT_UTF8 for bytes that are not well-formed UTF-8 (the host decides the string a TextDecoder makes
 * of them). The single check on bytes; the batch above asks the same of each range.
 */
export function decideRange(ruleset: usize, input: usize, length: usize, scratch: usize): u8 {
  return rangeVerdict(ruleset, input, length, scratch);
}

// @ts-ignore: decorator
@inline
function rangeVerdict(ruleset: usize, input: usize, length: usize, scratch: usize): u8 {
  if (!isUtf8(input, length)) return RANGE_NOT_UTF8;
  if (length >= 3 && load<u16>(input) == 0xbbef && load<u8>(input + 2) == 0xbf) {
    input += 3;
    length -= 3;
  }
  return verdictOf(ruleset, decide(ruleset, input, length, scratch)) ? 1 : 0;
}
