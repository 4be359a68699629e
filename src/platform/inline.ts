/** The entry for Node, browsers and bundlers, with the matcher's bytes inlined (./inline-matcher.ts). */
import { provideInlineMatcher } from './inline-matcher.js';

provideInlineMatcher();

export * from '../index.js';
