"""axe-core finds no accessibility violation in any state of the page: empty, each example, input and
setting errors, a comparison, on a phone (390x844) and a desktop (1280x900), light and dark.

axe-core (npm, pinned in package.json) is injected into the page under test only: it is never
copied into dist/. Its script is inline, which the page's Content-Security-Policy refuses, so this
module's context bypasses the CSP (the page itself is unchanged).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from pagekit import App
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
EXAMPLES = sorted(p.name for p in (ROOT / "examples").iterdir() if (p / "settings.json").exists()
                  and json.loads((p / "settings.json").read_text()).get("mode", "rankings") == "rankings")
ANSWER_EXAMPLES = sorted(p.name for p in (ROOT / "examples").iterdir() if (p / "settings.json").exists()
                         and json.loads((p / "settings.json").read_text()).get("mode") == "answers")
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
SCHEMES = ("light", "dark")

QRELS = "".join(f"q{q} 0 d{d} {(q * d) % 3}\n" for q in range(1, 13) for d in range(1, 8))
RUN = "".join(f"q{q} Q0 d{d} {r} {10 - r} cand\n" for q in range(1, 13) for r, d in enumerate(range(1, 8), 1))
BASE = "".join(f"q{q} Q0 d{d} {r} {10 - r} base\n" for q in range(1, 13) for r, d in enumerate(range(7, 0, -1), 1))


@pytest.fixture(scope="module")
def axe_app(browser, server_url):
    if not AXE.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT, check=True)
    context = browser.new_context(bypass_csp=True, viewport=VIEWPORTS["desktop"])
    context.route(lambda url: not url.startswith(server_url), lambda route: route.abort())
    page = context.new_page()
    page.set_default_timeout(30_000)
    app = App(page, server_url)
    app.open()
    app.wait_ready()
    page.add_script_tag(path=str(AXE))
    yield app
    context.close()


def violations(app) -> list[dict]:
    """Every axe violation of the page as it is now, in each viewport and colour scheme."""
    page = app.page
    found = []
    for name, size in VIEWPORTS.items():
        page.set_viewport_size(size)
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(150)  # the scroll cues follow the new width
            result = page.evaluate("""async () => {
                const r = await axe.run(document, { resultTypes: ["violations"] });
                return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " :: " + n.failureSummary) }));
            }""")
            found += [{"where": f"{name}/{scheme}", **v} for v in result]
    page.set_viewport_size(VIEWPORTS["desktop"])
    page.emulate_media(color_scheme="light")
    return found


def assert_clean(app):
    found = violations(app)
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


def test_empty_page(axe_app):
    assert_clean(axe_app)


@pytest.mark.parametrize("example", EXAMPLES)
def test_each_example(axe_app, example):
    before = axe_app.renders()
    axe_app.page.get_by_test_id("examples-select").select_option(example)
    axe_app.settle(before)
    assert_clean(axe_app)


def test_input_and_setting_errors(axe_app):
    axe_app.score("q1 0 d1 one\n", "q1 Q0 d1 1 x\n", k="5,,10")
    expect(axe_app.page.get_by_test_id("qrels-error")).to_be_visible()
    expect(axe_app.page.get_by_test_id("k-error")).to_be_visible()
    assert_clean(axe_app)


def test_a_setting_error_over_the_last_report(axe_app):
    axe_app.score(QRELS, RUN, k="3")
    before = axe_app.renders()
    axe_app.page.get_by_test_id("k-input").fill("3,")
    axe_app.settle(before)
    expect(axe_app.page.get_by_test_id("stale-note")).to_be_visible()
    assert_clean(axe_app)


def test_other_tools_readings_tagged(axe_app):
    axe_app.score(QRELS, RUN, k="3")
    axe_app.show_panel("more-settings")
    before = axe_app.renders()
    axe_app.page.get_by_test_id("metrics-extra").fill("ranx:hits@3, ir_measures:P(rel=2)@3")
    axe_app.settle(before)
    expect(axe_app.page.get_by_test_id("reading-tag").first).to_be_visible()
    assert_clean(axe_app)
    before = axe_app.renders()
    axe_app.page.get_by_test_id("metrics-extra").fill("")
    axe_app.settle(before)


def test_measure_chooser_open_and_closed(axe_app):
    page = axe_app.page
    axe_app.score(QRELS, RUN, k="3")
    page.get_by_test_id("metric-filter").focus()
    page.keyboard.type("nd")  # the list open, an option active
    expect(page.get_by_test_id("metric-options")).to_be_visible()
    assert page.get_by_test_id("metric-filter").get_attribute("aria-activedescendant")
    assert_clean(axe_app)
    page.keyboard.press("Escape")
    page.get_by_test_id("metric-filter").fill("")
    expect(page.get_by_test_id("metric-options")).to_be_hidden()
    assert_clean(axe_app)  # closed, with both panels closed
    axe_app.show_panel("all-measures")
    axe_app.show_panel("more-settings")
    assert_clean(axe_app)  # both panels open
    page.get_by_test_id("all-measures").click()
    page.get_by_test_id("more-settings").click()


def test_comparison(axe_app):
    before = axe_app.renders()
    axe_app.page.get_by_test_id("baseline-input").fill(BASE)
    axe_app.score(QRELS, RUN, k="1,3,5", since=before)
    expect(axe_app.page.get_by_test_id("comparison-table")).to_be_visible()
    assert_clean(axe_app)
    axe_app.page.get_by_test_id("baseline-input").fill("")


@pytest.mark.parametrize("example", ANSWER_EXAMPLES)
def test_answers_mode_example_and_errors(axe_app, example):
    page = axe_app.page
    page.get_by_test_id("mode-answers").click()
    before = axe_app.renders()
    page.get_by_test_id("answers-examples-select").select_option(example)
    axe_app.settle(before)
    expect(page.get_by_test_id("answers-report")).to_be_visible()
    assert_clean(axe_app)
    before = axe_app.renders()
    page.get_by_test_id("references-input").fill("q1,Paris\nq2,Lyon\n")
    page.get_by_test_id("answers-input").fill('{"id": "q1", "answer": "x",}\n')
    axe_app.settle(before)
    expect(page.get_by_test_id("answers-error")).to_be_visible()
    assert_clean(axe_app)
    page.get_by_test_id("mode-rankings").click()
