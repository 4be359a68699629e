/**
 * The entry for Node, browsers and bundlers: the matcher's bytes are inlined into the bundle, so there is
 * no file to locate at run time.
 */
import matcherBytes from '../../build/matcher.wasm';
import { provideUtf8Writer, provideWasm } from '../engine/active-backend.js';
import { nodeBufferUtf8 } from '../engine/utf8-writer.js';

provideWasm(matcherBytes);
// In Node, Buffer writes a URL into WebAssembly memory natively, some 2× faster than the loop by hand.
const nodeWriter = nodeBufferUtf8();
if (nodeWriter !== undefined) provideUtf8Writer(nodeWriter);

export * from '../index.js';
