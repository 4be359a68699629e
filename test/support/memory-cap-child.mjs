/**
 * Run by test/unit/engine/wasm-memory.test.ts in a child `node --wasm-max-mem-pages=…`, so that WebAssembly memory
 * cannot grow past a cap: one way of running out of memory (argv[3]), then the same checks after it.
 * Prints what it saw as one line of JSON; the test decides whether that is right.
 *
 *   node --wasm-max-mem-pages=512 test/support/memory-cap-child.mjs <entry .js> <url|url-object|batch|body|bytes|compiles>
 */
import { pathToFileURL } from 'node:url';

const [entry, scenario] = process.argv.slice(2);
const { parseRobotsTxt, matcherInfo } = await import(pathToFileURL(entry).href);

const SITE = 'User-agent: *\nDisallow: /private\nAllow: /private/open\n';
/** Asked of every ruleset made from SITE; the right verdicts are [false, true, true, false]. */
const URLS = ['/private/x', '/private/open/y', '/public', 'https://example.com/private'];
/** Characters of a URL, and bytes of a body, that need more memory than the cap allows. */
const HUGE = 12_000_000;

/** null when `run` returned; the error's name, message and class when it threw. */
function attempt(run) {
  try {
    run();
    return null;
  } catch (error) {
    return { name: error?.name, message: String(error?.message ?? error), rangeError: error instanceof RangeError };
  }
}

/** `{ ok: value }` when `run` returned, `{ threw: error }` when it threw. */
function outcome(run) {
  let value;
  const threw = attempt(() => {
    value = run();
  });
  return threw === null ? { ok: value } : { threw };
}

function verdicts(rules) {
  return { single: URLS.map((url) => rules.isAllowed(url)), batch: rules.isAllowedMany(URLS) };
}

/** A product token per number: letters only. */
function agentName(i) {
  return `Bot${i.toString(26).replace(/./g, (digit) => String.fromCharCode(97 + parseInt(digit, 26)))}`;
}

/** New work after the failure: a parse of more than 300 KB, a compile, a long URL that fits, a batch. */
function newWork() {
  const big = `${SITE}${'# filler to make the file bigger than 300 KB\n'.repeat(9_000)}`;
  const robots = parseRobotsTxt(big);
  const rules = robots.forAgent('ExampleBot');
  const result = {
    bodyBytes: big.length,
    verdicts: verdicts(rules),
    longUrl: [rules.isAllowed(`/private/${'a'.repeat(1_000_000)}`), rules.isAllowedMany([`/public/${'a'.repeat(1_000_000)}`])[0]],
  };
  robots.dispose();
  return result;
}

// Indexed at once: a switch of tier (after the scan's checks) would change the bytes in use this compares.
const earlier = parseRobotsTxt(SITE).forAgent('ExampleBot', { indexed: true });
const earlierGoogle = parseRobotsTxt(SITE, { profile: 'google' }).forAgent('ExampleBot', { indexed: true });
const bytesBefore = matcherInfo().wasmBytesInUse;
const report = { scenario, kind: matcherInfo().kind };

switch (scenario) {
  case 'url':
    report.error = attempt(() => earlier.isAllowed(`/${'a'.repeat(HUGE)}`));
    break;
  case 'url-object':
    report.error = attempt(() => earlier.isAllowed(new URL(`https://example.com/${'a'.repeat(HUGE)}`)));
    break;
  case 'batch':
    report.error = attempt(() => earlier.isAllowedMany(['/private/a', `/${'a'.repeat(HUGE)}`, '/b']));
    break;
  case 'body':
    // The body is read (into WebAssembly memory) when first asked: by forAgent() here.
    report.error = attempt(() =>
      parseRobotsTxt(`User-agent: *\nDisallow: /\n${'#'.repeat(HUGE * 3)}`, { maxBytes: Infinity }).forAgent('ExampleBot'),
    );
    break;
  case 'bytes':
    report.error = attempt(() => parseRobotsTxt(new Uint8Array(HUGE * 3).fill(0x23), { maxBytes: Infinity }).forAgent('ExampleBot'));
    break;
  case 'compiles': {
    const body = `User-agent: *\n${Array.from({ length: 2_000 }, (_, i) => `Disallow: /section-${i}/private-area/`).join('\n')}\n`;
    const robots = parseRobotsTxt(body);
    const compiled = [];
    report.error = null;
    // Each ruleset has a rule of its own (rulesets compiled to the same bytes share one block), and comes from
    // a parse of its own, made before memory fills (so that the compile is what runs out, not a parse),
    // compiled at once (by default the first verdict is read with nothing compiled). 600 rulesets of 90 KB
    // are more than 32 MiB hold.
    const parses = Array.from({ length: 600 }, (_, i) => parseRobotsTxt(`${body}Disallow: /copy-${i}/\n`));
    for (let i = 0; i < parses.length && report.error === null; i++) {
      report.error = attempt(() => compiled.push(parses[i].forAgent(agentName(i), { indexed: true })));
    }
    parses.length = 0;
    report.compiled = compiled.length;
    report.bytesWhenFull = matcherInfo().wasmBytesInUse;
    const probe = ['/section-7/private-area/x', '/section-7/other', '/section-1999/private-area/'];
    report.fullVerdicts = [compiled[0], compiled[compiled.length >> 1], compiled.at(-1)].map((rules) => rules.isAllowedMany(probe));
    // While memory is full, a new compile either works (a hole fits it) or throws the same RangeError.
    report.whileFull = attempt(() => {
      const small = parseRobotsTxt(SITE).forAgent('ExampleBot');
      report.whileFullVerdicts = verdicts(small);
      small.dispose();
    });
    // Every other one disposed: holes the size of one ruleset, none bigger. Another compile fits in one.
    for (let i = 0; i < compiled.length; i += 2) compiled[i].dispose();
    const kept = compiled.filter((rules) => !rules.disposed);
    report.afterHalfDisposed = attempt(() => {
      const again = robots.forAgent('Another');
      report.anotherVerdicts = again.isAllowedMany(probe);
      const small = parseRobotsTxt(SITE).forAgent('ExampleBot');
      report.smallVerdicts = verdicts(small);
      small.dispose();
    });
    report.keptVerdicts = [kept[0], kept[kept.length >> 1], kept.at(-1)].map((rules) => rules.isAllowedMany(probe));
    // The rest but one disposed too: the holes merge, and bigger work fits again (newWork, below).
    for (const rules of kept.slice(1)) rules.dispose();
    report.lastVerdicts = kept[0].isAllowedMany(probe);
    kept[0].dispose();
    robots.dispose();
    break;
  }
  default:
    throw new Error(`unknown scenario ${scenario}`);
}

report.bytesAfterFailure = matcherInfo().wasmBytesInUse - bytesBefore;
report.earlier = verdicts(earlier);
report.earlierGoogle = verdicts(earlierGoogle);
report.newWork = outcome(newWork);
report.earlierAfterNewWork = verdicts(earlier);
report.bytesAtEnd = matcherInfo().wasmBytesInUse - bytesBefore;
process.stdout.write(`${JSON.stringify(report)}\n`);
