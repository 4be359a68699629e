/**
 * A consumer of robotstxt-wasm/cache-api's declarations that hands it the platform's own Cache (DOM's, which
 * has Workers' shape): it must compile where DOM is declared. Compiled by test/package/package.test.ts against dist/;
 * not run.
 */
import { RobotsCache } from 'robotstxt-wasm';
import { cacheApiStore, type CacheApiCache } from 'robotstxt-wasm/cache-api';

async function use(): Promise<void> {
  const cache: CacheApiCache = await caches.open('robots');
  const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2', store: cacheApiStore({ cache, prefix: 'examplebot:' }) });
  const named = new RobotsCache({ userAgent: 'ExampleBot/1.2', store: cacheApiStore({ cacheName: 'robots', maxValueBytes: 1_048_576 }) });
  void [robots, named];
}

void use;
