/** What the public API needs from a matcher: load a compiled ruleset, ask it, free it. */

export type BackendKind = 'wasm' | 'typescript';

export interface LoadedRuleset {
  /** The index of the deciding rule, NO_MATCH or ROBOTS_TXT_IMPLICIT_ALLOW (src/compile/bytecode.ts). */
  decide(url: string): number;
  /** decide() reduced to the verdict: the hot path. */
  isAllowed(url: string): boolean;
  /**
   * Like decide(), for `path` read as a path just as it stands (a URL object's pathname + search): no URL
   * is located in it, so a leading `//` and a `#` are ordinary characters; only a missing `/` is added.
   */
  decidePath(path: string): number;
  /** decidePath() reduced to the verdict. */
  isAllowedPath(path: string): boolean;
  /** Writes the verdict for urls[i] into out[i]: 1 allowed, 0 disallowed. */
  decideMany(urls: readonly string[], out: Uint8Array): void;
  /**
   * Writes into out[i] the verdict (1 allowed, 0 disallowed) for the URL in bytes[ranges[2i], ranges[2i + 1]),
   * i < count, read as the string `new TextDecoder().decode()` makes of those bytes and decided as
   * isAllowed() decides it. The caller checked the arguments (AgentRules.isAllowedBytes).
   */
  decideBytes(bytes: Uint8Array, ranges: Uint32Array, count: number, out: Uint8Array): void;
  /** Bytes this ruleset holds in the matcher's memory. */
  readonly byteLength: number;
  /** Gives the memory back; the ruleset must not be used afterwards. Idempotent. */
  free(): void;
}

export interface MatcherBackend {
  readonly kind: BackendKind;
  load(bytecode: Uint8Array): LoadedRuleset;
}
