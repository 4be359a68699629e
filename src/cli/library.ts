/**
 * The library as the command uses it: the Node build, with the matcher's bytes inlined, bundled into the
 * command's own files so that a worker thread loads it without locating anything. (tsup.config.ts keeps
 * the inline entry's side effect, providing the matcher, which the package's "sideEffects": false would let
 * the bundler drop.)
 */
export * from '../platform/inline.js';
