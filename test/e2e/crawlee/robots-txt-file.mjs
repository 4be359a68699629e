/**
 * Run by test/e2e/crawlee/crawlee-robots-parser.test.ts from inside a Crawlee install (copied there, so that '@crawlee/utils'
 * and the robots-parser it loads are that install's): asks Crawlee's `RobotsTxtFile.from(url, text)` every question
 * of the JSON file named by argv[2] (`[{ url, body, urls, agents }]`) and writes the answers, as JSON, to argv[3].
 */
import { readFile, writeFile } from 'node:fs/promises';
import { RobotsTxtFile } from '@crawlee/utils';

const [questionsFile, answersFile] = process.argv.slice(2);
const questions = JSON.parse(await readFile(questionsFile, 'utf8'));
const answers = questions.map(({ url, body, urls, agents }) => {
  const robots = RobotsTxtFile.from(url, body);
  return {
    allowed: agents.map((agent) => urls.map((page) => robots.isAllowed(page, agent))),
    sitemaps: robots.getSitemaps({ enqueueStrategy: 'all' }),
  };
});
await writeFile(answersFile, JSON.stringify(answers));
