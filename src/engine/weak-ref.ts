/**
 * WeakRef where the runtime has it (ES2021). Callers that hold something only to save recomputing it take
 * `undefined` to mean "compute it again every time"; engine/residency.ts, which must find its rulesets again,
 * holds strongly instead.
 */
export interface WeakHold<T> {
  deref(): T | undefined;
}

export const weakRef: (<T extends object>(target: T) => WeakHold<T>) | undefined =
  typeof WeakRef === 'function' ? (target) => new WeakRef(target) : undefined;
