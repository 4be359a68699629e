/** `robotstxt-wasm/compat/robots-parser` for Cloudflare Workers: the matcher imported as a module. */
import { provideWorkersMatcher } from './workers-matcher.js';

provideWorkersMatcher();

export { default } from '../compat/robots-parser.js';
export type { Robot } from '../compat/robots-parser.js';
