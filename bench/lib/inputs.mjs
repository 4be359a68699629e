/**
 * What every engine is given, in the form it is asked in: built from the workloads the `prepare` step saved
 * (bench/lib/workloads.mjs) and the corpus, the same for every engine. Each input is built on first use, once per
 * process and before any timing, so that a pass reads only what it needs (the hot site's passes read one file,
 * not the whole corpus) and no engine's timed loop pays for building it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDirectory, loadCorpus } from '../../harness/corpus.mjs';
import { cappedBody } from './workloads.mjs';

/**
 * @typedef {import('./workloads.mjs').Workloads} Workloads
 * One check of the crawler mix, holding what any engine asks it with: the absolute URL, or the path alone
 * (robots-txt-guard), and the agent by name and by its index in `workloads.crawler.agents`.
 * @typedef {{ site: number, agent: string, agentIndex: number, url: string, path: string }} FrontierCheck
 * The hot site: one large rule set, one agent, its URLs as strings and, for the bytes entry, as one buffer of
 * UTF-8 with `[start, end)` byte ranges, one pair per URL.
 * @typedef {{ body: Uint8Array, origin: string, agent: string, paths: string[], urls: string[], bytes: Uint8Array, ranges: Uint32Array }} HotSite
 * The typical file, asked one URL for one agent.
 * @typedef {{ body: Uint8Array, origin: string, agent: string, url: string }} TypicalFile
 */

export class Inputs {
  /** @type {Uint8Array[] | undefined} */
  #bodies;
  /** @type {FrontierCheck[] | undefined} */
  #frontier;
  /** @type {HotSite | undefined} */
  #hot;
  /** @type {TypicalFile | undefined} */
  #typical;

  /** @param {string} dir where `prepare` wrote workloads.json, beside the snapshot of dist/ */
  constructor(dir) {
    this.dir = dir;
    /** @type {Workloads} */
    this.workloads = JSON.parse(readFileSync(join(dir, 'workloads.json'), 'utf8'));
  }

  /** @param {number} index */
  site(index) {
    const site = this.workloads.sites[index];
    if (site === undefined) throw new Error(`no site ${index} in the workloads`);
    return site;
  }

  /**
   * The capped corpus bodies, indexed like `workloads.sites`; refuses a corpus that changed since `prepare`.
   * Throughput of the whole-corpus passes is counted in these bytes, whatever an engine does with them.
   */
  get bodies() {
    if (this.#bodies === undefined) {
      const files = loadCorpus();
      const { sites } = this.workloads;
      if (files.length !== sites.length || files.some((file, i) => file.name !== sites[i]?.name)) {
        throw new Error('the corpus changed since the workloads were built; run the benchmark again');
      }
      this.#bodies = files.map((file) => cappedBody(file.body));
    }
    return this.#bodies;
  }

  /** The crawler mix in frontier order: an array of entries that already hold what to call, for every engine alike. */
  get frontier() {
    if (this.#frontier === undefined) {
      const { agents, site: sites, agent: agentIndices, path: paths } = this.workloads.crawler;
      this.#frontier = paths.map((path, i) => {
        const site = /** @type {number} */ (sites[i]);
        const agentIndex = /** @type {number} */ (agentIndices[i]);
        return { site, agent: /** @type {string} */ (agents[agentIndex]), agentIndex, url: this.site(site).origin + path, path };
      });
    }
    return this.#frontier;
  }

  get hot() {
    if (this.#hot === undefined) {
      const { site, agent, paths } = this.workloads.hot;
      const { name, origin } = this.site(site);
      const urls = paths.map((path) => origin + path);
      // URLs as a crawler reading them from a file or a pipe holds them: one buffer of lines, with their ranges.
      const encoder = new TextEncoder();
      const encoded = urls.map((url) => encoder.encode(`${url}\n`));
      const bytes = new Uint8Array(encoded.reduce((sum, line) => sum + line.length, 0));
      const ranges = new Uint32Array(2 * urls.length);
      let at = 0;
      encoded.forEach((line, i) => {
        bytes.set(line, at);
        ranges[2 * i] = at;
        ranges[2 * i + 1] = at + line.length - 1;
        at += line.length;
      });
      this.#hot = { body: readBody(name), origin, agent, paths, urls, bytes, ranges };
    }
    return this.#hot;
  }

  get typical() {
    if (this.#typical === undefined) {
      const { site, name, agent, path } = this.workloads.typical;
      const { origin } = this.site(site);
      this.#typical = { body: readBody(name), origin, agent, url: origin + path };
    }
    return this.#typical;
  }
}

/** One corpus file's capped body, read alone. @param {string} name */
function readBody(name) {
  const directory = corpusDirectory();
  if (directory === undefined) throw new Error('the corpus is gone');
  return cappedBody(new Uint8Array(readFileSync(join(directory, name))));
}
