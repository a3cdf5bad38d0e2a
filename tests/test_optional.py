"""Optional extras are imported lazily and fail with an install hint."""

from __future__ import annotations

import pytest

from agenteval_assert._optional import MissingExtraError, require

from . import _proc


def test_missing_extra_names_the_extra() -> None:
    with pytest.raises(MissingExtraError, match=r"pip install 'agenteval-assert\[judge\]'"):
        require("no_such_module_xyz", extra="judge", feature="the LLM judge")


def test_importing_the_package_imports_no_extra() -> None:
    code = "import sys, agenteval_assert, agenteval_assert.storybook; print(sorted(m for m in ('anthropic', 'hypothesis') if m in sys.modules))"
    out = _proc.python(code).stdout
    assert out.strip() == "[]"
