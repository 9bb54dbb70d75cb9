"""``python -m kawuxing.cli COMMAND ...``: the ``kawuxing`` command without its script, e.g.
``python -m kawuxing.cli serve --port 8001`` (tests/test_server_restart.py,
benchmarks/bench_server.py) or ``python -m kawuxing.cli cases FILE`` (the shared checker)."""

from . import app

app(prog_name="kawuxing")
