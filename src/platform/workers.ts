/** The entry for Cloudflare Workers, the matcher imported as a module of its own (./workers-matcher.ts). */
import { provideWorkersMatcher } from './workers-matcher.js';

provideWorkersMatcher();

export * from '../index.js';
