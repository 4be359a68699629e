/** `robotstxt-wasm/compat/robots-parser` for Node, browsers and bundlers: the matcher inlined. */
import { provideInlineMatcher } from './inline-matcher.js';

provideInlineMatcher();

export { default } from '../compat/robots-parser.js';
export type { Robot } from '../compat/robots-parser.js';
