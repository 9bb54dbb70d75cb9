"""The chart of ``kawuxing arena --chart``: per-bot means and pair differences with their 95%
confidence intervals, drawn by matplotlib (the optional extra ``chart``) on the Agg backend."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from .arena import ArenaReport

FORMATS = (".png", ".svg", ".pdf")


def chart_available() -> bool:
    """True if matplotlib is installed (``pip install 'kawuxing[chart]'``)."""
    return importlib.util.find_spec("matplotlib") is not None


def check_chart_path(path: Path) -> None:
    """Raise ``ValueError`` unless ``path`` ends in one of :data:`FORMATS` and its folder
    exists and is writable, or matplotlib is missing: checked before any long run."""
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"--chart {path}: the file must end in {', '.join(FORMATS)}")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"--chart {path}: folder {folder} does not exist")
    if not chart_available():
        raise ValueError("--chart needs matplotlib: pip install 'kawuxing[chart]'")


def _errors(mean: float, ci: tuple[float, float] | None) -> tuple[float, float]:
    return (0.0, 0.0) if ci is None else (mean - ci[0], ci[1] - mean)


def write_chart(report: ArenaReport, path: Path) -> None:
    """Write the chart of ``report`` to ``path`` (format from the suffix): left, each bot's
    mean seat score per hand; right, each pair's mean difference; error bars the 95% CIs, in
    base units. Raises ``OSError`` if the file cannot be written."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2), constrained_layout=True)
    bots = list(report.per_bot.values())
    err = list(zip(*(_errors(b.mean, b.ci95) for b in bots)))
    left.bar([b.bot for b in bots], [b.mean for b in bots], yerr=err, capsize=6,
             color="#4c72b0")
    left.set_title("mean seat score per hand (95% CI)")
    left.set_ylabel("base units")
    labels = [f"{p.a}\n− {p.b}" for p in report.pairs]
    err = list(zip(*(_errors(p.mean_diff, p.ci95) for p in report.pairs)))
    right.bar(labels, [p.mean_diff for p in report.pairs], yerr=err, capsize=6,
              color="#dd8452")
    right.set_title("pair difference per hand (95% CI)")
    for ax in (left, right):
        ax.axhline(0, color="black", linewidth=0.8)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(f"kawuxing arena: {report.deals} deals, {report.hands} hands, "
                 f"rules {report.rules}, seed {report.seed}")
    try:
        fig.savefig(path, dpi=120)
    finally:
        plt.close(fig)
