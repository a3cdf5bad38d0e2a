"""Whether a transcript can hold a Storybook workflow call at all: a substring test on each shell
command text and a name match on each other call, with nothing heavy imported (``summary`` asks
it first and imports the workflow parser and the shell stack only when the answer is yes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._names import normalize_workflow_name

if TYPE_CHECKING:
    from ..model import Transcript

#: What quote removal and escape processing take out of a word (``st"or"y\\book`` is the word
#: ``storybook``); ``$'…'`` strings, whose escapes make any letter, are parsed whatever they hold.
_QUOTING = str.maketrans("", "", "'\"\\$\n\r")


def may_hold_calls(text: str) -> bool:
    """Whether a command text can hold a workflow call, or write a file (a heredoc) that a later
    command reads: the program word of a call is ``storybook`` (or a path ending in it) after
    quote removal, so a text without those letters once its quoting is taken out holds none, and
    its parse and walk are skipped (most shell calls of a long session)."""
    if "storybook" in text or "<<" in text or "$'" in text:
        return True
    return "storybook" in text.translate(_QUOTING)


#: No value: ``arguments.get("command", _MISSING)`` tells a missing key from ``None``.
_MISSING: object = object()


def may_hold_workflow_calls(transcript: Transcript, *, _long: bool = False) -> bool:
    """``False`` only when ``workflow_calls(transcript)`` (any profile) is surely empty: no shell
    command text passes :func:`may_hold_calls` and no other call's tool or name is a workflow
    name of either vocabulary. (A file the agent wrote matters only to a later command that
    passes.)

    Each distinct text is tested once: a text (and an argument list, by its words) already seen
    is skipped before the text is made (``ToolCall.command`` quotes every word of a list, which
    is most of the cost on a long Codex log). *_long* (for the tests) makes every shell call's
    text with ``ToolCall.command``."""
    from ..model import ToolCall  # loaded with the transcript

    seen: set[str] = set()
    argvs: set[tuple[object, ...]] = set()  # argument lists whose text was tested
    names: set[str] = set()  # the names already found to be no workflow name
    for call in transcript.all_tool_calls:
        if call.kind == "shell":
            if type(call) is ToolCall and not _long:  # ToolCall.command, inline up to the text
                args = call.arguments
                cmd = args.get("command", _MISSING)
                if cmd is _MISSING:
                    cmd = args.get("cmd")
                if type(cmd) is str:
                    if cmd in seen:
                        continue
                elif type(cmd) is list:
                    try:
                        words = tuple(cmd)
                        if words in argvs:
                            continue
                        argvs.add(words)
                    except TypeError:  # a word that cannot be hashed: no key, the text decides
                        pass
                elif cmd is None or type(cmd) in (int, float, bool, dict):
                    continue  # no text (what ToolCall.command says for these)
            text = call.command
            if text is None or text in seen:
                continue
            if may_hold_calls(text):
                return True
            seen.add(text)
            continue
        for candidate in (call.tool, call.name):
            if isinstance(candidate, str) and candidate and candidate not in names:
                if normalize_workflow_name(candidate):
                    return True
                names.add(candidate)
    return False
