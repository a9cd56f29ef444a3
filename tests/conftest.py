"""Hypothesis runs the same examples on every machine and never fails on timing: CI shares two
cores with other work, and a test that is red only when the machine is busy tells nothing."""

import importlib.util
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# the peers' own suites import the real ranx and ir_measures names: they run through the path
# shim in processes of their own (tests/test_peer_suites.py), never collected here
collect_ignore = ["peers"]

ROOT = Path(__file__).resolve().parent.parent

settings.register_profile("repeatable", deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("repeatable")


def pytest_sessionfinish(session, exitstatus):
    """scripts/test sets RM_NO_SKIP=1: a skipped test there is a test that did not run, so the run
    fails (a fresh clone must run everything)."""
    import os
    if os.environ.get("RM_NO_SKIP") != "1" or exitstatus != 0:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped:
        reporter.write_line(f"RM_NO_SKIP: {skipped} test(s) skipped; every test must run here", red=True)
        session.exitstatus = 1


def _builder():
    spec = importlib.util.spec_from_file_location("build_trec_eval",
                                                  ROOT / "scripts" / "build_trec_eval.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def trec_eval_10() -> Path:
    """The built trec_eval 10 binary (its test/ folder beside it); fails, saying why, when it
    cannot be built (no C compiler, no make)."""
    builder = _builder()
    try:
        return builder.build()
    except builder.BuildError as exc:
        pytest.fail(f"trec_eval 10 reference: {exc}")
