"""Speed of the story-test report parser: 5 MB vs 50 MB reports (not part of the test suite).

``python -m bench.report_bench [--sizes 5,50] [--repeat 3]`` builds full markdown, compact
markdown and ``--json`` reports of about the given sizes in MB (in memory), parses each and
prints the best time of ``--repeat`` runs, the throughput, and the ratio of the largest to the
smallest size. A linear parser shows a time ratio close to the size ratio (10x for 5 vs 50 MB).
The unit test ``tests/test_storybook_report.py::test_parse_work_grows_linearly`` checks the
same property by counting calls, without a clock.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable

from agenteval_assert.storybook import (
    A11yNode,
    A11yViolation,
    FailingStory,
    StoryTestReport,
    UnhandledError,
    parse_story_test_report,
    render_story_test_report,
)

MB = 1_000_000


def _report(stories: int) -> StoryTestReport:
    return StoryTestReport(
        "completed",
        passing=tuple(f"components-button--story-{i}" for i in range(stories)),
        failing=tuple(
            FailingStory(
                f"components-input--story-{i}",
                "AssertionError: expected 'hello' to be 'world' // Object.is equality",
                "    at Input.stories.tsx:12:5\n    at runStory (storybook/test.js:88:3)",
            )
            for i in range(stories)
        ),
        a11y_violations=tuple(
            A11yViolation(
                f"components-card--story-{i}",
                "color-contrast",
                "Elements must meet minimum color contrast ratio thresholds",
                "serious",
                (
                    A11yNode(
                        "serious",
                        "Fix any of the following:\n  Element has insufficient color contrast",
                        '<button class="primary">Go</button>',
                        f"http://localhost:6006/?path=/story/components-card--story-{i}",
                    ),
                ),
            )
            for i in range(stories)
        ),
        unhandled_errors=tuple(
            UnhandledError(
                "TypeError",
                "x is not a function",
                "TypeError: x is not a function\n    at a.ts:1:1",
                "src/a.test.ts",
                "renders",
            )
            for i in range(stories // 10)
        ),
    )


def _json_document(stories: int) -> str:
    statuses = [
        {
            "storyId": f"components-button--story-{i}",
            "typeId": "storybook/component-test",
            "value": "status-value:success" if i % 5 else "status-value:error",
            "title": "",
            "description": "" if i % 5 else "expected 1 to be 2",
        }
        for i in range(stories)
    ]
    doc = {"status": "completed", "a11y": True, "result": {"componentTestStatuses": statuses}}
    return "npm warn exec storybook@10.3.0\n" + json.dumps(doc, indent=2) + "\nOutput written to x\n"


def _sized(make: Callable[[int], str], size: int) -> str:
    """Text from *make(stories)* of about *size* characters (one probe, then scale)."""
    probe = make(1000)
    return make(max(1, round(1000 * size / len(probe))))


def _best(function: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best CPU time and best wall-clock time of *repeat* runs.

    CPU time (``time.process_time``) is the figure to compare: on a shared machine the wall
    clock also counts the time other processes hold the CPU.
    """
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", default="5,50", help="sizes in MB, comma separated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    sizes = [float(s) for s in args.sizes.split(",")]
    forms: dict[str, Callable[[int], str]] = {
        "full markdown": lambda n: render_story_test_report(_report(n)),
        "compact markdown": lambda n: render_story_test_report(_report(n), style="compact"),
        "--json document": _json_document,
    }
    for name, make in forms.items():
        times = []
        for size in sizes:
            text = _sized(make, int(size * MB))
            cpu, wall = _best(lambda text=text: parse_story_test_report(text), args.repeat)  # type: ignore[misc]
            times.append(cpu)
            print(
                f"{name:17} {len(text) / MB:7.1f} MB  cpu {cpu:7.3f} s  wall {wall:7.3f} s  "
                f"{len(text) / MB / cpu:6.1f} MB/s"
            )
        if len(sizes) > 1:
            print(
                f"{name:17} cpu time ratio {times[-1] / times[0]:.1f}x for a size ratio of "
                f"{sizes[-1] / sizes[0]:.1f}x"
            )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
