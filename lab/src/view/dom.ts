/** Building the page's elements: text always goes in as text (never HTML), whatever a file or a link holds. */

type Attributes = Record<string, string | number | boolean | undefined>;

/** An element with attributes (`false` and `undefined` are left out) and children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children);
  return element;
}

/** The element with `id`, which the page's HTML holds. */
export function byId<T extends HTMLElement>(id: string, kind: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof kind)) throw new Error(`the page has no ${kind.name} #${id}`);
  return element;
}

/** "allowed" or "disallowed": the verdict as the page writes it. */
export function verdictText(allowed: boolean): 'allowed' | 'disallowed' {
  return allowed ? 'allowed' : 'disallowed';
}
