"""The layering of the package holds: import-linter's contracts (in ``pyproject.toml``), no
import cycles, and a model that imports nothing of ours but the exceptions.

Imports inside functions and under ``TYPE_CHECKING`` count: a lazy import is still a dependency.
See ``docs/architecture.md`` for what each layer holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ROOT

try:
    import grimp
    from importlinter import api as _importlinter_api  # noqa: F401  (configures import-linter)
    from importlinter.application import use_cases
except ImportError:  # pragma: no cover - the dev extra installs both
    pytest.fail("import-linter is a dev dependency: pip install -e '.[dev]'", pytrace=False)

PACKAGE = "agenteval_assert"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    """The import graph without the package's own ``__init__``: that facade names every module
    (lazily, for ``import agenteval_assert as aa``) and is not a layer of its own."""
    g = grimp.build_graph(PACKAGE, cache_dir=None)
    for importer in list(g.modules):
        for imported in list(g.find_modules_directly_imported_by(importer)):
            if PACKAGE in (importer, imported):
                g.remove_import(importer=importer, imported=imported)
    return g


def test_the_import_contracts_are_kept(capsys: pytest.CaptureFixture[str]) -> None:
    kept = use_cases.lint_imports(config_filename=str(Path(ROOT) / "pyproject.toml"), cache_dir=None, no_logo=True)
    assert kept, capsys.readouterr().out


def test_the_model_imports_nothing_of_ours_but_the_exceptions(graph: grimp.ImportGraph) -> None:
    assert graph.find_modules_directly_imported_by(f"{PACKAGE}.model") <= {f"{PACKAGE}.exceptions"}
    assert graph.find_modules_directly_imported_by(f"{PACKAGE}.exceptions") == set()


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


#: Known cycles, each with its reason; a new cycle fails the test.
KNOWN_CYCLES = [
    # ``_cli_members`` (the members of a multi-run file) reuses ``_cli.summary_dict``, both imported
    # on use; it goes when the summary document moves out of ``_cli.py``.
    ["agenteval_assert._cli", "agenteval_assert._cli_members"],
]


def test_no_import_cycles(graph: grimp.ImportGraph) -> None:
    assert _cycles(graph) == KNOWN_CYCLES


def test_the_cycle_finder_finds_a_cycle() -> None:
    g = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        g.add_import(importer=a, imported=b)
    assert _cycles(g) == [["p.a", "p.b", "p.c"]]
