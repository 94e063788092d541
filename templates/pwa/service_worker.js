{% autoescape off %}// The site's service worker (web/pwa.py), served from /sw.js so its scope is every page.
// It keeps the site's static files and the offline page, under a version computed from the
// files' contents: a deploy that changes one installs a new worker, which drops the old cache.
// Pages always go to the network and get the offline page only when it fails; a page's HTML, a
// match's state, API answers and sockets are never kept (sockets never pass through a worker).
const VERSION = {{ version }};
const CACHE = `static-${VERSION}`;
const STATIC_PREFIX = {{ static_prefix }};
const OFFLINE = {{ offline }};
const KEPT = {{ kept }};

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(KEPT);
    // Without cookies: the offline page is the same for everyone, nobody's page.
    const page = await fetch(OFFLINE, { credentials: "omit", cache: "no-store" });
    if (!page.ok) throw new Error(`offline page: ${page.status}`);
    await cache.put(OFFLINE, page);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => (await caches.match(OFFLINE)) || Response.error()));
    return;
  }
  if (url.pathname.startsWith(STATIC_PREFIX) && !url.search) {
    event.respondWith((async () => (await caches.match(request, { cacheName: CACHE })) || fetch(request))());
  }
  // Anything else (API answers, exports, the manifest): the network, as if there were no worker.
});
{% endautoescape %}
