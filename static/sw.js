// Tableside's service worker: after one visit the app boots with no network.
// tools/build.py publishes this file as /sw.js, prepending VERSION (a hash of
// every precached file and of this script) and PRECACHE ([url, integrity] for
// every file the page can load). One cache per version; the page decides when
// a waiting version takes over (py/ui/shell/offline.py), never this worker.
const CACHE = `tableside-${VERSION}`;
const SHELL = new URL("./", self.location).href;

self.addEventListener("install", (event) => {
  event.waitUntil(precache().catch(async (error) => {
    await caches.delete(CACHE); // a half-filled cache must not be taken for this version
    throw error;
  }));
});

async function precache() {
  const cache = await caches.open(CACHE);
  await Promise.all(PRECACHE.map(async ([url, integrity]) => {
    // "no-cache" revalidates what the first visit already downloaded (a 304,
    // not the 13 MB again); integrity refuses bytes from any other deploy.
    const response = await fetch(new Request(url, { cache: "no-cache", integrity }));
    if (response.status !== 200) throw new Error(`precache: ${url} answered ${response.status}`);
    await cache.put(url, kept(url, response));
  }));
}

// What the cache keeps of a checked download. Python's memory snapshot downloads gzipped and is
// kept inflated (12.5 MB), as static/boot.js reads it at every start: inflating it there took
// 0.1-0.7 s of each start. A redirected response cannot answer a navigation: only its body and
// headers are kept.
function kept(url, response) {
  if (url.endsWith(".snapshot.gz") && typeof DecompressionStream === "function") {
    return new Response(response.body.pipeThrough(new DecompressionStream("gzip")),
                        { headers: { "Content-Type": "application/octet-stream" } });
  }
  return response.redirected ? new Response(response.body, response) : response;
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("tableside-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// Sent by the page when the player taps "Reload" on the update banner.
self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method === "GET" && request.url.startsWith(self.registration.scope)) {
    event.respondWith(fromCache(request));
  }
});

// Cache first. Query strings are ignored, and any navigation (a share link
// included) gets the cached shell; the network only serves what is not cached.
let opened; // one CacheStorage lookup per worker, not one per request (dozens at boot)

async function fromCache(request) {
  const cache = await (opened ??= caches.open(CACHE));
  const options = { ignoreSearch: true, ignoreVary: true };
  const hit = (await cache.match(request, options))
    ?? (request.mode === "navigate" ? await cache.match(SHELL, options) : undefined);
  return hit ?? fetch(request);
}
