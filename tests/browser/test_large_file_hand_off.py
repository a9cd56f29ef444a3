"""A large file never holds the page's thread: a picked file of 4 MB and more goes to the worker
as the File it is (the worker reads its bytes; a message's bytes would be copied on the page's
thread as it is sent), and is kept for the next visit as that File (a new Blob of its bytes is a
copy made on the page's thread); a per-query table of many queries draws its first rows with the
scores and the rest just after, every row once, in the table's order."""

from __future__ import annotations

import random

import pytest
from pagekit import open_app

# Every message the page sends its worker, as the kinds of its fields (recorded before app.js runs).
SPY = """(() => {
  window.__sent = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && typeof message === "object" && message.type) {
      const kinds = { type: message.type };
      for (const [key, value] of Object.entries(message)) if (key !== "type") kinds[key] = value?.constructor?.name ?? typeof value;
      window.__sent.push(kinds);
    }
    return post.call(this, message, ...rest);
  };
})();"""


def generated(queries: int, depth: int, seed: int) -> tuple[str, str]:
    rng = random.Random(seed)
    qrels = "".join(f"q{q} 0 d{d} {rng.choice([0, 1, 2])}\n" for q in range(queries) for d in rng.sample(range(depth), 12))
    run = "".join(f"q{q} Q0 d{d} {i + 1} {depth - i}.{q % 9} a-run-name-long-enough-for-megabytes\n"
                  for q in range(queries) for i, d in enumerate(rng.sample(range(depth), depth)))
    return qrels, run


@pytest.fixture(scope="module")
def app(browser, server_url):
    app = open_app(browser, server_url, init_script=SPY, viewport={"width": 1280, "height": 900})
    app.page.set_default_timeout(60_000)
    yield app
    app.page.context.close()


def test_a_large_file_is_sent_as_a_file_and_scored_as_its_bytes(app, tmp_path, engine_numbers):
    qrels, run = generated(600, 200, seed=5)
    assert len(run) > 4 << 20 > len(qrels)
    app.pick_files(tmp_path, qrels, run)
    analyses = [m for m in app.page.evaluate("() => window.__sent") if m["type"] == "analyse"]
    assert analyses[-1]["run"] == "File"  # the File, not its bytes
    assert analyses[-1]["qrels"] == "Uint8Array"  # a smaller file: its bytes, as before
    expected = engine_numbers(qrels, run, k=10)
    assert app.page.evaluate("() => window.__calculator.timings.lastScore.means") == expected["mean"]
    # 600 queries: the first rows came with the scores, the rest after; every row once, in order
    table = app.per_query()
    assert len(table) == 600 and all(values == expected["per_query"][q] for q, values in table.items())
    order = app.page.evaluate("() => [...document.querySelectorAll('[data-testid=per-query-table] tbody tr')].map((r) => r.dataset.query)")
    assert order == [f"q{q}" for q in range(600)]  # by query id, numerically (the table's default)
    assert not app.console_errors


def test_a_sort_right_after_the_scores_drew_draws_each_row_once(app):
    """A sort pressed as soon as the scores are drawn (the later rows perhaps still coming):
    the table drawn anew holds each row once, in the new order, and nothing of the old one."""
    page = app.page
    before = app.renders()
    page.get_by_test_id("k-input").fill("5")
    page.wait_for_function(f"() => window.__calculator.renders > {before}", timeout=120_000)
    page.locator("[data-testid=per-query-table] button[data-sort='ndcg@5']").click()
    page.wait_for_function("() => !window.__calculator.busy()")
    rows = page.evaluate("""() => [...document.querySelectorAll('[data-testid=per-query-table] tbody tr')]
        .map((r) => [r.dataset.query, Number(r.querySelector("td[data-key='ndcg@5']").dataset.value)])""")
    assert len(rows) == 600 and len({q for q, _ in rows}) == 600
    values = [v for _, v in rows]
    assert values == sorted(values, reverse=True) or values == sorted(values)


def test_the_kept_file_comes_back_after_a_reload_with_the_same_scores(app, engine_numbers):
    """The File kept in IndexedDB is read back into the box and scored to the same numbers."""
    page = app.page
    before_means = page.evaluate("() => window.__calculator.timings.lastScore.means")
    page.wait_for_timeout(1500)  # the boxes are written a second after they last changed
    page.reload()
    app.wait_ready()
    page.wait_for_function("() => window.__calculator.renders > 0 && !window.__calculator.busy()", timeout=120_000)
    assert page.get_by_test_id("run-input").input_value().startswith("q0 Q0 d")
    assert page.evaluate("() => window.__calculator.timings.lastScore.means") == before_means
    assert not app.console_errors
