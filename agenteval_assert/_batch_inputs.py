"""Finding the inputs of a batch run (``agenteval_assert.batch``): what ``expand`` makes of
command-line style arguments (files, directories walked, glob patterns, Storybook sandboxes), and
``_screen``, the cheap look at a file found in a directory that says whether it is obviously not a
transcript.

Imports nothing of ours: only names and paths are decided here; reading a file is the run's job
(``_batch_run``).
"""

from __future__ import annotations

import glob
import os
import stat
from collections.abc import Iterable, Iterator
from typing import Any, Literal

import attrs

__all__ = ["Input", "expand"]

#: Directory names never walked into.
SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", ".tox", ".nox", ".mypy_cache",
     ".pytest_cache", ".ruff_cache"}
)
#: The directory that makes a directory a Storybook sandbox (``@vercel/agent-eval``'s layout).
SANDBOX_MARKER = "__agent_eval__"
#: The directory of an older NiceEval run's sandbox (whose transcript may be absent).
NICEEVAL_MARKER = "__niceeval__"
#: A sandbox's transcript, relative to the sandbox.
SANDBOX_TRANSCRIPT = os.path.join(SANDBOX_MARKER, "transcript.txt")

_GLOB_CHARS = frozenset("*?[")
_ARCHIVE = b"PK\x03\x04"
_SNIFF = 8192


@attrs.define(frozen=True, slots=True)
class Input:
    """One unit of work: a transcript file or a sandbox directory.

    Attributes:
        path: the file or the sandbox directory.
        kind: ``file`` or ``sandbox``.
        discovered: found by walking a directory: when no format reads it, the result is
            *skipped* (listed, not counted) rather than *unreadable*, unless its name says
            transcript or it cannot be read at all.
        problem: known before reading (a glob that matched nothing): the result is unreadable.
        skip: known before reading not to be a transcript (a sandbox without one): the result
            is skipped, with this reason.
    """

    path: str
    kind: Literal["file", "sandbox"] = "file"
    discovered: bool = False
    problem: str | None = None
    skip: str | None = None


# -- directories, globs, sandboxes ----------------------------------------------------------


def _is_glob(arg: str) -> bool:
    return any(ch in _GLOB_CHARS for ch in arg) and not os.path.exists(arg)


def _is_sandbox(path: str) -> bool:
    return os.path.isdir(os.path.join(path, SANDBOX_MARKER)) or os.path.isdir(os.path.join(path, NICEEVAL_MARKER))


def _walk(root: str, *, sandboxes: bool) -> Iterator[Input]:
    """Every candidate under *root*, in sorted order (files of a directory before its subdirectories).

    Symbolic links to directories are followed (as a ``**`` pattern follows them), each real
    directory once (a link back to a parent does not loop); a directory that cannot be listed is
    an unreadable input, never silently left out."""
    errors: list[OSError] = []
    seen: set[str] = {os.path.realpath(root)}
    for dirpath, dirnames, filenames in os.walk(root, onerror=errors.append, followlinks=True):
        yield from _listing_errors(errors, sandboxes)
        dirnames.sort()
        if dirpath != root and _is_sandbox(dirpath):
            dirnames.clear()
            yield from _sandbox_input(dirpath, sandboxes=sandboxes)
            continue
        kept = []
        for d in dirnames:
            if d in SKIP_DIRS:
                continue
            real = os.path.realpath(os.path.join(dirpath, d))
            if real in seen:
                continue  # a link to a directory already walked (or to one of its parents)
            seen.add(real)
            kept.append(d)
        dirnames[:] = kept
        if sandboxes:
            continue  # an eval runs on sandboxes only: plain files are not candidates
        for name in sorted(filenames):
            yield Input(os.path.join(dirpath, name), discovered=True)
    yield from _listing_errors(errors, sandboxes)


def _listing_errors(errors: list[OSError], sandboxes: bool) -> Iterator[Input]:
    """A directory ``os.walk`` could not list: an unreadable input (the transcripts in it are not
    seen, so the run must not read as complete)."""
    for exc in errors:
        path = os.fspath(exc.filename) if exc.filename is not None else "?"
        yield Input(path, kind="sandbox" if sandboxes else "file",
                    problem=f"cannot list this directory: {exc.strerror or exc}")
    errors.clear()


def _sandbox_input(path: str, *, sandboxes: bool) -> Iterator[Input]:
    if sandboxes:
        yield Input(path, kind="sandbox")
        return
    # Without an eval, a sandbox contributes its transcript (and not its workspace's files).
    transcript = os.path.join(path, SANDBOX_TRANSCRIPT)
    niceeval = not os.path.exists(os.path.join(path, SANDBOX_MARKER, "results.json")) and os.path.isdir(
        os.path.join(path, NICEEVAL_MARKER)
    )
    if niceeval and not os.path.exists(transcript):
        # A NiceEval run may keep no transcript: nothing to check here, but the sandbox is named.
        yield Input(path, skip="a NiceEval sandbox without a transcript (an eval suite reads it: --eval NAME)")
    else:
        yield Input(transcript)  # an agent-eval sandbox must have it: missing is unreadable


def expand(args: Iterable[str | os.PathLike[str]], *, sandboxes: bool = False) -> Iterator[Input]:
    """The inputs named by command-line style *args*, in order, each path once.

    * a file is an input (unreadable if no format reads it);
    * a directory is walked recursively (skipping ``SKIP_DIRS``, following links to
      directories, each real directory once); each file found is an input that is *skipped* if
      no format reads it, unless its name says transcript (then it is unreadable); a
      subdirectory that cannot be listed, and a directory with no file, are unreadable inputs;
      a sandbox directory found on the way stands for its transcript, or, with *sandboxes* (an
      eval suite runs), for itself;
    * a pattern with ``*``, ``?`` or ``[`` (``**`` spans directories, but not ``SKIP_DIRS``) is
      expanded in sorted order, each match treated as above; a pattern that matches nothing is
      an unreadable input.
    """
    seen: set[str] = set()
    for arg in args:
        a = os.fspath(arg)
        for inp in _expand_one(a, sandboxes=sandboxes):
            key = os.path.realpath(inp.path)  # a file reached through a link is still the same file
            if key in seen:
                continue
            seen.add(key)
            yield inp


def _expand_one(arg: str, *, sandboxes: bool) -> Iterator[Input]:
    if _is_glob(arg):
        named = set(_parts(arg))
        # ``**`` does not reach into the directories a walk skips, unless the pattern names them.
        matches = sorted(m for m in glob.glob(arg, recursive=True) if not (set(_parts(m)) - named) & SKIP_DIRS)
        if not matches:
            yield Input(arg, kind="sandbox" if sandboxes else "file",
                        problem="no file matches this pattern")
            return
        for m in matches:
            yield from _expand_path(m, sandboxes=sandboxes)
        return
    yield from _expand_path(arg, sandboxes=sandboxes)


def _parts(path: str) -> list[str]:
    return os.path.normpath(path).split(os.sep)


def _expand_path(path: str, *, sandboxes: bool) -> Iterator[Input]:
    if os.path.isdir(path):
        if _is_sandbox(path):
            yield from _sandbox_input(path, sandboxes=sandboxes)
            return
        found = False
        for inp in _walk(path, sandboxes=sandboxes):
            found = True
            yield inp
        if not found:  # never a pass on nothing: the directory is named, as a pattern that matches nothing is
            what = "no sandbox" if sandboxes else "no file"
            yield Input(path, kind="sandbox" if sandboxes else "file", problem=f"{what} in this directory")
    else:
        yield Input(path, kind="sandbox" if sandboxes else "file")


# -- a file found in a directory: obviously not a transcript? -------------------------------

#: Names that say "transcript": a file found in a directory under such a name that no format
#: reads is unreadable (a damaged or foreign transcript must not vanish from the run), while
#: any other file no format reads (a README, a config, an image) is skipped.
TRANSCRIPT_SUFFIXES = (".jsonl", ".ndjson", ".traj", ".eval", ".aider.chat.history.md")
TRANSCRIPT_NAMES = frozenset({"transcript.txt"})
#: How far into a ``.json`` file the first line is looked for (``_json_lines``).
_FIRST_LINE_MAX = 1 << 20


def _named_transcript(path: str) -> bool:
    """The file's name alone says it is a transcript (``TRANSCRIPT_SUFFIXES``, ``TRANSCRIPT_NAMES``)."""
    name = os.path.basename(path)
    return name in TRANSCRIPT_NAMES or name.lower().endswith(TRANSCRIPT_SUFFIXES)


def _json_lines(f: Any) -> bool:
    """A ``.json`` file that holds JSON Lines (its first line is a whole JSON object and another
    line follows): records, as an agent's ``--output-format stream-json`` saved as ``.json``. A
    single JSON document (a config, a cassette, ``package.json``) is not."""
    import json

    f.seek(0)
    first = f.readline(_FIRST_LINE_MAX).removeprefix(b"\xef\xbb\xbf")
    while first and not first.strip():
        first = f.readline(_FIRST_LINE_MAX)
    if not first.endswith(b"\n"):
        return False
    try:
        doc = json.loads(first)
    except ValueError:
        return False
    if not isinstance(doc, dict):
        return False
    return any(line.strip() for line in iter(lambda: f.readline(_FIRST_LINE_MAX), b""))


def _screen(path: str) -> tuple[str | None, bool]:
    """A file found in a directory, looked at cheaply (one stat, the first bytes): why it is
    obviously not a transcript (or ``None``: the formats' detection decides), and whether a
    failure to read it is *unreadable* rather than *skipped*: its name says transcript, or it
    cannot be read at all (a file nobody can look at is never "not a transcript")."""
    named = _named_transcript(path)
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            return "not a regular file", named
        with open(path, "rb") as f:
            head = f.read(_SNIFF)
            if not named and path.lower().endswith(".json"):
                named = _json_lines(f)
    except FileNotFoundError:
        if os.path.islink(path):
            return "a symbolic link to a missing file", named
        return "cannot be read: no such file", True
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}", True
    if not head.removeprefix(b"\xef\xbb\xbf").strip():
        return "empty file", named
    if b"\0" in head and not head.startswith(_ARCHIVE):
        return "binary file", named  # a zip archive may be a log (inspect_ai's .eval): detection decides
    return None, named
