"""Exceptions raised by agenteval_assert.

Hierarchy::

    AgentEvalError                      base of everything that is *not* a failed check
    ├── TranscriptError (ValueError)    the input could not be read as a transcript
    │   ├── UnknownFormatError          auto-detection failed; lists every format tried and why
    │   └── TranscriptParseError        a file/line that is not what its format expects
    ├── UsageError (ValueError)         a library function was called the wrong way
    │   └── MultipleTranscriptsError    ``load()`` on a file that holds several runs (``load_all()``)
    └── FormatPluginError               an installed format plugin cannot be used (names it)

    TranscriptAssertionError (AssertionError)   a check failed (defined in ``agenteval_assert.results``)

Every ``TranscriptError`` carries ``path``, ``line`` (1-based, ``None`` when the problem is the
file as a whole) and ``expected`` (what the parser wanted to see), and its message starts with
``path:line:`` so that it can be clicked in an editor or a CI log.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "AgentEvalError",
    "FormatPluginError",
    "MultipleTranscriptsError",
    "TranscriptError",
    "TranscriptParseError",
    "UnknownFormatError",
    "UsageError",
]


class AgentEvalError(Exception):
    """Base class of every error raised by agenteval_assert that is not a failed check."""


class UsageError(AgentEvalError, ValueError):
    """A function was called with arguments it cannot work with."""


class TranscriptError(AgentEvalError, ValueError):
    """The input could not be read as a transcript.

    Attributes:
        path: the file (or ``"<memory>"``/``"<stdin>"``).
        line: 1-based line of the problem, or ``None`` when it concerns the whole file.
        expected: what the reader expected to find there.
    """

    def __init__(self, message: str, *, path: str, line: int | None = None, expected: str = "") -> None:
        self.path = path
        self.line = line
        self.expected = expected
        self.reason = message
        where = f"{path}:{line}" if line is not None else path
        text = f"{where}: {message}"
        if expected:
            text += f" (expected {expected})"
        super().__init__(text)


class TranscriptParseError(TranscriptError):
    """A record does not have the shape its format requires."""


#: The longest reason shown for one format in an ``UnknownFormatError`` message.
_REASON_LIMIT = 200


def _bounded(text: str) -> str:
    one = " ".join(text.split())
    return one if len(one) <= _REASON_LIMIT else one[: _REASON_LIMIT - 1] + "…"


class UnknownFormatError(TranscriptError):
    """No supported format recognised the input.

    Attributes:
        tried: ``(format, reason)`` for every format that was considered, in order.
    """

    def __init__(
        self,
        *,
        path: str,
        tried: Sequence[tuple[str, str]],
        line: int | None = None,
        message: str = "not a transcript in any supported format",
        expected: str | None = None,
        list_tried: bool = True,
    ) -> None:
        self.tried = tuple(tried)
        if expected is None:
            expected = "one of: " + ", ".join(fmt for fmt, _ in self.tried) if self.tried else ""
        super().__init__(message, path=path, line=line, expected=expected)
        if self.tried and list_tried:
            # one readable first line, then why each format said no: one per line, each bounded
            reasons = "\n".join(f"  {fmt}: {_bounded(why)}" for fmt, why in self.tried)
            self.args = (f"{self.args[0]}\n{reasons}",)


class FormatPluginError(AgentEvalError):
    """A third-party format plugin (entry point group ``agenteval_assert.formats``) cannot be used.

    Raised only when that plugin is needed (its format was asked for, or detection reached it);
    the built-in formats never depend on plugins. The message names the entry point and the
    distribution that declares it.

    Attributes:
        plugin: the entry point name (the format name the plugin declares).
        path: the input the plugin was reading when it failed (its ``parse`` raised), ``None`` when
            the plugin itself could not be used (not importable, not a parser). The command line
            exits ``3`` (input not read) for the first, ``2`` for the second.
    """

    def __init__(self, message: str, *, plugin: str, path: str | None = None) -> None:
        self.plugin = plugin
        self.path = path
        super().__init__(message)


class MultipleTranscriptsError(UsageError):
    """``load()`` was given a file that holds several transcripts (an inspect_ai log with several
    samples or epochs): ``load_all(path)`` returns them all, ``load("path#member")`` one of them.

    Attributes:
        path: the file.
        members: the member ids, in file order.
    """

    def __init__(self, path: str, members: Sequence[str], what: str) -> None:
        self.path = path
        self.members = tuple(members)
        shown = ", ".join(self.members[:5]) + (f", ... ({len(self.members)} in all)" if len(self.members) > 5 else "")
        super().__init__(
            f"{path}: holds {len(self.members)} transcripts ({what}); load them all with "
            f"load_all({path!r}), or one with load({path + '#' + self.members[0]!r}) "
            f"(members: {shown})"
        )
