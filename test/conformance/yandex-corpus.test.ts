/**
 * What Yandex reads differently (docs/design.md#profiles): every corpus file read for YandexBot by the three profiles, asked
 * the paths its own rules name (on, under and beside each pattern) and a few common ones. Every URL on which
 * `yandex` and `google` disagree must be explained by one of the documented differences, and the files are
 * reported by cause (the counts in the README's "What Yandex reads differently" come from this report):
 * - the file is over 32 KB, which Yandex reads as allowing everything;
 * - Yandex gives the robot the `User-agent: Yandex` group, which a product-token match for YandexBot ignores;
 * - Google's index.html rule (`Allow: /d/index.html` allows `/d/`), which `rfc9309` here follows too and
 *   Yandex's documentation does not state;
 * - Google's own reading, where `yandex` answers as `rfc9309` does (Google's key spellings, a path cut at NUL,
 *   URLs matched as written).
 * spec: Yandex's robots.txt docs (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html) ("If the file size exceeds 32 KB, the robot assumes it allows everything";
 * "looks for either the substring Yandex (the case doesn't matter) or *").
 */
import { expect, it } from 'vitest';
import { pathsForPattern } from '../../harness/paths.mjs';
import { parseRobotsTxt, type ProfileName } from '../../src/platform/inline.js';
import { describeCorpus, loadCorpus } from '../support/corpus.js';

const AGENT = 'YandexBot';
const PROFILES: readonly ProfileName[] = ['rfc9309', 'google', 'yandex'];
const COMMON_PATHS = ['/', '/index.html', '/a/index.html', '/search?q=1'];
const YANDEX_LIMIT = 32 * 1024;

type Cause = 'over 32 KB' | 'the User-agent: Yandex group' | "Google's index.html rule" | "Google's own reading";

const decoder = new TextDecoder();

describeCorpus('what Yandex reads differently, over the corpus', () => {
  it('every disagreement between yandex and google for YandexBot has a documented cause', () => {
    const byCause = new Map<Cause, string[]>();
    const unexplained: string[] = [];
    const pairs = { 'yandex ≠ google': 0, 'yandex ≠ rfc9309': 0, 'rfc9309 ≠ google': 0 };
    let files = 0;
    for (const { name, body } of loadCorpus()) {
      files++;
      const parsed = PROFILES.map((profile) => parseRobotsTxt(body, { profile }));
      const [rfc9309, google, yandex] = parsed.map((robots) => robots.forAgent(AGENT));
      if (rfc9309 === undefined || google === undefined || yandex === undefined) throw new Error('three profiles, three readings');
      const paths = new Set(COMMON_PATHS);
      const allows: string[] = [];
      for (const group of parsed[1]!.groups)
        for (const rule of group.rules) {
          const pattern = decoder.decode(rule.pattern);
          if (rule.allow) allows.push(pattern);
          for (const path of pathsForPattern(pattern)) paths.add(path);
        }
      const seen = { yg: false, yr: false, rg: false };
      let cause: Cause | undefined;
      for (const path of paths) {
        const [r, g, y] = [rfc9309.isAllowed(path), google.isAllowed(path), yandex.isAllowed(path)];
        seen.yg ||= y !== g;
        seen.yr ||= y !== r;
        seen.rg ||= r !== g;
        if (y === g) continue;
        if (body.length > YANDEX_LIMIT) cause ??= 'over 32 KB';
        else if (yandex.matched === 'family') cause ??= 'the User-agent: Yandex group';
        else if (g && path.endsWith('/') && allows.some((allow) => allow.startsWith(`${path}index.`))) cause ??= "Google's index.html rule";
        else if (y === r) cause ??= "Google's own reading";
        else unexplained.push(`${name} ${path}: yandex ${y}, google ${g}, rfc9309 ${r}, yandex's group ${yandex.matched}`);
      }
      if (seen.yg) pairs['yandex ≠ google']++;
      if (seen.yr) pairs['yandex ≠ rfc9309']++;
      if (seen.rg) pairs['rfc9309 ≠ google']++;
      if (cause !== undefined) byCause.set(cause, [...(byCause.get(cause) ?? []), name]);
      for (const rules of [rfc9309, google, yandex]) rules.dispose();
      for (const robots of parsed) robots.dispose();
    }
    const report = [...byCause].map(
      ([cause, names]) => `${cause}: ${names.length} (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''})`,
    );
    console.log(`${files} files read for ${AGENT}; files where the readings disagree: ${JSON.stringify(pairs)}\n${report.join('\n')}`);
    expect(unexplained).toEqual([]);
    // The differences are real and of each kind: the corpus has files of every cause.
    expect(byCause.get('over 32 KB')?.length).toBeGreaterThan(0);
    expect(byCause.get('the User-agent: Yandex group')?.length).toBeGreaterThan(0);
    expect(pairs['yandex ≠ google']).toBe([...byCause.values()].reduce((sum, names) => sum + names.length, 0));
  });
});
