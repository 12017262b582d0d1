/*
 * The register's service worker (issue 51 §3): it keeps the register's page and the app's built files on the
 * device so the register opens without the network. It answers only those requests: the register's page
 * (network first, the kept copy when there is no network) and /assets/ (built files, immutable: the kept copy
 * first). Everything else, the API above all, goes to the network untouched; sales made offline wait in
 * IndexedDB (web/src/pages/pos/offline-queue.ts), not here.
 */
const CACHE = 'bo-pos-v1';
const PAGE = '/pos_register';

self.addEventListener('install', (event) => {
  self.skipWaiting();
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll([PAGE, '/logo.svg', '/pos.webmanifest'])).catch(() => undefined));
});

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// the page names the built files it loaded before this worker took control, so they are kept too
self.addEventListener('message', (event) => {
  const urls = (event.data && event.data.keep) || [];
  event.waitUntil(caches.open(CACHE).then((c) => Promise.all(urls.map((u) => c.match(u).then((hit) => hit || c.add(u)).catch(() => undefined)))));
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate' && url.pathname === PAGE) {
    event.respondWith(fetch(req).then((res) => {
      if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(PAGE, copy)); }
      return res;
    }).catch(() => caches.match(PAGE).then((hit) => hit || Response.error())));
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(caches.match(req).then((hit) => hit || fetch(req).then((res) => {
      if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(req, copy)); }
      return res;
    })));
  }
});
