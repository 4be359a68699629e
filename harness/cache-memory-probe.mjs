/**
 * Measures what one cached origin costs in RobotsCache for robots.txt files of hostile shapes: the JS memory
 * it holds (heap and array buffers), and apart from it the WebAssembly memory its resident rules take. Run by test/unit/cache/cache-memory.test.ts (and usable by hand) as
 * `node --expose-gc harness/cache-memory-probe.mjs SHAPE ORIGINS`; prints one JSON line.
 * Every body is served by a real HTTP server on 127.0.0.1 (one per origin). bench/hostile-memory/run.mjs runs
 * it too, on another build when ROBOTS_DIST names its dist/index.js (an older build: no stats() or clear()).
 */
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { SHAPES } from './hostile-shapes.mjs';

const entry = process.env.ROBOTS_DIST ? pathToFileURL(process.env.ROBOTS_DIST).href : new URL('../dist/index.js', import.meta.url).href;
const { RobotsCache, matcherInfo } = await import(entry);

const [shape = 'many groups', originsArgument = '8'] = process.argv.slice(2);
const origins = Number(originsArgument);
const make = SHAPES[shape];
if (make === undefined) throw new Error(`unknown shape ${shape}`);
const body = Buffer.from(make());

const servers = await Promise.all(
  Array.from({ length: origins }, async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(body.length) });
      response.end(body);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    return server;
  }),
);
const urls = servers.map((server) => `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/page`);

function settle() {
  const { gc } = globalThis;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  for (let i = 0; i < 4; i++) gc();
}
function measure() {
  settle();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, buffers: usage.arrayBuffers, wasm: matcherInfo().wasmBytesInUse };
}

// Warm up: the matcher's buffers, the compiler, the fetch machinery, one origin cached then cleared.
const cache = new RobotsCache({ userAgent: 'ExampleBot/1.0', agent: 'ExampleBot' });
await cache.isAllowed(urls[0]);
if (typeof cache.clear === 'function') cache.clear();
else cache.dispose(); // older builds: dispose() emptied the cache and kept it usable
const before = measure();
for (const url of urls) await cache.isAllowed(url);
const after = measure();
// JS memory: each origin's body, its rule table and the objects around them (and the bytes of compiled rules
// evicted from WebAssembly memory). WebAssembly memory: the compiled rules that are resident, at most
// RESIDENT_BUDGET for all origins together.
const perOrigin = (after.heap - before.heap + after.buffers - before.buffers) / origins;
const residentPerOrigin = (after.wasm - before.wasm) / origins;
const stats = typeof cache.stats === 'function' ? cache.stats() : { bytesHeld: Number.NaN };
// The parses are collected by now: explain() reads its rule from the body parsed again.
const explained = await cache.explain(`${urls[0]}-explained`);
cache.dispose();
for (const server of servers) server.close();
console.log(
  JSON.stringify({
    shape,
    bodyBytes: body.length,
    origins,
    perOrigin: Math.round(perOrigin),
    residentPerOrigin: Math.round(residentPerOrigin),
    bytesHeldPerOrigin: Math.round(stats.bytesHeld / origins),
    explained,
  }),
);
