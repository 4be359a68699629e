/**
 * The layouts the host shares with the WebAssembly module (assembly/layout.ts, which documents each): the
 * bytecode's header and tables (documented in full in src/compile/bytecode.ts), the lexer's records, the range
 * batch, the line scanner's state block and authority table, and the slack past every buffer that the
 * module's 16-byte scans may read. Offsets and sizes are in bytes.
 *
 * The module exports the same names as globals. src/engine/wasm-layout.ts compares them with these when it
 * loads the module, and refuses a module built for another layout; test/package/layout.test.ts holds the two files to
 * the same names and values. This module holds nothing but those numbers, so that both checks can read all
 * of it.
 */

// ---------------------------------------------------------------------------------------------------------
// The bytecode: header offsets (bytes from the start of a ruleset).
export const BYTECODE_MAGIC = 0x33425452; // "RTB3", the format version
export const HEADER_MAGIC = 0;
export const HEADER_FLAGS = 4;
export const HEADER_RULE_COUNT = 8;
export const HEADER_BYTE_LENGTH = 12;
export const HEADER_PREFIX_COUNT = 16;
export const HEADER_PREFIX_INDEX = 20;
export const HEADER_PATTERN_RULE_COUNT = 24;
export const HEADER_PATTERN_LIST = 28;
export const HEADER_AUTOMATON = 32;
export const HEADER_SIZE = 36;
// One rule table entry: u32 pattern offset, u16 pattern length, u16 rule flags.
export const RULE_ENTRY_SIZE = 8;
export const RULE_PATTERN_OFFSET = 0;
export const RULE_PATTERN_LENGTH = 4;
export const RULE_FLAGS = 6;
// One prefix index entry: u32 rule index, i32 parent entry, u32 best rule index along the chain.
export const PREFIX_ENTRY_SIZE = 12;
export const PREFIX_RULE_INDEX = 0;
export const PREFIX_PARENT = 4;
export const PREFIX_BEST_INDEX = 8;
// One pattern list entry: a u32 rule index.
export const PATTERN_LIST_ENTRY_SIZE = 4;

// The header's flags.
export const RULESET_NORMALIZE_URL = 1;
export const RULESET_ROBOTS_TXT_ALLOWED = 2;
export const RULESET_PATH_ENDS_AT_NUL = 4;
export const RULESET_SCAN = 8;

// A rule's flags.
export const RULE_ALLOW = 1;
export const RULE_END_ANCHORED = 2;
export const RULE_HAS_WILDCARD = 4;
export const RULE_IN_AUTOMATON = 8;

// The piece automaton's header (offsets from its start) and entries.
export const AUTOMATON_NODE_COUNT = 0;
export const AUTOMATON_PIECE_COUNT = 4;
export const AUTOMATON_EDGE_COUNT = 8;
export const AUTOMATON_RULE_COUNT = 12;
export const AUTOMATON_WHEEL_SIZE = 16;
export const AUTOMATON_WORK_BYTES = 20;
export const AUTOMATON_DEEP_COUNT = 24;
export const AUTOMATON_NODES = 28;
export const AUTOMATON_ROOT = 32;
export const AUTOMATON_EDGES = 36;
export const AUTOMATON_TERMINALS = 40;
export const AUTOMATON_PIECES = 44;
export const AUTOMATON_DEEP = 48;
export const AUTOMATON_RULES = 52;
export const AUTOMATON_LIST = 56;
export const AUTOMATON_EDGE_BUCKET_SHIFT = 60;
export const AUTOMATON_TERMINAL_BUCKET_SHIFT = 64;
export const AUTOMATON_HEADER_SIZE = 68;
// One piece: u32 parent in the piece tree + 1, u16 length, u16 deep index (NOT_DEEP when not deep).
export const AUTOMATON_PIECE_ENTRY_SIZE = 8;
export const PIECE_PARENT = 0;
export const PIECE_LENGTH = 4;
export const PIECE_DEEP_INDEX = 6;
export const NOT_DEEP = 0xffff;
// One deep piece: u32 piece, u32 end of its subtree among the deep pieces, u32 nearest ancestor not deep + 1.
export const AUTOMATON_DEEP_ENTRY_SIZE = 12;
export const DEEP_PIECE = 0;
export const DEEP_SUBTREE_END = 4;
export const DEEP_SHALLOW_ANCESTOR = 8;
// One automaton rule: u32 rule index, u32 where its list of pieces starts.
export const AUTOMATON_RULE_ENTRY_SIZE = 8;
export const AUTOMATON_RULE_INDEX = 0;
export const AUTOMATON_RULE_LIST = 4;
// A node word: the byte into the node, TAIL_END, and the failure link above NODE_FAIL_SHIFT.
export const NODE_LABEL_MASK = 0xff;
export const NODE_TAIL_END = 0x100;
export const NODE_FAIL_SHIFT = 9;
// A memo word: the piece + 1 in the low MEMO_PIECE_BITS bits, the check's tag above.
export const MEMO_PIECE_BITS = 22;
export const MEMO_TAGS = 1024;

// What decide() returns besides a rule index.
export const NO_MATCH = -1;
export const ROBOTS_TXT_IMPLICIT_ALLOW = -2;

// ---------------------------------------------------------------------------------------------------------
// Bytes past the end of every buffer the host hands in (a path, a batch, a body, a ruleset's block) that
// the 16-byte scans may read.
export const VECTOR_SLACK = 16;

// ---------------------------------------------------------------------------------------------------------
// The range batch (decideRanges): `count` entries of RANGE_ENTRY_SIZE bytes, u32 start then u32 end, byte
// offsets into the input. A verdict byte is 1 allowed, 0 disallowed, or RANGE_NOT_UTF8 for a range that is
// not valid UTF-8, left for the host to decide as the text a TextDecoder makes of it (its U+FFFD
// replacements encode differently from the raw bytes).
export const RANGE_ENTRY_SIZE = 8;
export const RANGE_START = 0;
export const RANGE_END = 4;
export const RANGE_NOT_UTF8 = 2;

// ---------------------------------------------------------------------------------------------------------
// The lexer: a line keeps at most MAX_LINE_BYTES bytes (Google's limit), and each record is RECORD_SIZE
// bytes of u32 words: line, keyStart, keyEnd, valueStart, valueEnd, kind | CUT_FLAG.
/** Google's limit: 8 × 2083 bytes (the longest URL browsers take) minus the C string's terminator. */
export const MAX_LINE_BYTES = 16663;
export const RECORD_SIZE = 24;
export const RECORD_LINE = 0;
export const RECORD_KEY_START = 4;
export const RECORD_KEY_END = 8;
export const RECORD_VALUE_START = 12;
export const RECORD_VALUE_END = 16;
export const RECORD_INFO = 20;
// kind: malformed (the key spans the trimmed content), user-agent, allow, disallow, sitemap, another key,
// or a blank line that was cut (reported only because of CUT_FLAG).
export const KIND_MALFORMED = 0;
export const KIND_USER_AGENT = 1;
export const KIND_ALLOW = 2;
export const KIND_DISALLOW = 3;
export const KIND_SITEMAP = 4;
export const KIND_OTHER = 5;
export const KIND_BLANK_CUT = 6;
export const KIND_MASK = 0xff;
export const CUT_FLAG = 0x100;

// ---------------------------------------------------------------------------------------------------------
// The line scanner's state block: u32 words at the address given to scanLines, offsets in bytes. In: set by
// the host; in/out: carried from one call to the next within a batch; out: written by the scanner.
export const STATE_INPUT = 0; // in: the batch (read up to VECTOR_SLACK - 1 bytes past its end)
export const STATE_LENGTH = 4; // in: its length
export const STATE_POSITION = 8; // in/out: where the next line starts
export const STATE_LINE = 12; // in/out: that line's index in the batch
export const STATE_OUTPUT = 16; // in: where the wanted lines go (length + 1 bytes)
export const STATE_OUTPUT_LENGTH = 20; // in/out: bytes written there
export const STATE_EMIT = 24; // in: which verdicts are written, 1 << verdict each
export const STATE_FIELD = 28; // in: 0 for the whole line, else the URL's field (1-based)
export const STATE_DELIMITER = 32; // in: the field separator byte, or DELIMITER_SPACES
export const STATE_PATH_VALUE = 36; // in: the value (below) that decides a line that is a path; 0 asks
export const STATE_SCRATCH = 40; // in: 3 × STATE_MAX_LINE + 1 bytes for the matcher to rewrite a path in
export const STATE_MAX_LINE = 44; // in: lines longer than this are the host's
export const STATE_FORCED = 48; // in: the verdict of the line at STATE_POSITION, or NO_VERDICT
export const STATE_ALLOWED = 52; // in/out: lines counted allowed
export const STATE_DISALLOWED = 56; // in/out: … disallowed
export const STATE_MALFORMED = 60; // in/out: … malformed
export const STATE_FIRST_MALFORMED = 64; // in/out: the first malformed line's index, or NO_LINE
export const STATE_STOP_END = 68; // out: where the line the scanner stopped at ends (before CR LF)
export const STATE_HOSTS = 72; // in: the authority table, HOST_SLOTS entries of HOST_ENTRY_SIZE bytes
export const STATE_HOST_SLOTS = 76; // in: its slots, a power of two
export const STATE_HOST_COUNT = 80; // in/out: authorities in it (at most half the slots)
export const STATE_KEYS = 84; // in: the authorities' bytes, lower-cased
export const STATE_KEYS_CAPACITY = 88; // in: bytes there
export const STATE_KEYS_USED = 92; // in/out: bytes used
export const STATE_PENDING_HASH = 96; // out: the unknown authority of a SCAN_ASK_HOST stop …
export const STATE_PENDING_START = 100; // out: … its start in the batch (after any userinfo) …
export const STATE_PENDING_END = 104; // out: … and end
export const STATE_PENDING_HTTPS = 108; // out: … and whether its URL is https
export const STATE_VALUE_COUNTS = 112; // out: lines decided by each value below VALUE_LIMIT, VALUE_LIMIT u32s
export const STATE_SIZE = 176;

// What scanLines returns.
export const SCAN_DONE = 0; // every line of the batch is counted and written
export const SCAN_ASK_LINE = 1; // the host decides the line at STATE_POSITION
export const SCAN_ASK_HOST = 2; // the same, and its authority (STATE_PENDING_*) may be remembered

// Verdicts (as src/cli/filter/decide.ts counts them).
export const VERDICT_DISALLOWED = 0;
export const VERDICT_ALLOWED = 1;
export const VERDICT_MALFORMED = 2;
export const NO_VERDICT = 0xffffffff;
export const NO_LINE = 0xffffffff;
// What decides the URLs of an authority: one of these, or a compiled ruleset's address (never below 16).
export const VALUE_MALFORMED = 1;
// A constant verdict for every URL of an authority: allowed when odd, disallowed when even; the host gives each
// pair a meaning of its own (why the authority has no rules to apply) and reads how many lines each decided.
export const VALUE_DISALLOWED = 2;
export const VALUE_ALLOWED = 3;
export const VALUE_LIMIT = 16;
export const DELIMITER_SPACES = 0x100;

// One authority entry, a cache line: u32 hash (0: empty), u32 key offset in STATE_KEYS, u32 key length |
// HTTPS_KEY, u32 value, then the key itself when it has at most HOST_ENTRY_SIZE - HOST_ENTRY_KEY bytes (most
// do), so that a lookup touches one line of memory; a longer key is in STATE_KEYS.
export const HOST_ENTRY_SIZE = 64;
export const HOST_ENTRY_HASH = 0;
export const HOST_ENTRY_KEY_OFFSET = 4;
export const HOST_ENTRY_KEY_LENGTH = 8;
export const HOST_ENTRY_VALUE = 12;
export const HOST_ENTRY_KEY = 16;
export const HTTPS_KEY = 0x80000000;
