/**
 * `robotstxt-wasm/compat/robots-parser`: a drop-in for robots-parser 3.x, `robotsParser(url, contents)`, with
 * the same answers from this library's engine. This file is its entry for Node, browsers and bundlers, the
 * matcher inlined.
 *
 * @module robotstxt-wasm/compat/robots-parser
 */
import { provideInlineMatcher } from './inline-matcher.js';

provideInlineMatcher();

export { default } from '../compat/robots-parser.js';
export type { Robot } from '../compat/robots-parser.js';
