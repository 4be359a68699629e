/**
 * `using` support without requiring it: the key classes dispose under is `Symbol.dispose` where the
 * runtime has it, and a private symbol elsewhere (so nothing breaks on older runtimes).
 *
 * Its type is `typeof Symbol.dispose` when the user's `lib` declares it (esnext.disposable, TypeScript
 * 5.2+), so that `using rules = robots.forAgent('ExampleBot')` type-checks there, and a private unique
 * symbol otherwise, so that the declarations compile with any `lib`.
 */

/** The stand-in key's type where `Symbol.dispose` is not declared; never a value anyone can name. */
declare const noDisposeSymbol: unique symbol;

export type DisposeKey = SymbolConstructor extends { readonly dispose: infer S extends symbol } ? S : typeof noDisposeSymbol;

export const disposeKey: DisposeKey = ((Symbol as { readonly dispose?: symbol }).dispose ?? Symbol('dispose')) as DisposeKey;
