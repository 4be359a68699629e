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
  /** The whole URL, serialized. */
  readonly href: string;
  /** The scheme with its colon: `'https:'`. */
  readonly protocol: string;
  /** The host without the port. */
  readonly hostname: string;
  /** Scheme, host and port: `'https://example.com'`. */
  readonly origin: string;
  /** The path, percent-encoded as the URL parser left it. */
  readonly pathname: string;
  /** The query with its `?`, or `''`. */
  readonly search: string;
}

/** What the library uses of an AbortSignal. */
export interface AbortSignalShape {
  /** Whether the signal has aborted. */
  readonly aborted: boolean;
  /** Why it aborted: what the aborted call rejects with. */
  readonly reason?: unknown;
  /** Calls `listener` when the signal aborts. */
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  /** Stops calling `listener`. */
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What the library reads of a response body: a ReadableStream of bytes. */
export interface BodyStreamShape {
  /** Locks the stream to a reader. */
  getReader(): {
    /** The next chunk of bytes, or `done` at the end of the body. */
    read(): Promise<{
      /** The body has ended: no `value`. */
      readonly done: boolean;
      /** The chunk read. */
      readonly value?: Uint8Array;
    }>;
    /** Stops reading: the rest of the body is not downloaded. */
    cancel(reason?: unknown): Promise<void>;
    /** Unlocks the stream. */
    releaseLock(): void;
  };
  /** Discards the body unread. */
  cancel(reason?: unknown): Promise<void>;
}

/** What the library reads of a fetch Response. */
export interface ResponseShape {
  /** The HTTP status; 0 for a browser's opaque redirect. */
  readonly status: number;
  /** `'opaqueredirect'` when a browser hid a redirect; other values are not read. */
  readonly type?: string;
  /** The URL of the response, after any redirects the fetch followed itself. */
  readonly url?: string;
  /** Whether the fetch followed redirects itself to reach this response. */
  readonly redirected?: boolean;
  /** The response's headers. */
  readonly headers: {
    /** A header's value (case-insensitive name), or null when absent. */
    get(name: string): string | null;
  };
  /** The body as a stream of bytes, or null when there is none. */
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
  /** Always `'GET'`. */
  readonly method: 'GET';
  /**
   * Always `'manual'`, except in browsers, which hide redirects from scripts: there `'follow'`, and only when
   * neither `allowHost` nor `allowRedirect` is set (a policy must be asked before each request it governs).
   */
  readonly redirect: 'manual' | 'follow';
  /** `user-agent` (the `userAgent` option) and, when revalidating, `if-none-match` / `if-modified-since`. */
  readonly headers: Record<string, string>;
  /** Aborts the request at the deadline (`timeoutMs`), or when the fetch is cancelled (RobotsCache.dispose()). */
  readonly signal: AbortSignalInput;
}

/** Whether `value` is a parsed URL object (a `URL` of any realm, or anything of its shape). */
export function isUrlObject(value: unknown): value is UrlShape {
  if (typeof value !== 'object' || value === null) return false;
  const url = value as Partial<Record<keyof UrlShape, unknown>>;
  return typeof url.href === 'string' && typeof url.pathname === 'string' && typeof url.search === 'string';
}
