// The WebAssembly module's exports, and nothing else: each module below has one job.
//
// Nothing in the module allocates: the host owns linear memory above heapBase(), writes rulesets, URL bytes,
// batches and bodies into it, and passes pointers in; the piece automaton's per-check state lives in a work
// area the host allocates once and hands over with setWorkArea. The layout constants are exported too, so
// that the host can check at load that it writes what this module reads (src/engine/wasm-layout.ts).

export * from './layout';
export { heapBase } from './heap';
export { decide, decidePath, isAllowed, isAllowedPath } from './matcher';
export { decideMany, decideRanges, decideRange } from './batch';
export { setWorkArea, workAreaBytes } from './automaton';
export { lex, lexResumeAt, lexLineNumber, lexFinished } from './lexer';
export { scanLines, rememberHost, moveHosts, forgetHosts } from './filter/line-scanner';
