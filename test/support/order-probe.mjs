/**
 * One process of the order-independence test (test/conformance/order-independence.test.ts): loads one build of the
 * package the way users load it (and the drop-in's entry only when a question needs it), picks a matcher
 * before anything else runs, then asks the questions it is given in the order it is given them, and prints
 * every answer as JSON.
 *
 *   node order-probe.mjs BUILD MATCHER FILES_JSON QUESTIONS [ROUNDS]
 *
 * BUILD: esm | cjs. MATCHER: wasm | typescript. FILES_JSON: a file holding `[{ name, body, agents, urls }]`.
 * QUESTIONS: comma-separated `ENTRY:INDEX`, ENTRY one of native, drop-in, lint, INDEX into the files. ROUNDS:
 * how many times all of them are asked (the answers of every round are printed, so that in the last round
 * each question comes after every other one).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [build, matcher, filesPath, questionsText, roundsText = '1'] = process.argv.slice(2);
const questions = questionsText.split(',').map((question) => question.split(':'));
const require = createRequire(import.meta.url);

/** @param {string} specifier */
async function load(specifier) {
  if (build === 'cjs') return require(specifier);
  if (build === 'esm') return import(specifier);
  throw new Error(`build ${build}: expected esm or cjs`);
}

const library = await load('robotstxt-wasm');
// The WebAssembly matcher is the default, loaded on first use, as a user's process meets it (choosing it
// here would load it before the first parse); the TypeScript executor is chosen before anything is parsed.
if (matcher === 'typescript') library.setMatcher('typescript');
else if (matcher !== 'wasm') throw new Error(`matcher ${matcher}: expected wasm or typescript`);
const dropInModule = questions.some(([entry]) => entry === 'drop-in') ? await load('robotstxt-wasm/compat/robots-parser') : undefined;
const robotsParser = build === 'esm' ? dropInModule?.default : dropInModule;

/** @typedef {{ name: string, body: string, agents: string[], urls: string[] }} ProbeFile */

/** @param {ProbeFile} file */
function nativeAnswers(file) {
  const answers = [];
  for (const profile of ['rfc9309', 'google']) {
    const robots = library.parseRobotsTxt(file.body, { profile });
    answers.push(robots.sitemaps, robots.host ?? null, robots.groups.length);
    for (const agent of file.agents) {
      const rules = robots.forAgent(agent);
      answers.push(rules.matched, rules.crawlDelay ?? null);
      for (const url of file.urls) {
        const explanation = rules.explain(url);
        answers.push([rules.isAllowed(url), explanation.allowed, explanation.line]);
      }
    }
    robots.dispose();
  }
  return answers;
}

/** @param {ProbeFile} file */
function dropInAnswers(file) {
  const robotsUrl = `https://${file.name}/robots.txt`;
  const robots = robotsParser(robotsUrl, file.body);
  const answers = [robots.getSitemaps(), robots.getPreferredHost()];
  for (const agent of [...file.agents, undefined]) {
    answers.push(robots.getCrawlDelay(agent) ?? null);
    for (const url of file.urls) {
      const absolute = `https://${file.name}${url}`;
      answers.push([
        robots.isAllowed(absolute, agent) ?? null,
        robots.isDisallowed(absolute, agent) ?? null,
        robots.getMatchingLineNumber(absolute, agent),
      ]);
    }
  }
  return answers;
}

/** @param {ProbeFile} file */
function lintAnswers(file) {
  return library.lintRobotsTxt(file.body).map((diagnostic) => [diagnostic.code, diagnostic.line, diagnostic.severity]);
}

/** @type {Record<string, (file: ProbeFile) => unknown>} */
const entries = { native: nativeAnswers, 'drop-in': dropInAnswers, lint: lintAnswers };

/** @type {ProbeFile[]} */
const files = JSON.parse(readFileSync(filesPath, 'utf8'));
const rounds = [];
for (let round = 0; round < Number(roundsText); round++) {
  rounds.push(
    questions.map(([entry, index]) => {
      const answer = entries[entry];
      if (answer === undefined) throw new Error(`entry ${entry}: expected native, drop-in or lint`);
      return [entry, Number(index), answer(files[Number(index)])];
    }),
  );
}
process.stdout.write(JSON.stringify({ matcher: library.matcherInfo().kind, rounds }));
