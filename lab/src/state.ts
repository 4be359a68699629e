/**
 * What the page tests, and its place in the URL fragment, so that a link reproduces a test and nothing is kept on a
 * server. The plain form is `#robots=…&agent=…&agent=…&url=…&url=…&profile=…` (read with URLSearchParams; `profile`
 * may repeat, absent means every reading), plus `before=` (the earlier version the diff compares with) and
 * `simulate=` (the fetch simulation's case). A long state is written as `#z=`: the plain form deflated
 * (CompressionStream) and base64url-encoded; both forms are read.
 */
import type { ProfileName } from 'robotstxt-wasm';
import { orderedReadings } from './readings.js';

export interface LabState {
  /** The robots.txt being tested. */
  readonly robots: string;
  /** An earlier version of it, for the diff; undefined when there is none. */
  readonly before: string | undefined;
  /** Crawlers as given, one per entry. */
  readonly agents: readonly string[];
  /** URLs as given: paths or absolute URLs. */
  readonly urls: readonly string[];
  /** The readings shown, in the matrix's order. */
  readonly profiles: readonly ProfileName[];
  /** The fetch simulation's case, when one is chosen. */
  readonly simulate: string | undefined;
}

/**
 * Bounds on what a fragment (anyone's link) may make the page do: characters of the robots.txt texts (the
 * parser reads 500 KiB of a file), lines of each list, and what a compressed fragment may inflate to.
 */
export const LIMITS = { textChars: 1_000_000, agents: 50, urls: 1_000, inflatedChars: 4_000_000 } as const;

/** Past this length the page writes the compressed form, when that is shorter. */
const PLAIN_FRAGMENT_CHARS = 4_000;

/** The state as URLSearchParams hold it. */
export function stateFromParams(params: URLSearchParams): LabState {
  const before = params.get('before');
  return {
    robots: (params.get('robots') ?? '').slice(0, LIMITS.textChars),
    before: before === null ? undefined : before.slice(0, LIMITS.textChars),
    agents: params.getAll('agent').slice(0, LIMITS.agents),
    urls: params.getAll('url').slice(0, LIMITS.urls),
    profiles: orderedReadings(params.getAll('profile')),
    simulate: params.get('simulate') ?? undefined,
  };
}

export function paramsFromState(state: LabState): URLSearchParams {
  const params = new URLSearchParams();
  params.set('robots', state.robots);
  if (state.before !== undefined) params.set('before', state.before);
  for (const agent of state.agents) params.append('agent', agent);
  for (const url of state.urls) params.append('url', url);
  // Every reading is what an absent `profile` means: the link stays short.
  if (state.profiles.length < 3) for (const profile of state.profiles) params.append('profile', profile);
  if (state.simulate !== undefined) params.set('simulate', state.simulate);
  return params;
}

/** Whether a fragment holds a state at all (a link to the page alone does not). */
export function hasState(fragment: string): boolean {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  return params.has('z') || params.has('robots') || params.has('url') || params.has('agent');
}

/** The state a fragment (`#…` or without the `#`) holds; a compressed one that cannot be read is an Error. */
export async function readFragment(fragment: string): Promise<LabState> {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const packed = params.get('z');
  if (packed === null) return stateFromParams(params);
  return stateFromParams(new URLSearchParams(await inflate(packed)));
}

/** The fragment (with its `#`) for a state: the plain form, or the compressed one when that is much shorter. */
export async function writeFragment(state: LabState): Promise<string> {
  const plain = paramsFromState(state).toString();
  if (plain.length <= PLAIN_FRAGMENT_CHARS) return `#${plain}`;
  const packed = await deflate(plain);
  return packed.length < plain.length ? `#z=${packed}` : `#${plain}`;
}

async function deflate(text: string): Promise<string> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** Inflates at most LIMITS.inflatedChars bytes: a fragment is anyone's, and a small one can inflate without end. */
async function inflate(packed: string): Promise<string> {
  const bytes = fromBase64Url(packed);
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > LIMITS.inflatedChars) throw new RangeError(`the compressed state inflates past ${LIMITS.inflatedChars} bytes`);
      chunks.push(new Uint8Array(value));
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error instanceof RangeError ? error : new Error('the compressed state in the link is damaged');
  }
  return new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  // Base64 of any byte string is never 1 character past a multiple of 4 long.
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error('the compressed state in the link is damaged');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
