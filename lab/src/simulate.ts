/**
 * The fetch simulation: what a crawler makes of robots.txt when the server answers with a status, a redirect, a
 * timeout, a broken or an oversized body. Nothing is sent anywhere: the library's own fetchRobotsTxt() runs against
 * a `fetch` that plays the case, so what the page shows is what a crawler using the library does.
 */
import {
  fetchRobotsTxt,
  type FetchLike,
  type ProfileName,
  type RobotsFetchReason,
  type RobotsFetchResult,
  type RobotsOutcome,
} from 'robotstxt-wasm';

/** The origin the simulated file belongs to: a reserved name (RFC 2606), never asked. */
const SITE = 'https://www.example.com';
/** The parser's limit (RFC 9309 §2.5 asks for at least 500 KiB). */
const LIMIT_BYTES = 512_000;
/** How long the simulated timeout waits: the library's deadline, shortened so that the page answers at once. */
const SIMULATED_TIMEOUT_MS = 150;

interface CaseSpec {
  readonly title: string;
  /** Answers one request of the case; `body` is the file in the editor. */
  readonly answer: (url: URL, signal: AbortSignal, body: string) => Promise<Response>;
}

const statusOnly = (status: number) => async () => new Response(null, { status });

/** Every case, by the value the page's `<select>` and the fragment's `simulate=` use. */
export const CASES: Readonly<Record<string, CaseSpec>> = {
  '200': { title: '200 OK with the file', answer: async (_url, _signal, body) => textResponse(body) },
  redirect: {
    title: '301 to another host, then 200',
    answer: async (url, _signal, body) =>
      url.host === 'example.com'
        ? textResponse(body)
        : new Response(null, { status: 301, headers: { location: 'https://example.com/robots.txt' } }),
  },
  '404': { title: '404 Not Found', answer: statusOnly(404) },
  '401': { title: '401 Unauthorized', answer: statusOnly(401) },
  '403': { title: '403 Forbidden', answer: statusOnly(403) },
  '429': { title: '429 Too Many Requests', answer: statusOnly(429) },
  '500': { title: '500 Internal Server Error', answer: statusOnly(500) },
  '503': { title: '503 Service Unavailable', answer: statusOnly(503) },
  'redirect-loop': {
    title: 'a redirect loop',
    answer: async (url) =>
      new Response(null, { status: 302, headers: { location: url.pathname === '/robots.txt' ? '/robots.txt?next' : '/robots.txt' } }),
  },
  'too-many-redirects': {
    title: 'six redirects in a row',
    answer: async (url) => {
      const hop = Number(url.searchParams.get('hop') ?? '0');
      return new Response(null, { status: 301, headers: { location: `/robots.txt?hop=${hop + 1}` } });
    },
  },
  timeout: {
    title: 'no answer (timeout)',
    answer: (_url, signal) =>
      new Promise<Response>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new DOMException('timed out', 'AbortError'))),
      ),
  },
  'network-error': {
    title: 'connection refused',
    answer: async () => {
      throw new TypeError('Failed to fetch');
    },
  },
  'body-cut': {
    title: '200, then the body breaks off',
    answer: async (_url, _signal, body) => {
      const bytes = new TextEncoder().encode(body);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, bytes.length >> 1));
          controller.error(new TypeError('connection reset'));
        },
      });
      return new Response(stream, { status: 200, headers: { 'content-type': 'text/plain' } });
    },
  },
  'over-500kib': {
    title: '200 with the file after 500 KiB of comments',
    answer: async (_url, _signal, body) => textResponse(padded(body)),
  },
};

/** The file after comment lines that fill the parser's limit: every rule of it lies past 500 KiB. */
function padded(body: string): string {
  const line = `# ${'-'.repeat(97)}\n`;
  return line.repeat(Math.ceil(LIMIT_BYTES / line.length)) + body;
}

function textResponse(body: string): Response {
  return new Response(body, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** What one reading makes of a case. */
export interface SimulatedReading {
  readonly reading: ProfileName;
  /** What fetchRobotsTxt() answered: its reason, last status, redirects followed, last URL, bytes parsed, truncation. */
  readonly fetched: Pick<RobotsFetchResult, 'outcome' | 'reason' | 'status' | 'redirects' | 'finalUrl' | 'bytes' | 'truncated'>;
  /** What the crawler does: follows the rules, or crawls everything, or nothing. */
  readonly outcome: RobotsOutcome;
  /** Whether the rules, where fetched, were set aside and everything allowed (Yandex, over 32 KB). */
  readonly setAside: boolean;
  /** The rules the crawler follows, in words: "full rules", "allow all", "disallow all". */
  readonly meaning: string;
  /** Where the rule is written: a section of RFC 9309, or the reading's own documentation where it departs from it. */
  readonly source: { readonly title: string; readonly href: string };
  /** What the reading adds to the standard, if anything. */
  readonly note: string | undefined;
}

/** The section of RFC 9309 behind each reason; `not-200` is Yandex's own rule (YANDEX_RULES). */
const SECTION: Readonly<Record<Exclude<RobotsFetchReason, 'not-200'>, string>> = {
  ok: '§2.3.1.1',
  'client-error': '§2.3.1.3',
  'too-many-redirects': '§2.3.1.2',
  'redirect-loop': '§2.3.1.2',
  'bad-redirect': '§2.3.1.2',
  'redirect-refused': '§2.3.1.2',
  'server-error': '§2.3.1.4',
  'rate-limited': '§2.3.1.4',
  timeout: '§2.3.1.4',
  'network-error': '§2.3.1.4',
  'body-interrupted': '§2.3.1.4',
  'invalid-response': '§2.3.1.4',
  'host-refused': '§2.3.1.4',
};

/** Where Yandex documents that it reads every answer but 200 as allowing everything, and a file over 32 KB so. */
const YANDEX_RULES = 'https://yandex.com/support/webmaster/controlling-robot/robots-txt.html';

function rfcSection(section: string): { title: string; href: string } {
  return { title: `RFC 9309 ${section}`, href: `https://www.rfc-editor.org/rfc/rfc9309#section-${section.slice(1)}` };
}

/** Where the outcome's rule is written. */
function sourceOf(reason: RobotsFetchReason, truncated: boolean, setAside: boolean): { title: string; href: string } {
  if (setAside || reason === 'not-200') return { title: "Yandex's documentation", href: YANDEX_RULES };
  return rfcSection(truncated ? '§2.5' : SECTION[reason]);
}

const MEANING: Readonly<Record<RobotsOutcome, string>> = { rules: 'full rules', 'allow-all': 'allow all', 'disallow-all': 'disallow all' };

/** What each reading adds where it departs from, or goes beyond, the standard. */
function noteFor(reading: ProfileName, result: RobotsFetchResult, setAside: boolean): string | undefined {
  if (setAside) return 'Yandex reads a file over 32 KB as allowing everything.';
  if (result.reason === 'not-200') return 'Yandex reads any answer but 200 as allowing everything.';
  if (reading === 'google' && result.outcome === 'disallow-all') {
    return 'Google stops crawling while this lasts; after 30 days it uses the last copy it fetched, or crawls without restrictions when it has none.';
  }
  if (result.truncated) return `Only the first ${LIMIT_BYTES.toLocaleString('en')} bytes are read (§2.5): rules past them are ignored.`;
  return undefined;
}

/** Runs `caseName` through fetchRobotsTxt() once per reading, against the file `body`. */
export async function simulate(caseName: string, body: string, readings: readonly ProfileName[]): Promise<SimulatedReading[]> {
  const spec = Object.hasOwn(CASES, caseName) ? CASES[caseName] : undefined;
  if (spec === undefined) throw new RangeError(`no simulation named ${JSON.stringify(caseName)}`);
  const fetch: FetchLike = (url, init) => spec.answer(new URL(url), init.signal as AbortSignal, body);
  return Promise.all(readings.map((reading) => simulateReading(fetch, reading)));
}

async function simulateReading(fetch: FetchLike, reading: ProfileName): Promise<SimulatedReading> {
  const result = await fetchRobotsTxt(`${SITE}/`, { userAgent: 'robotstxt-lab', fetch, profile: reading, timeoutMs: SIMULATED_TIMEOUT_MS });
  const setAside = result.outcome === 'rules' && result.robots.diagnostics.some((d) => d.code === 'over-profile-limit');
  const outcome: RobotsOutcome = setAside ? 'allow-all' : result.outcome;
  const { reason, status, redirects, finalUrl, bytes, truncated } = result;
  if (result.outcome === 'rules') result.robots.dispose();
  return {
    reading,
    outcome,
    fetched: { outcome: result.outcome, reason, status, redirects, finalUrl, bytes, truncated },
    setAside,
    meaning: MEANING[outcome],
    source: sourceOf(reason, truncated, setAside),
    note: noteFor(reading, result, setAside),
  };
}
