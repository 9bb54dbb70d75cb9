// The service worker of the installed table (issue 35), served at /sw.js so that its scope is
// the whole site. It keeps a copy of the client's files (the page, /static/...) as they are
// fetched, and answers from that copy only when the network fails: the table opens from the
// home screen even on a bad line, and a new version of the client is taken as soon as the
// server answers (the files are revalidated on every load, as without it). The guided first
// hand's script (/api/tutorial, the same for everyone) is kept too; the game itself — the
// rest of /api/..., the WebSocket /ws/... — never: it needs the server.

const CACHE = 'kwx-client-v1';
const SHELL = ['/', '/static/css/app.css', '/static/css/table.css', '/static/css/social.css',
  '/static/js/main.js', '/static/manifest.webmanifest', '/static/icons/icon-192.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

/** Whether ``url`` is one of the client's files (the page, /static/..., and the guided first
 * hand's fixed script /api/tutorial), never the game. */
function isClientFile(url) {
  return url.origin === self.location.origin && (url.pathname === '/' || url.pathname.startsWith('/static/')
    || url.pathname === '/api/tutorial');
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !isClientFile(new URL(request.url))) return;
  event.respondWith(fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((c) => c.put(request, copy));
    }
    return response;
  }).catch(() => caches.match(request, { ignoreSearch: true }).then((hit) => hit || Response.error())));
});
