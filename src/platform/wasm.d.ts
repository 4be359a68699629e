/**
 * A `.wasm` import: bytes in the inline entry (esbuild's binary loader; a plugin in vitest.config.ts), a
 * compiled WebAssembly.Module in the Workers entry (the Workers bundler compiles it at deploy time).
 */
declare module '*.wasm' {
  const source: Uint8Array<ArrayBuffer> | WebAssembly.Module;
  export default source;
}
