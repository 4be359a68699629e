/** The TypeScript matcher as a backend: the fallback where WebAssembly is unavailable. */
import { checkBytecode } from '../compile/bytecode.js';
import { QUERY_PATH, QUERY_VERDICT_ONLY, type LoadedRuleset, type MatcherBackend, type QueryFlags } from './backend.js';
import { decide, decidePath, verdictOf } from './matcher.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

export const typescriptBackend: MatcherBackend = {
  kind: 'typescript',
  load(bytecode: Uint8Array): LoadedRuleset {
    checkBytecode(bytecode);
    const query = (input: string, flags: QueryFlags): number => {
      const bytes = utf8.encode(input);
      const index = flags & QUERY_PATH ? decidePath(bytecode, bytes) : decide(bytecode, bytes);
      if ((flags & QUERY_VERDICT_ONLY) === 0) return index;
      return verdictOf(bytecode, index) ? 1 : 0;
    };
    return {
      byteLength: bytecode.byteLength,
      bytecode: () => bytecode.slice(),
      query,
      decideMany(urls, out) {
        urls.forEach((url, i) => {
          out[i] = query(url, QUERY_VERDICT_ONLY);
        });
      },
      // Through the string, as decideBytes promises: the bytes a TextDecoder reads, encoded again.
      decideBytes(bytes, ranges, count, out) {
        for (let i = 0; i < count; i++) out[i] = query(text.decode(bytes.slice(ranges[2 * i], ranges[2 * i + 1])), QUERY_VERDICT_ONLY);
      },
      free() {},
    };
  },
};
