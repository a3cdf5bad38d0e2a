"""Split markdown text into heading sections, line by line.

Tool outputs that agents read are often markdown reports: a few ``## Heading`` sections, each
holding a list or ``### Sub-heading`` blocks. ``split_sections`` cuts such text at the ATX
headings of one level (``## ``) in a single pass and returns each section with its title, its
body lines and the line number of its heading, so that a parser can work on one section at a
time and point back into the text. Nested levels are split by calling it again on a section's
``lines``.

What counts as a heading (deliberately narrower than CommonMark, because reports are machine
written and must be read exactly):

* an ATX heading: 1 to 6 ``#`` at the very start of the line, then one space, then the title
  (``#`` alone or ``##`` followed by end of line is an empty heading);
* the title is the rest of the line with trailing whitespace removed; a closing ``#`` sequence is
  kept as part of the title, and indented or setext (underlined) headings are not headings;
* with ``fences=True`` (the default) lines inside fenced code blocks (a line starting with three
  or more backticks or tildes opens a fence, the same run closes it) are never headings. Machine
  formatters that paste arbitrary text into a report do not know about fences, so their parsers
  pass ``fences=False``.

Lines are split on ``"\\n"``; a ``"\\r"`` before it is dropped, so CRLF text reads the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

__all__ = ["Section", "find_section", "parse_heading", "split_lines", "split_sections"]


@attrs.frozen
class Section:
    """A run of lines that starts at a heading (or the text before the first heading).

    Attributes:
        level: the heading level (``2`` for ``## Title``); ``0`` for the text before the first
            heading (the *preamble*), which has no heading line.
        title: the heading text after the ``#`` marks and one space, trailing whitespace removed;
            ``""`` for the preamble.
        line: 1-based line number of the heading in the text that was split (for the preamble,
            of its first line).
        lines: the body: every line after the heading up to the next heading of the split
            level or shallower, without line terminators.
    """

    level: int
    title: str
    line: int
    lines: tuple[str, ...]

    @property
    def body(self) -> str:
        """The body lines joined with ``"\\n"``."""
        return "\n".join(self.lines)

    @property
    def first_body_line(self) -> int:
        """1-based line number of ``lines[0]`` in the text that was split."""
        return self.line if self.level == 0 else self.line + 1


def split_lines(text: str) -> list[str]:
    """*text* split on ``"\\n"``, with one trailing ``"\\r"`` removed from every line.

    Unlike ``str.splitlines`` this does not split on form feeds, ``\\x1c``… or U+2028, which
    can occur inside report text, and a final ``"\\n"`` gives a final empty line.
    """
    lines = text.split("\n")
    if "\r" in text:
        lines = [line.removesuffix("\r") for line in lines]
    return lines


def parse_heading(line: str) -> tuple[int, str] | None:
    """``(level, title)`` when *line* is an ATX heading (see the module docstring), else ``None``."""
    if not line.startswith("#"):
        return None
    level = 0
    length = len(line)
    while level < length and level < 7 and line[level] == "#":
        level += 1
    if level > 6:
        return None
    if level == length:
        return level, ""
    if line[level] != " ":
        return None
    return level, line[level + 1 :].rstrip()


def _fence_marker(line: str) -> str | None:
    if line.startswith(("```", "~~~")):
        char = line[0]
        run = len(line) - len(line.lstrip(char))
        return char * run
    return None


def split_sections(
    source: str | Sequence[str],
    *,
    level: int = 2,
    fences: bool = True,
    first_line: int = 1,
) -> list[Section]:
    """Cut *source* at every heading of *level* or shallower, in one pass.

    Args:
        source: the markdown text, or its lines (as from ``split_lines`` or ``Section.lines``).
        level: the heading level to split at (``1`` to ``6``). Deeper headings stay inside the
            body of their section; shallower ones also start a new section (with their own
            ``level``), so a ``# Title`` never ends up inside a ``##`` section.
        fences: ignore headings inside fenced code blocks.
        first_line: the line number of ``source``'s first line, so that the numbers of nested
            splits refer to the original text (pass ``section.first_body_line``).

    Returns:
        The sections in text order. The first one is the preamble (``level == 0``) when there
        are lines before the first heading; it is left out when the text starts with a heading.

    Examples:
        >>> [(s.level, s.title, s.lines) for s in split_sections("intro\\n## A\\n- x\\n## B")]
        [(0, '', ('intro',)), (2, 'A', ('- x',)), (2, 'B', ())]
    """
    if not 1 <= level <= 6:
        raise ValueError(f"split_sections: level must be 1 to 6, got {level!r}")
    lines: Sequence[str] = split_lines(source) if isinstance(source, str) else source
    if not fences:
        return _split_without_fences(lines, level, first_line)
    sections: list[Section] = []
    current_level = 0
    current_title = ""
    current_line = first_line
    body: list[str] = []
    fence: str | None = None
    started = False
    for index, line in enumerate(lines):
        if fences:
            marker = _fence_marker(line)
            if fence is not None:
                if marker is not None and marker.startswith(fence) and line.strip() == marker:
                    fence = None
                body.append(line)
                continue
            if marker is not None:
                fence = marker
                body.append(line)
                continue
        heading = parse_heading(line) if line.startswith("#") else None
        if heading is not None and heading[0] <= level:
            if started or body:
                sections.append(Section(current_level, current_title, current_line, tuple(body)))
            started = True
            current_level, current_title = heading
            current_line = first_line + index
            body = []
        else:
            body.append(line)
    if started or body:
        sections.append(Section(current_level, current_title, current_line, tuple(body)))
    return sections


def _split_without_fences(lines: Sequence[str], level: int, first_line: int) -> list[Section]:
    """``split_sections`` without fences: only lines starting with ``#`` are looked at."""
    starts: list[tuple[int, int, str]] = []
    for index in [i for i, line in enumerate(lines) if line[:1] == "#"]:
        heading = parse_heading(lines[index])
        if heading is not None and heading[0] <= level:
            starts.append((index, *heading))
    sections: list[Section] = []
    if not starts:
        return [Section(0, "", first_line, tuple(lines))] if lines else []
    if starts[0][0] > 0:
        sections.append(Section(0, "", first_line, tuple(lines[: starts[0][0]])))
    for position, (index, heading_level, title) in enumerate(starts):
        end = starts[position + 1][0] if position + 1 < len(starts) else len(lines)
        sections.append(Section(heading_level, title, first_line + index, tuple(lines[index + 1 : end])))
    return sections


def find_section(sections: Iterable[Section], title: str) -> Section | None:
    """The last section whose title is exactly *title*, or ``None``."""
    found: Section | None = None
    for section in sections:
        if section.title == title and section.level > 0:
            found = section
    return found
