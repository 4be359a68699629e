/** The reference executor as a backend: the fallback where WebAssembly is unavailable. */
import { checkBytecode } from '../compile/bytecode.js';
import type { LoadedRuleset, MatcherBackend } from './backend.js';
import { executeBytecode, executeBytecodeOnPath, isAllowRule } from './executor.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

export const typescriptBackend: MatcherBackend = {
  kind: 'typescript',
  load(bytecode: Uint8Array): LoadedRuleset {
    checkBytecode(bytecode);
    return {
      byteLength: bytecode.byteLength,
      decide: (url) => executeBytecode(bytecode, utf8.encode(url)),
      isAllowed: (url) => isAllowRule(bytecode, executeBytecode(bytecode, utf8.encode(url))),
      decidePath: (path) => executeBytecodeOnPath(bytecode, utf8.encode(path)),
      isAllowedPath: (path) => isAllowRule(bytecode, executeBytecodeOnPath(bytecode, utf8.encode(path))),
      decideMany(urls, out) {
        urls.forEach((url, i) => {
          out[i] = isAllowRule(bytecode, executeBytecode(bytecode, utf8.encode(url))) ? 1 : 0;
        });
      },
      // Through the string, as decideBytes promises: the bytes a TextDecoder reads, encoded again.
      decideBytes(bytes, ranges, count, out) {
        for (let i = 0; i < count; i++) {
          const url = text.decode(bytes.slice(ranges[2 * i], ranges[2 * i + 1]));
          out[i] = isAllowRule(bytecode, executeBytecode(bytecode, utf8.encode(url))) ? 1 : 0;
        }
      },
      free() {},
    };
  },
};
