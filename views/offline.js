// Offline use: registers the service worker (sw.js) once the engine is ready (so its downloads
// never slow the first start), and moves the page to a new build cleanly.
//
// - First visit: sw.js saves every file of this build on the device and then controls the page.
//   On a static host that sends no COOP/COEP headers the page is not cross-origin isolated on
//   this first visit (Stop restarts the runtime instead of interrupting it); from the next visit
//   on, sw.js adds the headers and it is. No automatic reload for that: it could come while the
//   person is typing, and the non-isolated page works.
// - A new build: its service worker installs beside this one and waits. The page lets it take
//   over at once when the boxes are empty (then reloads into the new build); otherwise it shows
//   a note with a button, so a reload never throws away the person's text unasked.
// Nothing here runs without service workers (an insecure origin, a browser that blocks them).

function typedSomething() {
  return ["qrels-input", "run-input", "baseline-input"].some((id) => document.getElementById(id)?.value.trim());
}

function showUpdateNote(waiting) {
  const note = document.getElementById("update-note");
  if (!note) return;
  note.replaceChildren("A new version of the calculator is ready. ");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "linkish";
  button.dataset.testid = "update-reload";
  button.textContent = "Reload to use it (the boxes will be emptied)";
  button.addEventListener("click", () => {
    state.accepted = true;
    if (waiting) waiting.postMessage({ type: "skip-waiting" });
    else location.reload();
  });
  note.append(button);
  note.hidden = false;
}

const state = { registration: null, accepted: false, error: null };

function offerUpdate(waiting) {
  if (!typedSomething()) {
    state.accepted = true;
    waiting.postMessage({ type: "skip-waiting" });
  } else {
    showUpdateNote(waiting);
  }
}

export async function startOffline() {
  const sw = navigator.serviceWorker;
  if (!sw || !window.isSecureContext) return state;
  let controlled = Boolean(sw.controller); // false on a first visit, until sw.js claims the page
  let reloading = false;
  sw.addEventListener("controllerchange", () => {
    const wasControlled = controlled;
    controlled = true;
    if (reloading || !wasControlled) return; // the first claim: the same build, nothing to do
    // A new build took over (asked by this page, or by another tab of it).
    if (state.accepted || !typedSomething()) {
      reloading = true;
      location.reload();
    } else {
      showUpdateNote(null);
    }
  });
  try {
    const registration = await sw.register("sw.js");
    state.registration = registration;
    const watch = (installing) => installing?.addEventListener("statechange", () => {
      if (installing.state === "installed" && sw.controller) offerUpdate(installing);
    });
    if (registration.waiting && sw.controller) offerUpdate(registration.waiting);
    watch(registration.installing); // an update the navigation found before this ran
    registration.addEventListener("updatefound", () => watch(registration.installing));
  } catch (err) {
    state.error = String(err && err.message || err);
    console.warn("Offline use is not available:", err);
  }
  return state;
}
