"""The public API is an explicit, complete list."""

from __future__ import annotations

import types

import agenteval_assert
import agenteval_assert.storybook


def test_all_is_sorted_and_complete() -> None:
    public = {
        n for n, v in vars(agenteval_assert).items()
        if not n.startswith("_") and not isinstance(v, types.ModuleType) and n != "annotations"
    }
    public.add("__version__")
    # complete and without repeats; ruff (RUF022) keeps it sorted
    assert sorted(agenteval_assert.__all__) == sorted(public)
    assert len(set(agenteval_assert.__all__)) == len(agenteval_assert.__all__)


def test_storybook_all_names_exist() -> None:
    missing = [n for n in agenteval_assert.storybook.__all__ if not hasattr(agenteval_assert.storybook, n)]
    assert missing == []
    assert len(set(agenteval_assert.storybook.__all__)) == len(agenteval_assert.storybook.__all__)


def test_storybook_reexports_exactly_the_private_lists() -> None:
    from agenteval_assert.storybook import (
        _context,
        _expect,
        _names,
        _registry,
        _report,
        _suites,
        _workflow,
    )

    private = [n for m in (_context, _expect, _names, _registry, _report, _suites, _workflow) for n in m.__all__]
    assert sorted(agenteval_assert.storybook.__all__) == sorted(private)


def test_checks_reexports_exactly_the_kind_modules() -> None:
    from agenteval_assert import checks
    from agenteval_assert.checks import (
        _budgets,
        _calls,
        _files,
        _final_response,
        _ordering,
        _outcomes,
        _outputs,
        _safety,
        _shell,
    )

    kinds = (_budgets, _calls, _files, _final_response, _ordering, _outcomes, _outputs, _safety, _shell)
    private = [n for m in kinds for n in m.__all__]
    assert sorted(checks.__all__) == sorted(private)
    assert len(set(private)) == len(private)
    assert all(hasattr(checks, n) for n in checks.__all__)
