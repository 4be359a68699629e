/**
 * robots-parser, the most used robots.txt package on npm: it parses text (not bytes) into its rule objects,
 * which are all it needs to answer, so its parse is its parse + compile; its checks take absolute URLs and
 * the agent. It has no batch entry: the batch loop calls its single check, writing the same output array.
 *
 * The same loops time our drop-in for it (`robotstxt-wasm/compat/robots-parser`): the same
 * interface, so the same calls; it compiles an agent's rules on that agent's first check, which the
 * crawler pass makes before timing, as robots-parser's parse is made before timing.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { outputProbe, peerVersion } from './engine.mjs';

/**
 * @typedef {import('./engine.mjs').Engine} Engine
 * @typedef {{ isAllowed(url: string, ua?: string): boolean | undefined }} Robots
 * @typedef {(url: string, contents: string) => Robots} RobotsParser
 */

/** robots-parser itself, from node_modules. @returns {Promise<RobotsParser>} */
export async function loadRobotsParser() {
  return (await import('robots-parser')).default;
}

/**
 * Our drop-in from the build a run copied into `dir` (bench/lib/engines/robotstxt-wasm.mjs, importLibrary), like our
 * other engines.
 * @param {string} dir
 * @returns {Promise<RobotsParser>}
 */
export async function loadDropIn(dir) {
  return (await import(pathToFileURL(join(dir, 'dist', 'robots-parser.js')).href)).default;
}

/**
 * An engine of robots-parser's interface.
 * @param {{ impl: import('./engine.mjs').Impl, label: string, load: (inputs: import('./engine.mjs').Inputs) => Promise<RobotsParser> }} parser
 * @returns {Engine}
 */
function robotsParserInterface({ impl, label, load }) {
  return {
    impl,
    label,
    sameAs: { compile: 'parse' },
    notes: { batch: 'loop' },
    passes: {
      async parse(inputs) {
        const parse = await load(inputs);
        const decoder = new TextDecoder();
        const { bodies } = inputs;
        // It takes text: decoded here, once, outside the timing (its throughput is still counted in bytes given).
        const files = bodies.map((body, site) => ({ url: `${inputs.site(site).origin}/robots.txt`, text: decoder.decode(body) }));
        return {
          ops: bodies.reduce((sum, body) => sum + body.byteLength, 0),
          unit: 'bytes',
          run() {
            let parsed = 0;
            for (const file of files) if (parse(file.url, file.text)) parsed++;
            return parsed;
          },
        };
      },

      async first(inputs) {
        const parse = await load(inputs);
        const decoder = new TextDecoder();
        const { body, origin, agent, url } = inputs.typical;
        const robotsUrl = `${origin}/robots.txt`;
        return {
          ops: 1,
          unit: 'files',
          // From bytes, as a crawler receives them: here decoding them is part of the way to a verdict.
          run: () => (parse(robotsUrl, decoder.decode(body)).isAllowed(url, agent) === true ? 1 : 0),
        };
      },

      async crawler(inputs) {
        const parse = await load(inputs);
        const decoder = new TextDecoder();
        // Its parse is its compile: done here, before timing, as ours is compiled before timing.
        const parsed = inputs.bodies.map((body, site) => parse(`${inputs.site(site).origin}/robots.txt`, decoder.decode(body)));
        const checks = inputs.frontier.map((check) => ({
          robots: /** @type {Robots} */ (parsed[check.site]),
          url: check.url,
          agent: check.agent,
        }));
        // Each agent's first check, before timing: the drop-in compiles an agent's rules then.
        for (const check of checks) check.robots.isAllowed(check.url, check.agent);
        return {
          ops: checks.length,
          unit: 'checks',
          run() {
            let allowed = 0;
            for (const check of checks) if (check.robots.isAllowed(check.url, check.agent) === true) allowed++;
            return allowed;
          },
          // 2 marks `undefined` (robots-parser's "this URL is not for this robots.txt"): it never agrees.
          verdicts: () =>
            Uint8Array.from(checks, (check) => {
              const verdict = check.robots.isAllowed(check.url, check.agent);
              return verdict === undefined ? 2 : verdict ? 1 : 0;
            }),
        };
      },

      async hot(inputs) {
        const parse = await load(inputs);
        const { body, origin, agent, urls } = inputs.hot;
        const robots = parse(`${origin}/robots.txt`, new TextDecoder().decode(body));
        return {
          ops: urls.length,
          unit: 'checks',
          run() {
            let allowed = 0;
            for (const url of urls) if (robots.isAllowed(url, agent) === true) allowed++;
            return allowed;
          },
          verdicts: () => Uint8Array.from(urls, (url) => (robots.isAllowed(url, agent) === true ? 1 : 0)),
        };
      },

      async batch(inputs) {
        const parse = await load(inputs);
        const { body, origin, agent, urls } = inputs.hot;
        const robots = parse(`${origin}/robots.txt`, new TextDecoder().decode(body));
        const out = new Uint8Array(urls.length);
        const probe = outputProbe(out);
        return {
          ops: urls.length,
          unit: 'checks',
          run() {
            let i = 0;
            for (const url of urls) out[i++] = robots.isAllowed(url, agent) === true ? 1 : 0;
            return probe();
          },
          verdicts: () => Uint8Array.from(urls, (url) => (robots.isAllowed(url, agent) === true ? 1 : 0)),
        };
      },
    },
  };
}

/** @type {Engine} */
export const robotsParser = robotsParserInterface({
  impl: 'robots-parser',
  label: `robots-parser ${peerVersion('robots-parser')}`,
  load: loadRobotsParser,
});

/** @type {Engine} */
export const dropIn = robotsParserInterface({
  impl: 'drop-in',
  label: 'robotstxt-wasm/compat/robots-parser',
  load: (inputs) => loadDropIn(inputs.dir),
});
