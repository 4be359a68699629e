/**
 * The entry for Node, browsers and bundlers: the matcher's bytes are inlined into the bundle, so there is
 * no file to locate at run time.
 */
import matcherBytes from '../../build/matcher.wasm';
import { provideWasm } from '../engine/active-backend.js';

provideWasm(matcherBytes);

export * from '../index.js';
