/** The inline entry imports the matcher as bytes (esbuild's binary loader; a plugin in vitest.config.ts). */
declare module '*.wasm' {
  const bytes: Uint8Array<ArrayBuffer>;
  export default bytes;
}
