"""``judge.md`` files: a task, an optional ``## Steps`` list and a ``## Pass criteria`` list.

::

    The agent was asked to add a dark-mode toggle to {{APP}}.

    ## Steps
    - Open {{URL}} and find the settings page.

    ## Pass criteria
    - The final response says where the toggle is.
    - The agent ran the tests after the change.

Everything before the first of these two headings (and any other section) is the task, free text.
Each bullet of ``## Pass criteria`` is one criterion (a bullet may continue on indented lines).
``{{NAME}}`` is replaced by the value given for ``NAME``; a variable with no value is a usage
error naming the file and line, and so is a value given for a variable the file does not use
(naming the variables it does use).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

import attrs

from ..exceptions import UsageError

__all__ = ["JudgeFile", "parse_judge_file", "read_judge_file"]

_VAR = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s+(.*)$")


@attrs.define(frozen=True, slots=True)
class JudgeFile:
    """A parsed ``judge.md``.

    Attributes:
        task: the free text (what the agent was asked, what the judge should know).
        steps: the ``## Steps`` list, if any.
        criteria: the ``## Pass criteria`` list, one criterion per bullet.
        path: the file read (``"<memory>"`` for text).
    """

    task: str
    steps: tuple[str, ...]
    criteria: tuple[str, ...]
    path: str = "<memory>"


def _substitute(text: str, variables: Mapping[str, str], path: str) -> str:
    missing: list[str] = []
    for m in _VAR.finditer(text):
        if m.group(1) not in variables:
            line = text.count("\n", 0, m.start()) + 1
            missing.append(f"{{{{{m.group(1)}}}}} at {path}:{line}")
    if missing:
        given = ", ".join(sorted(variables)) or "none"
        raise UsageError(
            f"{path}: unknown variable {missing[0]}"
            + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
            + f"; give it with --var NAME=VALUE (variables given: {given})"
        )
    used = sorted({m.group(1) for m in _VAR.finditer(text)})
    unused = sorted(set(variables) - set(used))
    if unused:
        uses = ", ".join(f"{{{{{n}}}}}" for n in used) if used else "no variable"
        raise UsageError(
            f"{path}: variable{'s' if len(unused) > 1 else ''} {', '.join(unused)} given but not used by the "
            f"file (it uses {uses}); a misspelt name would otherwise be ignored"
        )
    return _VAR.sub(lambda m: variables[m.group(1)], text)


def _bullets(lines: list[str], path: str, first_line: int) -> tuple[str, ...]:
    items: list[str] = []
    for offset, line in enumerate(lines):
        if not line.strip():
            continue
        m = _BULLET.match(line)
        if m:
            items.append(m.group(1).strip())
        elif items and line.startswith((" ", "\t")):
            items[-1] += " " + line.strip()
        else:
            raise UsageError(
                f"{path}:{first_line + offset}: expected a list item ('- ...') in this section, "
                f"found {line.strip()[:60]!r}"
            )
    return tuple(items)


def parse_judge_file(text: str, variables: Mapping[str, str] | None = None, *, path: str = "<memory>") -> JudgeFile:
    """Parse the text of a ``judge.md`` (see the module docstring)."""
    text = _substitute(text, variables or {}, path)
    sections: dict[str, tuple[int, list[str]]] = {}
    task: list[str] = []
    current: list[str] = task
    for n, line in enumerate(text.splitlines(), 1):
        h = _HEADING.match(line)
        if h:
            title = h.group(1).strip().lower().rstrip(":")
            if title in ("steps", "pass criteria", "criteria"):
                key = "steps" if title == "steps" else "criteria"
                if key in sections:
                    raise UsageError(f"{path}:{n}: a second '## {h.group(1)}' section")
                sections[key] = (n + 1, [])
                current = sections[key][1]
                continue
            current = task  # any other heading: part of the free text
        current.append(line)
    if "criteria" not in sections:
        raise UsageError(f"{path}: no '## Pass criteria' section (expected a list of criteria, one per bullet)")
    criteria = _bullets(sections["criteria"][1], path, sections["criteria"][0])
    if not criteria:
        raise UsageError(f"{path}:{sections['criteria'][0] - 1}: the '## Pass criteria' section has no criterion")
    steps = _bullets(sections["steps"][1], path, sections["steps"][0]) if "steps" in sections else ()
    return JudgeFile("\n".join(task).strip(), steps, criteria, path)


def read_judge_file(path: str | os.PathLike[str], variables: Mapping[str, str] | None = None) -> JudgeFile:
    """Read and parse the ``judge.md`` at *path*; ``UsageError`` when it is missing or malformed."""
    p = os.fspath(path)
    try:
        with open(p, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise UsageError(f"{p}: judge file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{p}: cannot be read: {exc}") from None
    return parse_judge_file(text, variables, path=p)
