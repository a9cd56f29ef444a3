// The many-runs box's shared state: the runs in the list, the comparison shown, and the hooks the
// controller (views/many-runs.js) gives the list (views/many-runs-list.js) and the result
// (views/many-runs-result.js), so neither imports the other or the controller.

export const MAX_RUNS = 50;

export const state = {
  lane: null, // the worker bridge's lane of this box's requests (views/worker-bridge.js)
  bridge: null,
  inputs: null, // () => the page's current request: {qrels, options}
  runText: null, // () => the results box's text
  runs: [], // [{id, name, text | bytes, lines, size, file}] (bytes: a file's own, decoded by the engine)
  baseline: null, // the baseline run's id
  nextId: 1,
  timer: 0,
  shownId: 0, // the request whose comparison is drawn (the worker keeps it, for the downloads)
  result: null,
  diffMetric: null, // the metric the differences table shows ("" = all); null: not chosen yet
  renders: 0,
  version: 0, // bumped on every change of the list, so views/keep.js writes it only then
  undo: {}, // the holder of Clear's Undo note (views/inputs.js offerUndo)
};

// Set by views/many-runs.js: score again (after `delay` ms), the list changed (keep it), the
// comparison shown is (not) of the runs any more.
export const hooks = { schedule: (delay) => {}, listChanged: () => {}, markPending: (pending) => {} };
