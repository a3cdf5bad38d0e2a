"""storybook._names: the workflow vocabularies, normalisation and name matching (spec §2, §4.6)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agenteval_assert.storybook import (
    LEGACY_TO_CURRENT,
    LEGACY_WORKFLOW_TOOL_NAMES,
    TOOLS_FORMS,
    WORKFLOW_TOOL_NAMES,
    WorkflowCall,
    normalize_workflow_name,
    workflow_call_matches_name,
)
from agenteval_assert.storybook._names import check_profile, current_name


def test_vocabularies_in_spec_order() -> None:
    assert WORKFLOW_TOOL_NAMES == (
        "docs-list", "docs-show", "docs-show-story", "get-storybook-story-instructions",
        "review-create", "stories-changed", "stories-find-by-component", "stories-preview", "test-run",
    )  # fmt: skip
    assert LEGACY_WORKFLOW_TOOL_NAMES == (
        "display-review", "get-changed-stories", "get-documentation", "get-documentation-for-story",
        "get-stories-by-component", "get-storybook-story-instructions", "list-all-documentation",
        "preview-stories", "run-story-tests",
    )  # fmt: skip
    assert set(LEGACY_TO_CURRENT) == set(LEGACY_WORKFLOW_TOOL_NAMES)
    assert set(LEGACY_TO_CURRENT.values()) == set(WORKFLOW_TOOL_NAMES)
    assert LEGACY_TO_CURRENT["run-story-tests"] == "test-run"
    assert LEGACY_TO_CURRENT["display-review"] == "review-create"
    assert {f"{a}-{b}" for a, b in TOOLS_FORMS.values()} == set(TOOLS_FORMS)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("test-run", "test-run"),
        ("mcp__storybook-dev-mcp__test-run", "test-run"),
        ("mcp__storybook__test-run", "test-run"),
        ("storybook.test-run", "test-run"),
        ("tools/test-run", "test-run"),
        ("docs-show-story", "docs-show-story"),
        ("mcp__s__docs-show-story", "docs-show-story"),
        ("mcp__s__docs-show", "docs-show"),
        ("xtest-run", None),
        ("test-run-x", None),
        ("test_run", None),
        ("", None),
        ("mcp__Browser__navigate", None),
        # Gen A names are reported in the current vocabulary.
        ("run-story-tests", "test-run"),
        ("mcp__storybook-dev-mcp__display-review", "review-create"),
        ("get-storybook-story-instructions", "get-storybook-story-instructions"),
    ],
)
def test_normalize_default(name: str, expected: str | None) -> None:
    assert normalize_workflow_name(name) == expected


@pytest.mark.parametrize(
    ("name", "profile", "expected"),
    [
        ("run-story-tests", "A", "test-run"),
        ("test-run", "A", None),
        ("run-story-tests", "B", None),
        ("run-story-tests", "C", None),
        ("test-run", "B", "test-run"),
        ("mcp__x__list-all-documentation", "A", "docs-list"),
        ("get-storybook-story-instructions", "A", "get-storybook-story-instructions"),
    ],
)
def test_normalize_profiles(name: str, profile: Any, expected: str | None) -> None:
    assert normalize_workflow_name(name, profile=profile) == expected


def test_unknown_profile_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown profile 'D'"):
        normalize_workflow_name("test-run", profile="D")  # type: ignore[arg-type]
    assert check_profile(None) is None and check_profile("B") == "B"


@given(st.sampled_from(WORKFLOW_TOOL_NAMES + LEGACY_WORKFLOW_TOOL_NAMES),
       st.text(alphabet="abc-_", max_size=8), st.sampled_from(["__", ".", "/"]))  # fmt: skip
def test_any_prefix_with_a_separator_normalises(tool: str, prefix: str, sep: str) -> None:
    assert normalize_workflow_name(prefix + sep + tool) == current_name(tool)


def _call(name: str, inp: dict[str, Any]) -> WorkflowCall:
    return WorkflowCall(name, inp, "cli", name)


@pytest.mark.parametrize(
    ("call", "name", "expected"),
    [
        (("test-run", {}), "test-run", True),
        (("test-run", {}), "run-story-tests", True),  # a name in either vocabulary
        (("review-create", {}), "display-review", True),
        (("test-run", {}), "review-create", False),
        (("skills-get", {"id": "write-story"}), "get-storybook-story-instructions", True),
        (("skills-get", {"all": True}), "get-storybook-story-instructions", True),
        (("skills-get", {"all": "true"}), "get-storybook-story-instructions", False),
        (("skills-get", {"id": "stories"}), "get-storybook-story-instructions", False),
        (("skills-get", {"id": "write-story"}), "skills-get", True),
        (("skills-get", {"id": "write-story"}), "test-run", False),
    ],
)
def test_matches_name(call: tuple[str, dict[str, Any]], name: str, expected: bool) -> None:
    assert workflow_call_matches_name(_call(*call), name) is expected
    assert workflow_call_matches_name({"name": call[0], "input": call[1]}, name) is expected


def test_profile_a_has_no_skills_alias() -> None:
    call = _call("skills-get", {"id": "write-story"})
    assert not workflow_call_matches_name(call, "get-storybook-story-instructions", profile="A")
    assert workflow_call_matches_name(call, "get-storybook-story-instructions", profile="B")


def test_matches_name_on_malformed_mappings() -> None:
    assert not workflow_call_matches_name({"name": 3}, "test-run")
    assert not workflow_call_matches_name({"name": "skills-get", "input": "x"}, "get-storybook-story-instructions")
