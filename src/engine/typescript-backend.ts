/** The TypeScript matcher as a backend: the fallback where WebAssembly is unavailable. */
import { checkBytecode } from '../compile/bytecode.js';
import { QUERY_PATH, QUERY_VERDICT_ONLY, type LoadedRuleset, type MatcherBackend, type QueryFlags } from './backend.js';
import { decide, decidePath, verdictOf } from './matcher.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

/** The input the last query() encoded, and its bytes: what queryAgain() reads again (as the WebAssembly backend's region). */
let encoded: string | undefined;
let encodedBytes = new Uint8Array(0);

export const typescriptBackend: MatcherBackend = {
  kind: 'typescript',
  // No addresses: every ruleset answers address() 0, so verdictAt() is never asked.
  epoch: 0,
  verdictAt() {
    throw new Error('the TypeScript executor has no ruleset addresses');
  },
  verdictUtf8At() {
    throw new Error('the TypeScript executor has no ruleset addresses');
  },
  load(bytecode: Uint8Array): LoadedRuleset {
    checkBytecode(bytecode);
    const ask = (bytes: Uint8Array, flags: QueryFlags): number => {
      const index = flags & QUERY_PATH ? decidePath(bytecode, bytes) : decide(bytecode, bytes);
      if ((flags & QUERY_VERDICT_ONLY) === 0) return index;
      return verdictOf(bytecode, index) ? 1 : 0;
    };
    const query = (input: string, flags: QueryFlags): number => {
      encodedBytes = utf8.encode(input);
      encoded = input;
      return ask(encodedBytes, flags);
    };
    const ruleset: LoadedRuleset = {
      byteLength: bytecode.byteLength,
      address: () => 0,
      get storage() {
        return ruleset;
      },
      bytecode: () => bytecode.slice(),
      query,
      queryAgain: (input, flags) => (input === encoded ? ask(encodedBytes, flags) : query(input, flags)),
      decideMany(urls, out) {
        urls.forEach((url, i) => {
          out[i] = query(url, QUERY_VERDICT_ONLY);
        });
      },
      // Through the string, as decideBytes promises: the bytes a TextDecoder reads, encoded again.
      decideBytes(bytes, ranges, count, out) {
        for (let i = 0; i < count; i++) out[i] = query(text.decode(bytes.slice(ranges[2 * i], ranges[2 * i + 1])), QUERY_VERDICT_ONLY);
      },
      decideUtf8: (bytes, start, end) => query(text.decode(bytes.slice(start, end)), QUERY_VERDICT_ONLY),
      free() {},
    };
    return ruleset;
  },
};
