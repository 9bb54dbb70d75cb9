"""The test tiers: ``python -m pytest`` runs everything; ``python -m pytest -m "not slow"``
leaves out the modules marked ``slow`` below (a real browser, a cluster of servers with Redis,
the thousand-hand leak run, restarts of server processes, training runs, tools replaying git
history), for a quick loop while working."""

from __future__ import annotations

import pytest

# modules whose tests start browsers, server processes or long runs
SLOW_MODULES = {
    "test_web_browser", "test_web_fairness", "test_web_players", "test_web_table",
    "test_cluster", "test_server_leak", "test_server_restart", "test_learn",
    "test_tools_legacy", "test_tools_calibration", "test_tools_probe",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of :data:`SLOW_MODULES` ``slow``."""
    for item in items:
        if item.module is not None and item.module.__name__.rsplit(".", 1)[-1] in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
