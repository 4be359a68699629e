/**
 * productTokens() as users load it: from the package's ESM and CommonJS builds (dist/, through its "exports"),
 * answering as the source does. The Workers build (dist/worker.js, the workerd condition) is what wrangler
 * bundles into the example gate, which imports productTokens() and runs in workerd in test/e2e/workers/workers.test.ts.
 * `npm test` builds dist/ first.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { productTokens as fromSource } from '../../src/cache/product-token.js';

/** The part of the entry this test uses, stated here so that type-checking needs no build. */
interface Entry {
  productTokens(userAgentHeader: string): string[];
}

const HEADERS = [
  'FriendlyBot/3.0 (, ExampleBot/1.0',
  'Mozilla/5.0 (compatible; FriendlyBot/3.0; ExampleBot/1.0)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'FriendlyBot/3.0 (, ExampleBot/1.0 x)',
];

function answers(entry: Entry): unknown[] {
  return [
    ...HEADERS.map((header) => entry.productTokens(header)),
    ...['x'.repeat(8193), Array.from({ length: 33 }, (_, i) => `Bot-${'x'.repeat(i + 1)}`).join(' ')].map((header) => {
      try {
        return entry.productTokens(header);
      } catch (error) {
        return [(error as Error).name, (error as Error).message];
      }
    }),
  ];
}

describe('productTokens in the built package', () => {
  it('is exported by the ESM and the CommonJS build, and answers as the source does', async () => {
    const expected = answers({ productTokens: fromSource });
    expect(expected[0]).toEqual(['FriendlyBot', 'ExampleBot']);
    expect(expected.at(-1)).toEqual(['RangeError', 'This User-Agent header names more than 32 crawlers; at most 32 are read.']);
    expect(answers((await import('robotstxt-wasm')) as Entry)).toEqual(expected);
    expect(answers(createRequire(import.meta.url)('robotstxt-wasm') as Entry)).toEqual(expected);
  });
});
