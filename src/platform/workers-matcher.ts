/**
 * The matcher for Cloudflare Workers (the `workerd` and `worker` export conditions). Workers refuse to
 * compile WebAssembly from bytes at run time, so the matcher is not inlined: it is imported as a module,
 * which Workers bundlers (wrangler, the vitest pool, miniflare's CompiledWasm rule) compile at deploy time
 * and hand over as a WebAssembly.Module. The build keeps the import as written and ships
 * build/matcher.wasm as dist/matcher.wasm beside the entries (tsup.config.ts).
 */
import matcherModule from './matcher.wasm';
import { provideWasm } from '../engine/active-backend.js';

export function provideWorkersMatcher(): void {
  provideWasm(matcherModule);
}
