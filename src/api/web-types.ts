/**
 * The web platform types the public API names (URL, AbortSignal, what fetch takes and returns), as the
 * published declarations see them.
 *
 * The library runs on Node, browsers and Workers, and its users compile with whatever `lib` they chose:
 * `es2022` alone has no `URL` or `Response`, DOM and `@types/node` each declare their own. So the API
 * never names a platform type directly. What it takes is the platform's own type when the user's
 * environment declares it (read off `typeof globalThis`, so nothing is redeclared and nothing clashes),
 * and a small structural shape of what this library uses when it does not; what a `fetch` option
 * returns is the structural shape, which the platform's Response satisfies.
 */

/** What the library reads of a parsed URL. */
export interface UrlShape {
  readonly href: string;
  readonly protocol: string;
  readonly hostname: string;
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
}

/** What the library uses of an AbortSignal. */
export interface AbortSignalShape {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What the library reads of a response body: a ReadableStream of bytes. */
export interface BodyStreamShape {
  getReader(): {
    read(): Promise<{ readonly done: boolean; readonly value?: Uint8Array }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
  cancel(reason?: unknown): Promise<void>;
}

/** What the library reads of a fetch Response. */
export interface ResponseShape {
  readonly status: number;
  readonly type?: string;
  readonly url?: string;
  readonly redirected?: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: BodyStreamShape | null;
}

type PlatformClass<Name extends string, Fallback> = typeof globalThis extends { readonly [K in Name]: { readonly prototype: infer T } }
  ? T
  : Fallback;

/** The platform's `URL` where the user's `lib` declares it, else {@link UrlShape}. */
export type URLInput = PlatformClass<'URL', UrlShape>;
/** The platform's `AbortSignal` where declared, else {@link AbortSignalShape}. */
export type AbortSignalInput = PlatformClass<'AbortSignal', AbortSignalShape>;

/**
 * The second argument robots.txt requests are made with. Every field is one the platform's own
 * `RequestInit` accepts, so `globalThis.fetch` is a valid `fetch` option wherever it is declared.
 */
export interface FetchInit {
  readonly method: 'GET';
  /**
   * Always `'manual'`, except in browsers, which hide redirects from scripts: there `'follow'`, and only when
   * neither `allowHost` nor `allowRedirect` is set (a policy must be asked before each request it governs).
   */
  readonly redirect: 'manual' | 'follow';
  readonly headers: Record<string, string>;
  readonly signal: AbortSignalInput;
}

/** Whether `value` is a parsed URL object (a `URL` of any realm, or anything of its shape). */
export function isUrlObject(value: unknown): value is UrlShape {
  if (typeof value !== 'object' || value === null) return false;
  const url = value as Partial<Record<keyof UrlShape, unknown>>;
  return typeof url.href === 'string' && typeof url.pathname === 'string' && typeof url.search === 'string';
}
