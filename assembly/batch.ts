// The batch entry points: many URLs (decideMany) or many byte ranges (decideRanges) decided in one crossing.

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
 * Decides `count` byte ranges of `input`, each read as TextDecoder reads UTF-8: one leading byte order mark
 * (EF BB BF) is dropped, then the rest is decided as decide() decides a URL. Verdicts go to `out`, one byte
 * per range (RANGE_* in ./layout.ts). Returns how many ranges were RANGE_NOT_UTF8, so that the host looks for none when none.
 */
export function decideRanges(ruleset: usize, input: usize, table: usize, count: usize, scratch: usize, out: usize): u32 {
  let invalid: u32 = 0;
  for (let i: usize = 0; i < count; i++) {
    let start = <usize>load<u32>(table + i * RANGE_ENTRY_SIZE, RANGE_START);
    const end = <usize>load<u32>(table + i * RANGE_ENTRY_SIZE, RANGE_END);
    if (!isUtf8(input + start, end - start)) {
      store<u8>(out + i, RANGE_NOT_UTF8);
      invalid++;
      continue;
    }
    if (end - start >= 3 && load<u16>(input + start) == 0xbbef && load<u8>(input + start + 2) == 0xbf) start += 3;
    const index = decide(ruleset, input + start, end - start, scratch);
    store<u8>(out + i, verdictOf(ruleset, index) ? 1 : 0);
  }
  return invalid;
}
