// The one bridge between the page and its Pyodide worker (worker.js), used by every mode: the
// rankings, the many runs, the Answers mode, the drill-down, the charts and the downloads.
//
// It boots the worker, gives each request an id and a promise, routes the worker's progress
// messages to the request they are about, drops answers nobody waits for any more, and cancels:
// when the page is cross-origin isolated by writing 2 into the interrupt buffer the worker hands
// to Python (KeyboardInterrupt, the runtime is kept), otherwise by terminating the worker and
// starting a new one (the only way to stop Python there).
//
// Two ways to ask:
// - `bridge.call(message)`: one question (the catalogue of measures, one query, a download);
//   resolves with the worker's result, rejects with an Error whose `stale` is true when the
//   answer can no longer be had (the worker restarted, the result asked about is gone).
// - `bridge.lane()`: a sequence of requests where only the latest counts (the shown result of a
//   mode, the many-run comparison). `lane.submit(make)` calls `make()` to build the message when
//   it is sent, so the request is always of the page's state at that moment; a request
//   overtaken by a newer one is cancelled (or its answer dropped) and its promise rejects stale.
//
// The worker answers one request at a time, in the order they were sent (each is one
// synchronous Python call), so the oldest unanswered request is the one it is running.

const staleError = (message, extra = {}) => Object.assign(new Error(message), { stale: true, ...extra });

/** The text sizes of a message (chars of strings, bytes of files): how big the request is. */
function messageSize(message) {
  let size = 0;
  for (const value of Object.values(message)) {
    if (typeof value === "string") size += value.length;
    else if (value instanceof Uint8Array) size += value.byteLength;
    else if (value instanceof Blob) size += value.size;
    else if (Array.isArray(value)) {
      for (const item of value) {
        if (item && item.bytes instanceof Uint8Array) size += item.bytes.byteLength;
        else if (item && typeof item.text === "string") size += item.text.length;
      }
    }
  }
  return size;
}

export class WorkerBridge {
  /**
   * `url`: the worker's script; `init()`: the fields of the init message (base, indexURL,
   * engineWheel, snapshot); `prepare(bridge)`: what to ask once the runtime started and before
   * the page calls it ready (the measure catalogue); `onStatus(state, text, fraction?)`: "loading" /
   * "ready" / "failed" with words for the status line; `onReady(info)`; `onRestart()`: the
   * worker was replaced, whatever it kept is gone.
   */
  constructor({ url, init, prepare = null, cancelAfterMs = 800, onStatus = () => {}, onReady = () => {}, onRestart = () => {} }) {
    Object.assign(this, { url, init, prepare, onStatus, onReady, onRestart });
    this.tuning = { cancelAfterMs }; // without isolation: how long a computation may run before a newer request restarts the worker
    this.worker = null;
    this.started = false; // the runtime answered init (prepare may still be running)
    this.ready = false; // ... and prepare is done: the lanes send
    this.failed = false;
    this.info = null; // init's answer: {pyodide, engine, timings}
    this.restarts = 0;
    this.cancels = 0;
    this.interrupt = null; // Uint8Array on a SharedArrayBuffer when the page is cross-origin isolated
    this.nextId = 1;
    this.initId = 0;
    this.bootStart = 0;
    this.lastAnswerTimings = null; // the worker's own clock for the last answer, for the benchmarks
    this.inflight = new Map(); // id -> {message, resolve, reject, onProgress, sent, cancel}, in sending order
    this.lanes = [];
    this.waiting = []; // whenReady()'s {resolve, reject}
  }

  /** Resolves once the runtime is ready (at once when it is); rejects when it cannot start. */
  whenReady() {
    if (this.ready) return Promise.resolve();
    if (this.failed) return Promise.reject(new Error("the Python runtime could not start"));
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** Starts (or restarts) the worker; every unanswered request is rejected as stale. */
  start() {
    const lost = [...this.inflight.values()];
    this.inflight.clear();
    this.started = this.ready = this.failed = false;
    this.bootStart = performance.now();
    this.onStatus("loading", this.restarts ? "restarting the Python runtime…" : "starting the Python runtime…");
    this.interrupt = self.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    const worker = new Worker(this.url, { type: "module" });
    this.worker = worker;
    this.initId = this.nextId++;
    worker.onmessage = (event) => this.#receive(worker, event.data);
    worker.onerror = (event) => {
      if (worker !== this.worker) return;
      event.preventDefault?.();
      this.#fatal(event.message || "the worker could not start");
    };
    worker.postMessage({ type: "init", id: this.initId, ...this.init(), interruptBuffer: this.interrupt });
    for (const entry of lost) entry.reject(staleError("the Python runtime restarted", { restarted: true }));
  }

  /** One request; resolves with the worker's result (see the module's comment).
   * `onProgress(msg)` hears its progress messages. */
  call(message, { onProgress = null } = {}) {
    return this.request(message, { onProgress }).promise.then((answer) => answer.result);
  }

  /** As `call`, with the request's id: `{id, promise}` (id 0 when it could not be sent); the
   * promise resolves with `{result, id, message, timings, ms}`. */
  request(message, { onProgress = null } = {}) {
    return this.#send(message, onProgress);
  }

  /** A sequence of requests where only the latest counts; see `Lane`. */
  lane(options = {}) {
    const lane = new Lane(this, options);
    this.lanes.push(lane);
    return lane;
  }

  /** Stops request `id`: interrupted when the page is isolated; otherwise, when `restart` allows
   * (the worker has run it for `cancelAfterMs` or more, or `force`), the worker is restarted. */
  cancel(id, { force = false } = {}) {
    const entry = this.inflight.get(id);
    if (!entry || entry.cancel) return;
    entry.cancel = true;
    this.cancels++;
    if (this.interrupt) {
      if (this.#running() === id) this.interrupt[0] = 2; // else when it starts (see #receive)
      return;
    }
    if (this.#running() !== id) return; // queued behind another: its answer is dropped
    if (force || performance.now() - entry.head >= this.tuning.cancelAfterMs) this.restart();
  }

  /** A new worker in place of this one (Python cannot be stopped otherwise without isolation). */
  restart() {
    this.worker?.terminate();
    this.restarts++;
    this.start();
    this.onRestart();
  }

  #running() {
    for (const id of this.inflight.keys()) return id;
    return 0;
  }

  #send(message, onProgress) {
    if (!this.started || !this.worker) {
      return { id: 0, promise: Promise.reject(staleError("the runtime is not ready")) };
    }
    const id = this.nextId++;
    let entry;
    const promise = new Promise((resolve, reject) => {
      entry = { message, resolve, reject, onProgress, sent: performance.now(), head: performance.now(), cancel: false };
    });
    if (!this.inflight.size) entry.head = entry.sent;
    this.inflight.set(id, entry);
    this.worker.postMessage({ ...message, id });
    return { id, promise };
  }

  #fatal(message) {
    this.failed = true;
    this.started = this.ready = false;
    for (const entry of this.inflight.values()) entry.reject(staleError("the Python runtime stopped"));
    this.inflight.clear();
    if (/failed to fetch|networkerror|load failed|importing a module script failed/i.test(message)) {
      message = navigator.onLine === false
        ? "this device is offline, and the calculator's files are not saved on it yet: open the page once while online, and it works offline from then on"
        : "a file it needs could not be downloaded; check the connection";
    }
    this.onStatus("failed", `The Python runtime could not start: ${message}. Reload the page to try again.`);
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error("the Python runtime could not start"));
    for (const lane of this.lanes) lane._stopped();
  }

  async #booted(info) {
    this.started = true;
    this.info = info;
    try {
      if (this.prepare) await this.prepare(this);
    } catch (err) {
      if (err && err.stale) return; // restarted meanwhile: the new worker prepares again
      this.#fatal(err.message || String(err));
      return;
    }
    this.ready = true;
    this.onReady(info);
    for (const waiter of this.waiting.splice(0)) waiter.resolve();
    for (const lane of this.lanes) lane._flush();
  }

  #receive(worker, msg) {
    if (worker !== this.worker || !msg || typeof msg !== "object") return; // a terminated worker's last words
    if (msg.id === this.initId) {
      if (msg.type === "progress") this.onStatus("loading", msg.message, msg.fraction);
      else if (msg.type === "result") this.#booted(msg.result);
      else if (msg.type === "fatal" || msg.type === "error") this.#fatal(msg.message);
      return;
    }
    if (msg.type === "fatal") {
      this.#fatal(msg.message);
      return;
    }
    const entry = this.inflight.get(msg.id);
    if (!entry) return;
    if (msg.type === "progress") {
      if (!entry.cancel) entry.onProgress?.(msg);
      return;
    }
    if (msg.type !== "result" && msg.type !== "error") return;
    this.inflight.delete(msg.id);
    this.lastAnswerTimings = msg.timings || null;
    // The worker now runs the next request: if that one was cancelled while it waited, stop it.
    const next = this.#running();
    if (next) {
      const head = this.inflight.get(next);
      head.head = performance.now();
      if (head.cancel && this.interrupt) this.interrupt[0] = 2;
    }
    if (msg.type === "result") {
      entry.resolve({ result: msg.result, id: msg.id, message: entry.message, timings: msg.timings || null, ms: performance.now() - entry.sent });
    } else if (msg.cancelled && !entry.cancel) {
      // An interrupt meant for the request before it landed on this one: ask again.
      const again = this.#send(entry.message, entry.onProgress);
      again.promise.then(entry.resolve, entry.reject);
    } else {
      entry.reject(Object.assign(new Error(msg.message), { stale: Boolean(msg.stale || msg.cancelled), cancelled: Boolean(msg.cancelled) }));
    }
  }
}

/**
 * The latest request of one kind (what a mode shows): `submit(make)` sends `make()` at once
 * when nothing of this lane is running and the runtime is ready; otherwise it waits, and the
 * running request is cancelled (see `WorkerBridge.cancel`: at once when isolated, else by a
 * restart when it has run long enough). A waiting request replaced by a newer `submit`, and a
 * running one overtaken, reject with `stale`. A request lost to a restart it did not ask for
 * is sent again (unless a newer one waits). `make()` returning null sends nothing (and
 * resolves with null). Resolves with `{result, id, message, timings, ms}`.
 */
export class Lane {
  constructor(bridge, { onProgress = null } = {}) {
    this.bridge = bridge;
    this.onProgress = onProgress;
    this.running = null; // {id, started, size, type, superseded, stopped}
    this.wanted = null; // {make, resolve, reject}
  }

  busy() {
    return Boolean(this.running || this.wanted);
  }

  submit(make) {
    if (this.wanted) this.wanted.reject(staleError("replaced by a newer request"));
    const promise = new Promise((resolve, reject) => { this.wanted = { make, resolve, reject }; });
    if (this.running) {
      this.running.superseded = true;
      this.bridge.cancel(this.running.id);
    } else {
      this._flush();
    }
    return promise;
  }

  /** Nothing of this lane is wanted any more: the waiting request is dropped, the running one
   * cancelled (and its answer dropped). `stop`: the person asked (the Stop button), so a
   * restart is made at once without isolation. */
  clear({ stop = false } = {}) {
    if (this.wanted) {
      this.wanted.reject(staleError("no longer wanted"));
      this.wanted = null;
    }
    if (!this.running) return;
    this.running.superseded = true;
    this.running.stopped = stop;
    this.bridge.cancel(this.running.id, { force: stop });
  }

  _stopped() {
    if (this.wanted) this.wanted.reject(staleError("the Python runtime stopped"));
    this.wanted = null;
    this.running = null;
  }

  _flush() {
    if (this.running || !this.wanted || !this.bridge.ready) return;
    const { make, resolve, reject } = this.wanted;
    this.wanted = null;
    let message;
    try {
      message = make();
    } catch (err) {
      reject(err);
      return;
    }
    if (!message) {
      resolve(null);
      return;
    }
    const { id, promise } = this.bridge.request(message, { onProgress: (msg) => this.onProgress?.(msg) });
    const running = { id, started: performance.now(), size: messageSize(message), type: message.type, superseded: false, stopped: false };
    this.running = running;
    promise.then((answer) => {
      this.#done(running);
      if (running.superseded) reject(staleError("overtaken by a newer request"));
      else resolve(answer);
      this._flush();
    }, (err) => {
      this.#done(running);
      if (err.restarted && !running.stopped && !this.wanted) {
        this.wanted = { make: () => message, resolve, reject }; // lost to another's restart: again
      } else if (running.superseded && !running.stopped) {
        reject(staleError("overtaken by a newer request"));
      } else {
        reject(err);
      }
      this._flush();
    });
  }

  #done(running) {
    if (this.running === running) this.running = null;
  }
}
