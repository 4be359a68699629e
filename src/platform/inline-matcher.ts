/**
 * The matcher for Node, browsers and bundlers: its bytes inlined into the bundle, so there is no file to
 * locate at run time. Every inline entry calls provideInlineMatcher() (a call, not an import for its side
 * effect, which the package's "sideEffects": false would let a bundler drop).
 */
import matcherBytes from '../../build/matcher.wasm';
import { provideUtf8Writer, provideWasm } from '../engine/active-backend.js';
import { nativeBufferUtf8 } from '../engine/utf8-writer.js';

export function provideInlineMatcher(): void {
  provideWasm(matcherBytes);
  // In Node and Bun, Buffer writes a URL into WebAssembly memory natively, faster than the loop by hand.
  const nativeWriter = nativeBufferUtf8();
  if (nativeWriter !== undefined) provideUtf8Writer(nativeWriter);
}
