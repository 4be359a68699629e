/** What the public API needs from a matcher: load a compiled ruleset, ask it, free it. */

/** Which matcher answers: the WebAssembly one, or the TypeScript executor of the same bytecode. */
export type BackendKind = 'wasm' | 'typescript';

/**
 * What a single query reads and answers (LoadedRuleset.query), as bits. Without QUERY_PATH the input is a
 * URL string, read as Google's reference reads it (an absolute URL or a path; the path, params and query
 * located in it). With it, the input is a path read just as it stands (a URL object's pathname + search):
 * no URL is located in it, so a leading `//` and a `#` are ordinary characters; only a missing `/` is added.
 */
export type QueryFlags = number;
export const QUERY_URL = 0;
export const QUERY_PATH = 1;
/** Answer only the verdict (1 allowed, 0 disallowed), not the deciding rule: the hot path. */
export const QUERY_VERDICT_ONLY = 2;

export interface LoadedRuleset {
  /**
   * Decides one URL (`flags`: QueryFlags): the index of the deciding rule, NO_MATCH or
   * ROBOTS_TXT_IMPLICIT_ALLOW (src/compile/bytecode.ts); with QUERY_VERDICT_ONLY, 1 allowed, 0 disallowed.
   */
  query(input: string, flags: QueryFlags): number;
  /**
   * query(), for the input the last query() of the same backend asked (on any of its rulesets): the matcher
   * reads it where that query wrote it instead of encoding it again (the usage rules ask after the verdict,
   * src/usage/usage-rules.ts). Any other input is asked as query() asks it.
   */
  queryAgain(input: string, flags: QueryFlags): number;
  /** Writes the verdict for urls[i] into out[i]: 1 allowed, 0 disallowed. */
  decideMany(urls: readonly string[], out: Uint8Array): void;
  /**
   * Writes into out[i] the verdict (1 allowed, 0 disallowed) for the URL in bytes[ranges[2i], ranges[2i + 1]),
   * i < count, read as the string `new TextDecoder().decode()` makes of those bytes and decided as
   * query(url, QUERY_VERDICT_ONLY) decides it. The caller checked the arguments (AgentRules.isAllowedBytes).
   */
  decideBytes(bytes: Uint8Array, ranges: Uint32Array, count: number, out: Uint8Array): void;
  /**
   * Where the ruleset is, for the backend's verdictAt(): good while the backend's `epoch` stays what it was
   * when this was read, and until free(); 0 where the backend has no addresses (the TypeScript executor).
   */
  address(): number;
  /**
   * What the ruleset's bytes are counted as: rulesets compiled to the same bytes share them (and this object),
   * so a budget over many rulesets charges each such object once.
   */
  readonly storage: object;
  /**
   * The verdict (1 allowed, 0 disallowed) for the URL in bytes[start, end), read and decided as decideBytes()
   * reads and decides one range. The caller checked the arguments (AgentRules.isAllowedUtf8).
   */
  decideUtf8(bytes: Uint8Array, start: number, end: number): number;
  /** A copy of the ruleset's bytecode (a tier switch writes the next tier from it). */
  bytecode(): Uint8Array;
  /** Bytes this ruleset holds in the matcher's memory. */
  readonly byteLength: number;
  /** Gives the memory back; the ruleset must not be used afterwards. Idempotent. */
  free(): void;
}

export interface MatcherBackend {
  readonly kind: BackendKind;
  load(bytecode: Uint8Array): LoadedRuleset;
  /** Grows whenever an address from LoadedRuleset.address() may have gone stale (its bytes moved). */
  readonly epoch: number;
  /**
   * query(input, QUERY_VERDICT_ONLY) of the ruleset at `address`, read from LoadedRuleset.address() while
   * `epoch` was what it is now: a single check that touches no object of the ruleset's.
   */
  verdictAt(address: number, input: string): number;
  /** LoadedRuleset.decideUtf8 of the ruleset at `address`, read as for verdictAt(). */
  verdictUtf8At(address: number, bytes: Uint8Array, start: number, end: number): number;
}
