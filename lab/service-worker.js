/*
 * The lab's service worker: it keeps the page's files so that the page loads and works with no network once it
 * has loaded once. Every request is tried on the network first (a new build is seen at once), and answered from
 * the cache when the network fails. The build (lab/offline.ts) writes the list of the page's files into FILES
 * and names the cache after it, so a new build replaces the old copy.
 */
const FILES = FILES_OF_THE_BUILD;
const CACHE = `robotstxt-lab-${CACHE_VERSION}`;

self.addEventListener('install', (event) => {
  const scope = self.registration.scope;
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((file) => new URL(file, scope).href)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((name) => name.startsWith('robotstxt-lab-') && name !== CACHE).map((name) => caches.delete(name))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // Only the page's own files: the command's API (a POST) and anything elsewhere go to the network untouched.
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(request).catch(async () => {
      const cache = await caches.open(CACHE);
      const kept = await cache.match(request, { ignoreSearch: true });
      if (kept !== undefined) return kept;
      if (request.mode === 'navigate') {
        const page = await cache.match(new URL('./', self.registration.scope).href);
        if (page !== undefined) return page;
      }
      return Response.error();
    }),
  );
});
