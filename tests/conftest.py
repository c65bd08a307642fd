"""Shared pytest configuration."""

from __future__ import annotations

import os

import pytest

# --- oracle libraries: JAX on CPU only, TensorFlow quiet (read when they are first imported) -------------
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


# --- large-size oracle tests (tests/conventions/test_fidelity_*.py, helpers in tests/fidelity.py) -----------------------

def pytest_addoption(parser):
    group = parser.getgroup("fidelity", "large-size oracle tests")
    group.addoption("--runslow", action="store_true", help="draw five times as many fidelity cases from larger "
                    "element budgets (a nightly run)")
    group.addoption("--fidelity-seed", type=int, default=None, help="the seed of the fidelity size draws")
    group.addoption("--fidelity-table", action="store_true", help="print the worst error per library and dtype "
                    "(the README's fidelity table)")


def pytest_configure(config):
    import fidelity

    fidelity.configure(config.getoption("--fidelity-seed"), config.getoption("--runslow"))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not config.getoption("--fidelity-table"):
        return
    import fidelity

    terminalreporter.write_sep("=", "fidelity: worst error per library and dtype")
    terminalreporter.write_line(fidelity.table())
    terminalreporter.write_line("")
    terminalreporter.write_line(fidelity.worst_cases())


# --- browser tests (marker `browser`) ------------------------------------------------------------------------
# Skipped when chromium or playwright is missing, unless REQUIRE_BROWSER=1 (CI), where that is an error.

def pytest_collection_modifyitems(config, items):
    browser_items = [item for item in items if item.get_closest_marker("browser")]
    if not browser_items:
        return
    from browser_support import browser_missing

    reason = browser_missing()
    if reason is None:
        return
    required = os.environ.get("REQUIRE_BROWSER") == "1"
    for item in browser_items:
        if required:  # each browser test fails in its setup; the other tests still run
            item.stash[_BROWSER_MISSING] = reason
        else:
            item.add_marker(pytest.mark.skip(reason=reason))


_BROWSER_MISSING = pytest.StashKey[str]()


def pytest_runtest_setup(item):
    reason = item.stash.get(_BROWSER_MISSING, None)
    if reason is not None:
        pytest.fail(f"REQUIRE_BROWSER=1 but the browser tests cannot run: {reason}", pytrace=False)


@pytest.fixture(scope="module")
def chromium():
    """A headless Debian chromium, one per test module (see tests/browser_support.py).  Module scope: Playwright's event
    loop is gone before later modules (nbclient) start theirs."""
    from playwright.sync_api import sync_playwright

    from browser_support import launch

    with sync_playwright() as pw:
        instance = launch(pw)
        yield instance
        instance.close()


# --- no silent skips in CI --------------------------------------------------------------------------------
# With EXPLORER_NO_SKIPS=1 (.ci/run sets it), a skipped test or module fails the run: an oracle test that
# cannot import its library (torch, OpenCV, Pillow, JAX, ONNX Runtime, TensorFlow) proves nothing.

def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("EXPLORER_NO_SKIPS") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped:
        reporter.write_line(f"EXPLORER_NO_SKIPS=1: {len(skipped)} test(s) or module(s) were skipped:", red=True)
        for report in skipped[:20]:
            reporter.write_line(f"  {report.nodeid or report.fspath}: {report.longrepr}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
