// The calculator's service worker: offline use, and cross-origin isolation on any static host.
//
// scripts/build.py writes the build's file list into BUILD below: every URL the page needs
// (the page, its modules, the worker, Pyodide's files, the memory snapshot, the engine's wheel,
// the examples, the manifest and icons) with the SHA-256 of its content, and `version`, a hash
// of that list. So:
//
// - install: fetches every file into a cache named after the version, and refuses a file whose
//   bytes are not the build's (a half-deployed update, a proxy's stale copy): the install then
//   fails as a whole and is tried again at the next visit, so a cache never mixes two builds.
// - a new build (a different sw.js) installs beside the old one and waits; the page asks it to
//   take over (message "skip-waiting") when nothing the person typed would be lost by a reload,
//   and otherwise offers a button. activate: deletes every older cache of ours, then controls
//   the open pages (clients.claim), which reload themselves into the new build.
// - fetch: same-origin GETs are answered from the cache (network when missing); the page and the
//   worker's script with COOP/COEP/CORP added, which makes the page cross-origin isolated
//   (SharedArrayBuffer: instant cancel of a computation) wherever it is hosted, and with the
//   page's CSP when the host sent none (a module worker obeys only its own response's policy).
const BUILD = /*BUILD*/ { version: "dev", csp: "", files: [] } /*END-BUILD*/;
const PREFIX = "retrieval-metrics-";
const CACHE = PREFIX + BUILD.version;
const SCOPE = new URL("./", self.location.href).href;

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// What the page's worker downloaded on the first visit (worker.js keeps the runtime's files here
// as they arrive): taken from here when its bytes are this build's, so no file crosses the
// network twice, even where the browser's own cache lives in memory (a private window).
const FIRST_VISIT = PREFIX + "first-visit";

async function verified(response, file) {
  if (!response || !response.ok) return null;
  const body = await response.clone().arrayBuffer();
  return hex(await crypto.subtle.digest("SHA-256", body)) === file.sha256 ? response : null;
}

async function precache() {
  const cache = await caches.open(CACHE);
  const staged = await caches.has(FIRST_VISIT) ? await caches.open(FIRST_VISIT) : null;
  for (const file of BUILD.files) {
    const url = new URL(file.url, SCOPE).href;
    if (await cache.match(url)) continue; // filled by an earlier, interrupted install
    let response = staged ? await verified(await staged.match(url), file) : null;
    if (!response) {
      const fetched = await fetch(url, { cache: "no-cache" });
      if (!fetched.ok) throw new Error(`${file.url}: HTTP ${fetched.status}`);
      response = await verified(fetched, file);
      if (!response) throw new Error(`${file.url}: not this build's file (another version is being served)`);
    }
    await cache.put(url, response);
  }
  await caches.delete(FIRST_VISIT);
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// Only the documents that set the page's policies need the headers: the page itself and the
// worker's script. Every other file is same-origin (CORP is only checked across origins) and is
// answered with the cached response as it is, which keeps the browser's compiled-code cache for
// the WebAssembly and scripts (a rebuilt Response loses it: 0.8 s more at every start).
function needsHeaders(request) {
  return request.mode === "navigate" || request.destination === "worker" || request.destination === "sharedworker";
}

function isolated(response, request) {
  if (!response || !needsHeaders(request)) return response;
  if (response.type === "opaque" || response.type === "opaqueredirect" || response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  if (BUILD.csp && !headers.has("Content-Security-Policy")) {
    headers.set("Content-Security-Policy", BUILD.csp);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function respond(request) {
  const url = new URL(request.url);
  const cache = await caches.open(CACHE);
  let key = url.href;
  if (request.mode === "navigate" && (url.href.split(/[?#]/)[0] === SCOPE || url.pathname.endsWith("/index.html"))) {
    key = SCOPE; // the page, whatever its query or fragment
  }
  let response = await cache.match(key);
  if (!response) response = await fetch(request); // a network failure rejects: the page says so
  return isolated(response, request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  if (new URL(request.url).pathname.endsWith("/sw.js")) return;
  event.respondWith(respond(request));
});
