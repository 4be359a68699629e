/**
 * The loops bench/workers/run.mjs times, the same in Node and in workerd (bench/workers/check.js): each a function
 * of its own, so that each is optimized alone. Each returns a sum of what it computed, so that nothing is
 * optimized away.
 */
/**
 * @typedef {'single' | 'batch' | 'compile' | 'encodeInto' | 'charCodeAt'} Mode
 * @param {typeof import('../../src/index.js').parseRobotsTxt} parseRobotsTxt
 * @param {string} body
 * @param {string[]} urls
 * @param {import('../../src/index.js').AgentRules} rules compiled from `body` for ExampleBot
 * @returns {Record<Mode, (n: number) => number>} each loop, run `n` times
 */
export function timedLoops(parseRobotsTxt, body, urls, rules) {
  const encoder = new TextEncoder();
  const target = new Uint8Array(256);
  return {
    single(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) if (rules.isAllowed(/** @type {string} */ (urls[i % urls.length]))) sum++;
      return sum;
    },
    batch(n) {
      let sum = 0;
      const out = new Uint8Array(urls.length);
      for (let done = 0; done < n; done += urls.length) sum += /** @type {number} */ (rules.isAllowedManyInto(urls, out)[0]);
      return sum;
    },
    compile(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const robots = parseRobotsTxt(body);
        if (robots.forAgent('ExampleBot').isAllowed(/** @type {string} */ (urls[i % urls.length]))) sum++;
        robots.dispose();
      }
      return sum;
    },
    /** Copying a URL into memory the way a matcher could: the native encoder. */
    encodeInto(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += encoder.encodeInto(/** @type {string} */ (urls[i % urls.length]), target).written;
      return sum;
    },
    /** The same copy by hand (ASCII URLs), as the WebAssembly backend writes a single URL. */
    charCodeAt(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const url = /** @type {string} */ (urls[i % urls.length]);
        for (let k = 0; k < url.length; k++) target[k] = url.charCodeAt(k);
        sum += url.length;
      }
      return sum;
    },
  };
}

/**
 * The cold path (target 6 of the cold path's targets in bench/RESULTS.md): each host's robots.txt bytes, parsed, compiled for Googlebot, asked its
 * first URL, dropped; the whole sample `n` times. The same in Node and in workerd, like the loops above.
 * @param {typeof import('../../src/index.js').parseRobotsTxt} parseRobotsTxt
 * @param {readonly { body: Uint8Array, url: string }[]} files
 * @returns {(n: number) => number} the passes, answering how many first URLs were allowed
 */
export function coldPasses(parseRobotsTxt, files) {
  return (n) => {
    let allowed = 0;
    for (let pass = 0; pass < n; pass++) {
      for (const file of files) {
        const robots = parseRobotsTxt(file.body);
        if (robots.forAgent('Googlebot').isAllowed(file.url)) allowed++;
        robots.dispose();
      }
    }
    return allowed;
  };
}
