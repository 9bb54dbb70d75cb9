"""The test tiers: ``python -m pytest`` runs everything; markers select parts of it —

- ``slow``: the modules of :data:`SLOW_MODULES` (a real browser, a cluster of servers with
  Redis, the leak run, restarts of server processes, training runs, tools replaying git
  history); ``-m "not slow"`` is the quick loop while working;
- ``browser``: tests that drive Debian's chromium (:data:`BROWSER_MODULES`);
- ``cluster``: tests that start redis-server and nodes (:data:`CLUSTER_MODULES`);
- ``postgres``: tests run against this machine's PostgreSQL (a ``postgresql`` parameter, or
  a module of :data:`POSTGRES_MODULES`; they skip where none runs).

Registered in pyproject.toml; set here, from the module and the parameters, so a new test in
one of these modules is marked without a decorator."""

from __future__ import annotations

import os

import pytest

# modules whose tests start browsers, server processes or long runs
SLOW_MODULES = {
    "test_web_browser", "test_web_fairness", "test_web_players", "test_web_table",
    "test_cluster", "test_server_leak", "test_server_restart", "test_learn",
    "test_tools_legacy", "test_tools_calibration", "test_tools_probe", "test_web_social",
    "test_cluster_unit",
}


BROWSER_MODULES = {"test_web_browser", "test_web_fairness", "test_web_players", "test_web_table",
                   "test_web_social"}
CLUSTER_MODULES = {"test_cluster", "test_cluster_unit"}
POSTGRES_MODULES = {"test_server_db", "test_server_migrate", "test_players"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of each tier (module docstring); the browser tests are skipped where
    Debian's chromium is not installed (``.ci/run`` installs it)."""
    from web_harness import CHROMIUM

    no_browser = None if os.path.exists(CHROMIUM) else pytest.mark.skip(
        reason=f"no Chromium at {CHROMIUM}")
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module is not None else ""
        if module in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        if module in BROWSER_MODULES:
            item.add_marker(pytest.mark.browser)
            if no_browser:
                item.add_marker(no_browser)
        if module in CLUSTER_MODULES:
            item.add_marker(pytest.mark.cluster)
        params = getattr(item, "callspec", None)
        if module in POSTGRES_MODULES or (params is not None
                                          and "postgresql" in params.params.values()):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(scope="module")
def browser(request):
    """Debian's chromium through Playwright, one for a test module (its ``BROWSER_ARGS``, a
    list, added to the harness's flags); used only by the modules that skip without it."""
    from playwright import sync_api
    from web_harness import CHROMIUM, CHROMIUM_ARGS

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM,
                              args=CHROMIUM_ARGS + getattr(request.module, "BROWSER_ARGS", []))
        yield b
        b.close()


@pytest.fixture()
def desktop(browser):
    """A 1280 × 800 page in Chinese, and its error watch: the test fails on a JavaScript
    error (``Watch``) once it is done."""
    from web_harness import Watch

    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    watch = Watch(page)
    yield page, watch
    ctx.close()
    assert not watch.errors, watch.errors
