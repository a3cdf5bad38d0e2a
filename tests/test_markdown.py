"""agenteval_assert.markdown: splitting markdown into heading sections."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agenteval_assert.markdown import (
    Section,
    find_section,
    parse_heading,
    split_lines,
    split_sections,
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("# Title", (1, "Title")),
        ("## Passing Stories", (2, "Passing Stories")),
        ("### a--b - Error", (3, "a--b - Error")),
        ("###### six", (6, "six")),
        ("## trailing spaces   ", (2, "trailing spaces")),
        ("## C# #", (2, "C# #")),  # a closing sequence is kept
        ("##", (2, "")),
        ("####### seven", None),
        ("##no space", None),
        (" ## indented", None),
        ("text ## not at start", None),
        ("", None),
    ],
)
def test_parse_heading(line: str, expected: tuple[int, str] | None) -> None:
    assert parse_heading(line) == expected


def test_split_lines_drops_cr_before_lf_only() -> None:
    assert split_lines("a\r\nb\rc\n") == ["a", "b\rc", ""]
    assert split_lines("") == [""]
    assert split_lines("x\u2028y") == ["x\u2028y"]


def test_split_sections_at_level_two() -> None:
    text = "intro\n\n## A\n\n- x\n### sub\nbody\n## B\n# Top\nend"
    sections = split_sections(text)
    assert sections == [
        Section(0, "", 1, ("intro", "")),
        Section(2, "A", 3, ("", "- x", "### sub", "body")),
        Section(2, "B", 8, ()),
        Section(1, "Top", 9, ("end",)),
    ]
    assert sections[1].body == "\n- x\n### sub\nbody"
    assert sections[1].first_body_line == 4
    assert sections[0].first_body_line == 1


def test_no_preamble_when_text_starts_with_a_heading() -> None:
    assert [s.title for s in split_sections("## A\nx")] == ["A"]


def test_nested_split_keeps_line_numbers() -> None:
    text = "## Failing Stories\n\n### a--b\n\nmsg\n\n### a--c\n\nother"
    (failing,) = split_sections(text)
    blocks = split_sections(failing.lines, level=3, first_line=failing.first_body_line)
    assert [(b.level, b.title, b.line) for b in blocks] == [(0, "", 2), (3, "a--b", 3), (3, "a--c", 7)]
    assert blocks[1].lines == ("", "msg", "")


def test_fences_hide_headings_unless_disabled() -> None:
    text = "## A\n```md\n## not a heading\n```\n## B"
    assert [s.title for s in split_sections(text)] == ["A", "B"]
    assert [s.title for s in split_sections(text, fences=False)] == ["A", "not a heading", "B"]
    longer = "## A\n````\n```\n## still code\n````\n## B"
    assert [s.title for s in split_sections(longer)] == ["A", "B"]


def test_find_section_returns_the_last_match() -> None:
    sections = split_sections("## A\n1\n## B\n## A\n2")
    found = find_section(sections, "A")
    assert found is not None and found.lines == ("2",)
    assert find_section(sections, "missing") is None
    assert find_section(split_sections("text"), "") is None  # the preamble is not a section


def test_bad_level_is_a_usage_error() -> None:
    with pytest.raises(ValueError, match="level must be 1 to 6"):
        split_sections("x", level=0)


@given(st.lists(st.sampled_from(["## A", "### b", "# T", "text", "", "- item", "```"]), max_size=30))
def test_sections_cover_every_line_once(lines: list[str]) -> None:
    """Every line of the text is a heading or in exactly one body, in order."""
    sections = split_sections(lines, level=2, fences=False)
    rebuilt: list[str] = []
    for section in sections:
        if section.level:
            rebuilt.append(lines[section.line - 1])
        rebuilt.extend(section.lines)
    assert rebuilt == lines


@given(st.lists(st.sampled_from(["## A", "### b", "# T", "text", "", "- item", "#x", "##"]), max_size=30))
def test_fence_free_text_splits_the_same_either_way(lines: list[str]) -> None:
    for level in (1, 2, 3):
        assert split_sections(lines, level=level, fences=True) == split_sections(lines, level=level, fences=False)
