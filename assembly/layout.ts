// The layouts this module shares with the host: the bytecode (documented in src/compile/bytecode.ts), the
// lexer's records, the range batch, the line scanner's state block and authority table, and the slack past
// every buffer that the 16-byte scans may read.
//
// Each constant is exported, so the module itself says what layout it was built for: the host reads these
// globals when it loads the module and refuses to run on any that differs from src/layout.ts (the values its
// writers use), and test/package/layout.test.ts compares the two files name by name. Inside the module they stay
// compile-time constants: every use is folded into the code, as before they were exported.

// ---------------------------------------------------------------------------------------------------------
// The bytecode: header offsets (bytes from the start of a ruleset).
export const BYTECODE_MAGIC: u32 = 0x33425452; // "RTB3", the format version
export const HEADER_MAGIC: usize = 0;
export const HEADER_FLAGS: usize = 4;
export const HEADER_RULE_COUNT: usize = 8;
export const HEADER_BYTE_LENGTH: usize = 12;
export const HEADER_PREFIX_COUNT: usize = 16;
export const HEADER_PREFIX_INDEX: usize = 20;
export const HEADER_PATTERN_RULE_COUNT: usize = 24;
export const HEADER_PATTERN_LIST: usize = 28;
export const HEADER_AUTOMATON: usize = 32;
export const HEADER_SIZE: usize = 36;
// One rule table entry: u32 pattern offset, u16 pattern length, u16 rule flags.
export const RULE_ENTRY_SIZE: usize = 8;
export const RULE_PATTERN_OFFSET: usize = 0;
export const RULE_PATTERN_LENGTH: usize = 4;
export const RULE_FLAGS: usize = 6;
// One prefix index entry: u32 rule index, i32 parent entry, u32 best rule index along the chain.
export const PREFIX_ENTRY_SIZE: usize = 12;
export const PREFIX_RULE_INDEX: usize = 0;
export const PREFIX_PARENT: usize = 4;
export const PREFIX_BEST_INDEX: usize = 8;
// One pattern list entry: a u32 rule index.
export const PATTERN_LIST_ENTRY_SIZE: usize = 4;

// The header's flags.
export const RULESET_NORMALIZE_URL: u32 = 1;
export const RULESET_ROBOTS_TXT_ALLOWED: u32 = 2;
export const RULESET_PATH_ENDS_AT_NUL: u32 = 4;
export const RULESET_SCAN: u32 = 8;

// A rule's flags.
export const RULE_ALLOW: u32 = 1;
export const RULE_END_ANCHORED: u32 = 2;
export const RULE_HAS_WILDCARD: u32 = 4;
export const RULE_IN_AUTOMATON: u32 = 8;

// The piece automaton's header (offsets from its start) and entries.
export const AUTOMATON_NODE_COUNT: usize = 0;
export const AUTOMATON_PIECE_COUNT: usize = 4;
export const AUTOMATON_EDGE_COUNT: usize = 8;
export const AUTOMATON_RULE_COUNT: usize = 12;
export const AUTOMATON_WHEEL_SIZE: usize = 16;
export const AUTOMATON_WORK_BYTES: usize = 20;
export const AUTOMATON_DEEP_COUNT: usize = 24;
export const AUTOMATON_NODES: usize = 28;
export const AUTOMATON_ROOT: usize = 32;
export const AUTOMATON_EDGES: usize = 36;
export const AUTOMATON_TERMINALS: usize = 40;
export const AUTOMATON_PIECES: usize = 44;
export const AUTOMATON_DEEP: usize = 48;
export const AUTOMATON_RULES: usize = 52;
export const AUTOMATON_LIST: usize = 56;
export const AUTOMATON_EDGE_BUCKET_SHIFT: usize = 60;
export const AUTOMATON_TERMINAL_BUCKET_SHIFT: usize = 64;
export const AUTOMATON_HEADER_SIZE: usize = 68;
// One piece: u32 parent in the piece tree + 1, u16 length, u16 deep index (NOT_DEEP when not deep).
export const AUTOMATON_PIECE_ENTRY_SIZE: usize = 8;
export const PIECE_PARENT: usize = 0;
export const PIECE_LENGTH: usize = 4;
export const PIECE_DEEP_INDEX: usize = 6;
export const NOT_DEEP: u32 = 0xffff;
// One deep piece: u32 piece, u32 end of its subtree among the deep pieces, u32 nearest ancestor not deep + 1.
export const AUTOMATON_DEEP_ENTRY_SIZE: usize = 12;
export const DEEP_PIECE: usize = 0;
export const DEEP_SUBTREE_END: usize = 4;
export const DEEP_SHALLOW_ANCESTOR: usize = 8;
// One automaton rule: u32 rule index, u32 where its list of pieces starts.
export const AUTOMATON_RULE_ENTRY_SIZE: usize = 8;
export const AUTOMATON_RULE_INDEX: usize = 0;
export const AUTOMATON_RULE_LIST: usize = 4;
// A node word: the byte into the node, TAIL_END, and the failure link above NODE_FAIL_SHIFT.
export const NODE_LABEL_MASK: u32 = 0xff;
export const NODE_TAIL_END: u32 = 0x100;
export const NODE_FAIL_SHIFT: u32 = 9;
// A memo word: the piece + 1 in the low MEMO_PIECE_BITS bits, the check's tag above.
export const MEMO_PIECE_BITS: u32 = 22;
export const MEMO_TAGS: u32 = 1024;

// What decide() returns besides a rule index.
export const NO_MATCH: i32 = -1;
export const ROBOTS_TXT_IMPLICIT_ALLOW: i32 = -2;

// ---------------------------------------------------------------------------------------------------------
// Bytes past the end of every buffer the host hands in (a path, a batch, a body, a ruleset's block) that
// the 16-byte scans may read.
export const VECTOR_SLACK: usize = 16;

// ---------------------------------------------------------------------------------------------------------
// The range batch (decideRanges): `count` entries of RANGE_ENTRY_SIZE bytes, u32 start then u32 end, byte
// offsets into the input. A verdict byte is 1 allowed, 0 disallowed, or RANGE_NOT_UTF8 for a range that is
// not valid UTF-8, left for the host to decide as the text a TextDecoder makes of it (its U+FFFD
// replacements encode differently from the raw bytes).
export const RANGE_ENTRY_SIZE: usize = 8;
export const RANGE_START: usize = 0;
export const RANGE_END: usize = 4;
export const RANGE_NOT_UTF8: u8 = 2;

// ---------------------------------------------------------------------------------------------------------
// The lexer: a line keeps at most MAX_LINE_BYTES bytes (Google's limit), and each record is RECORD_SIZE
// bytes of u32 words: line, keyStart, keyEnd, valueStart, valueEnd, kind | CUT_FLAG.
// Google's limit: 8 × 2083 bytes (the longest URL browsers take) minus the C string's terminator.
export const MAX_LINE_BYTES: usize = 16663;
export const RECORD_SIZE: usize = 24;
export const RECORD_LINE: usize = 0;
export const RECORD_KEY_START: usize = 4;
export const RECORD_KEY_END: usize = 8;
export const RECORD_VALUE_START: usize = 12;
export const RECORD_VALUE_END: usize = 16;
export const RECORD_INFO: usize = 20;
// kind: malformed (the key spans the trimmed content), user-agent, allow, disallow, sitemap, another key,
// or a blank line that was cut (reported only because of CUT_FLAG).
export const KIND_MALFORMED: u32 = 0;
export const KIND_USER_AGENT: u32 = 1;
export const KIND_ALLOW: u32 = 2;
export const KIND_DISALLOW: u32 = 3;
export const KIND_SITEMAP: u32 = 4;
export const KIND_OTHER: u32 = 5;
export const KIND_BLANK_CUT: u32 = 6;
export const KIND_MASK: u32 = 0xff;
export const CUT_FLAG: u32 = 0x100;

// ---------------------------------------------------------------------------------------------------------
// The line scanner's state block: u32 words at the address given to scanLines, offsets in bytes. In: set by
// the host; in/out: carried from one call to the next within a batch; out: written by the scanner.
export const STATE_INPUT: usize = 0; // in: the batch (read up to VECTOR_SLACK - 1 bytes past its end)
export const STATE_LENGTH: usize = 4; // in: its length
export const STATE_POSITION: usize = 8; // in/out: where the next line starts
export const STATE_LINE: usize = 12; // in/out: that line's index in the batch
export const STATE_OUTPUT: usize = 16; // in: where the wanted lines go (length + 1 bytes)
export const STATE_OUTPUT_LENGTH: usize = 20; // in/out: bytes written there
export const STATE_EMIT: usize = 24; // in: which verdicts are written, 1 << verdict each
export const STATE_FIELD: usize = 28; // in: 0 for the whole line, else the URL's field (1-based)
export const STATE_DELIMITER: usize = 32; // in: the field separator byte, or DELIMITER_SPACES
export const STATE_PATH_VALUE: usize = 36; // in: the value (below) that decides a line that is a path; 0 asks
export const STATE_SCRATCH: usize = 40; // in: 3 × STATE_MAX_LINE + 1 bytes for the matcher to rewrite a path in
export const STATE_MAX_LINE: usize = 44; // in: lines longer than this are the host's
export const STATE_FORCED: usize = 48; // in: the verdict of the line at STATE_POSITION, or NO_VERDICT
export const STATE_ALLOWED: usize = 52; // in/out: lines counted allowed
export const STATE_DISALLOWED: usize = 56; // in/out: … disallowed
export const STATE_MALFORMED: usize = 60; // in/out: … malformed
export const STATE_FIRST_MALFORMED: usize = 64; // in/out: the first malformed line's index, or NO_LINE
export const STATE_STOP_END: usize = 68; // out: where the line the scanner stopped at ends (before CR LF)
export const STATE_HOSTS: usize = 72; // in: the authority table, HOST_SLOTS entries of HOST_ENTRY_SIZE bytes
export const STATE_HOST_SLOTS: usize = 76; // in: its slots, a power of two
export const STATE_HOST_COUNT: usize = 80; // in/out: authorities in it (at most half the slots)
export const STATE_KEYS: usize = 84; // in: the authorities' bytes, lower-cased
export const STATE_KEYS_CAPACITY: usize = 88; // in: bytes there
export const STATE_KEYS_USED: usize = 92; // in/out: bytes used
export const STATE_PENDING_HASH: usize = 96; // out: the unknown authority of a SCAN_ASK_HOST stop …
export const STATE_PENDING_START: usize = 100; // out: … its start in the batch (after any userinfo) …
export const STATE_PENDING_END: usize = 104; // out: … and end
export const STATE_PENDING_HTTPS: usize = 108; // out: … and whether its URL is https
export const STATE_VALUE_COUNTS: usize = 112; // out: lines decided by each value below VALUE_LIMIT, VALUE_LIMIT u32s
export const STATE_SIZE: usize = 176;

// What scanLines returns.
export const SCAN_DONE: u32 = 0; // every line of the batch is counted and written
export const SCAN_ASK_LINE: u32 = 1; // the host decides the line at STATE_POSITION
export const SCAN_ASK_HOST: u32 = 2; // the same, and its authority (STATE_PENDING_*) may be remembered

// Verdicts (as src/cli/filter/decide.ts counts them).
export const VERDICT_DISALLOWED: u32 = 0;
export const VERDICT_ALLOWED: u32 = 1;
export const VERDICT_MALFORMED: u32 = 2;
export const NO_VERDICT: u32 = 0xffffffff;
export const NO_LINE: u32 = 0xffffffff;
// What decides the URLs of an authority: one of these, or a compiled ruleset's address (never below 16).
export const VALUE_MALFORMED: u32 = 1;
// A constant verdict for every URL of an authority: allowed when odd, disallowed when even; the host gives each
// pair a meaning of its own (why the authority has no rules to apply) and reads how many lines each decided.
export const VALUE_DISALLOWED: u32 = 2;
export const VALUE_ALLOWED: u32 = 3;
export const VALUE_LIMIT: u32 = 16;
export const DELIMITER_SPACES: u32 = 0x100;

// One authority entry, a cache line: u32 hash (0: empty), u32 key offset in STATE_KEYS, u32 key length |
// HTTPS_KEY, u32 value, then the key itself when it has at most HOST_ENTRY_SIZE - HOST_ENTRY_KEY bytes (most
// do), so that a lookup touches one line of memory; a longer key is in STATE_KEYS.
export const HOST_ENTRY_SIZE: usize = 64;
export const HOST_ENTRY_HASH: usize = 0;
export const HOST_ENTRY_KEY_OFFSET: usize = 4;
export const HOST_ENTRY_KEY_LENGTH: usize = 8;
export const HOST_ENTRY_VALUE: usize = 12;
export const HOST_ENTRY_KEY: usize = 16;
export const HTTPS_KEY: u32 = 0x80000000;
