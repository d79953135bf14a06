"""Timing and the tables benchmarks print."""
from __future__ import annotations

import os
import statistics
import time
from typing import Callable


def median_ms(run: Callable[[], object], runs: int, warmup: int) -> float:
    """The median wall time of `runs` calls of `run` after `warmup` untimed ones, in ms."""
    for _ in range(warmup):
        run()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def load() -> str:
    """The 1-minute load average, for the lines that say how far to trust a run."""
    return f"{os.getloadavg()[0]:.2f}"


def machine_line(runs: int, warmup: int) -> str:
    return (f"machine: {os.cpu_count()} cores, load average {load()} (1 min) at start; "
            f"{runs} runs after {warmup} warm-up runs; median latency in ms")


def end_line() -> str:
    return f"load average {load()} (1 min) at the end"


def finish(unsupported: dict[str, str]) -> int:
    """Ends a benchmark's output: why each unsupported model was refused,
    then the load average; returns the exit code."""
    if unsupported:
        print()
        for name, why in unsupported.items():
            print(f"{name}: {why}")
    print()
    print(end_line())
    return 0


class Table:
    """A Markdown table printed row by row (a long benchmark shows progress)."""

    def __init__(self, *header: str):
        self.width = len(header)
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * self.width, flush=True)

    def row(self, *cells: object) -> None:
        assert len(cells) == self.width, "a row has one cell per column"
        print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)


def ms(value: float | None) -> str:
    """A latency cell: 3 decimals, or `unsupported` for a model that does not compile."""
    return "unsupported" if value is None else f"{value:.3f}"


def ratio(a: float | None, b: float | None) -> str:
    """a / b as `1.23x`, or `—` when either is missing."""
    return "—" if a is None or b is None else f"{a / b:.2f}x"
