"""The explicit evaluation context of a Storybook agent-eval run.

The reference suite reads ``__agent_eval__/agent.json``, ``results.json`` and ``transcript.txt``
from the current directory and memoises what it computed for the life of the process (spec §1).
Older NiceEval runs leave another layout: the fixture's ``PROMPT.md`` and ``EVAL.ts`` and the
harness summary ``__niceeval__/results.json`` (same ``o11y.shellCommands``); both are read.
Here everything hangs off one ``EvalContext`` object: build it from a saved sandbox directory
(``EvalContext.from_sandbox``) or from parts (``EvalContext.from_parts``), pass it to every
``expect_*`` function, and throw it away. Values derived from the transcript are computed once per
context (never per process), so two contexts never see each other's data.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, cast

import attrs

from .._builder import TranscriptBuilder
from .._reader import ReadStats, check_input_file, read_input_file
from ..exceptions import AgentEvalError, TranscriptError, UsageError
from ..model import Location, ToolCall, Transcript

# The JavaScript values live in ``_js_values``; the Storybook modules import them from here.
from ._js_values import _MISSING as _MISSING  # noqa: PLC0414
from ._js_values import js_number, js_string
from ._js_values import json_parse as json_parse  # noqa: PLC0414

__all__ = [
    "AGENT_CONTEXT_PATH",
    "EVAL_PATH",
    "NICEEVAL_RESULTS_PATH",
    "PROMPT_PATH",
    "RESULTS_PATH",
    "TRANSCRIPT_PATH",
    "EvalContext",
    "EvalProfile",
    "Generation",
    "SandboxError",
    "ShellCommand",
    "js_number",
    "js_string",
]

#: Paths inside the sandbox, relative to the project root (spec §1.1).
AGENT_CONTEXT_PATH = "__agent_eval__/agent.json"
RESULTS_PATH = "__agent_eval__/results.json"
TRANSCRIPT_PATH = "__agent_eval__/transcript.txt"
#: NiceEval sandboxes (runs before its sandbox summary moved host-side): the fixture's files and
#: the harness summary ``{"o11y": {..., "shellCommands": [{command, exitCode?, success?}]}}``.
NICEEVAL_RESULTS_PATH = "__niceeval__/results.json"
PROMPT_PATH = "PROMPT.md"
EVAL_PATH = "EVAL.ts"

#: How to give a sandbox without a transcript the agent's transcript.
NO_TRANSCRIPT_HINT = ("pass the agent's transcript: EvalContext.from_sandbox(directory, transcript=PATH) (a file or "
                      "a parsed Transcript), or --transcript PATH on the command line")

Generation = Literal["A", "B", "C", "C+"]
Integration = Literal["mcp", "plugin", "none"]

_GENERATIONS = ("A", "B", "C", "C+")


class SandboxError(AgentEvalError, ValueError):
    """A sandbox directory (or one of its ``__agent_eval__`` files) cannot be used.

    The message names the file. ``path`` is that file.
    """

    def __init__(self, message: str, *, path: str) -> None:
        self.path = path
        super().__init__(message)


@attrs.define(frozen=True, slots=True)
class EvalProfile:
    """Which generation of the reference suite to reproduce, and the choices where they disagree.

    Attributes:
        generation: ``"B"`` (the reference profile of the spec: test-utils @05df4580),
            ``"A"`` (legacy tool names), ``"C"`` (@11e16332) or ``"C+"`` (the newest tests).
            It selects the CLI grammar, the review-link pattern, the Codex browser-navigation
            rule and the test-run output rendering.
        out_of_context: what ``expect_valid_storybook_launch_config`` / ``expect_preview_browser_started``
            do when the run is not the agent/integration they are about: ``"fail"`` (the
            fail-loud tests 58009682197, our default: never a silent pass) or ``"return"`` (the
            @05df4580 source, which returns silently).
        review_anchor: which ``review-create`` anchors ``expect_review_opened_in_browser``:
            ``"first-successful"`` (C+ tests, E23, our default) or ``"last"`` (@11e16332 source).
        strict_names: ``True`` reproduces the reference exactly: a name of the other vocabulary
            (``get-documentation`` asked of a Gen B run) matches nothing. ``False`` (default)
            translates legacy and current names into each other.
        rerun_story_tests: ``True`` makes ``expect_story_tests_ran_and_passed`` rerun the tests in
            the sandbox (ΔC+); it needs a live workspace with ``npx``. Default: ``False``.
    """

    generation: Generation = "B"
    out_of_context: Literal["fail", "return"] = "fail"
    review_anchor: Literal["first-successful", "last"] = "first-successful"
    strict_names: bool = False
    rerun_story_tests: bool = False

    def __attrs_post_init__(self) -> None:
        if self.generation not in _GENERATIONS:
            raise UsageError(
                f"unknown generation {self.generation!r}; choose one of: {', '.join(_GENERATIONS)}"
            )
        if self.out_of_context not in ("fail", "return"):
            raise UsageError(f"out_of_context must be 'fail' or 'return', not {self.out_of_context!r}")
        if self.review_anchor not in ("first-successful", "last"):
            raise UsageError(
                f"review_anchor must be 'first-successful' or 'last', not {self.review_anchor!r}"
            )

    @property
    def names_profile(self) -> Literal["A", "B", "C"] | None:
        """The profile handed to the workflow-call parser.

        B and C select their CLI grammar (C+ parses like C). Gen A differs from B only in its
        names, which we translate, so it parses with every vocabulary (``None``) unless
        ``strict_names`` asks for the reference's exact behaviour.
        """
        if self.generation == "A":
            return "A" if self.strict_names else None
        return "C" if self.generation == "C+" else self.generation

    @property
    def is_c(self) -> bool:
        """Generation C or C+."""
        return self.generation in ("C", "C+")


@attrs.define(frozen=True, slots=True)
class ShellCommand:
    """One shell command the agent ran (``results.json › o11y.shellCommands`` or the transcript).

    Attributes:
        command: the command text, as recorded.
        location: where it is recorded: the transcript call when one has this exact text, else
            the line of ``results.json``.
        tool_call: the transcript's shell call with this text, where there is one.
        exit_code / success: ``exitCode`` / ``success`` of the ``results.json`` entry, where the
            harness recorded them.
    """

    command: str
    location: Location | None = None
    tool_call: ToolCall | None = None
    exit_code: int | None = None
    success: bool | None = None

    @property
    def succeeded(self) -> bool | None:
        """The call's outcome where the transcript has it, else what ``results.json`` recorded, else ``None``."""
        if self.tool_call is not None and self.tool_call.result is not None:
            return not self.tool_call.is_error
        if self.success is not None:
            return self.success
        return None if self.exit_code is None else self.exit_code == 0


def read_sandbox_text(path: Path, rel: str) -> str:
    """The text of a sandbox file: a regular file within the input size limit, in UTF-8.

    A FIFO, a device or a directory in its place, an oversized file or bytes that are not UTF-8
    are a ``SandboxError`` naming the file (never a hang, a ``MemoryError`` or a traceback).
    """
    if not path.exists() and not path.is_symlink():
        raise SandboxError(f"{rel}: file not found (looked at {path})", path=str(path))
    try:
        data = read_input_file(str(path), "sandbox")
    except TranscriptError as exc:
        raise SandboxError(f"{rel}: cannot be read: {exc.reason}", path=str(path)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SandboxError(f"{rel}: not UTF-8 text (byte {exc.start}: {exc.reason})", path=str(path)) from None


def _read_json_file(path: Path, rel: str) -> Any:
    text = read_sandbox_text(path, rel)
    try:
        return json_parse(text)
    except json.JSONDecodeError as exc:
        raise SandboxError(
            f"{rel}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", path=str(path)
        ) from None
    except ValueError as exc:  # NaN, Infinity
        raise SandboxError(f"{rel}: invalid JSON: {exc}", path=str(path)) from None
    except RecursionError:
        raise SandboxError(f"{rel}: JSON nested too deeply to read", path=str(path)) from None


def _validate_agent_json(data: Any, path: str) -> tuple[str, Integration, bool]:
    """The reference's ``getEvalContext`` checks, with its exact messages (spec §5.1)."""
    rec = data if isinstance(data, dict) else {}
    agent = rec.get("agent", _MISSING)
    if not isinstance(agent, str):
        raise SandboxError(
            f"Expected {AGENT_CONTEXT_PATH} to contain an agent name. Received: {js_string(agent)}",
            path=path,
        )
    integration = rec.get("integration", _MISSING)
    if integration not in ("mcp", "plugin", "none"):
        raise SandboxError(
            f"Expected {AGENT_CONTEXT_PATH} to contain an integration. Received: {js_string(integration)}",
            path=path,
        )
    return agent, cast(Integration, integration), rec.get("review") is True


def agent_family(agent: str) -> str:
    """``claude-code`` or ``codex`` by substring, as the reference selects its parser (§3.3)."""
    for key in ("claude-code", "codex", "opencode", "gemini", "cursor", "bub"):
        if key in agent:
            return key
    return agent


def _empty_transcript(path: str, agent: str) -> Transcript:
    fmt = "codex-exec" if agent_family(agent) == "codex" else "claude-session"
    b = TranscriptBuilder(path, fmt, agent_family(agent))
    return b.build(ReadStats(path=path, shape="empty"))


def _load_transcript(path: Path, agent: str, *, given: bool = False) -> Transcript:
    """The sandbox's transcript, or with *given* the file the caller gave for it (named as
    such in errors, not as the sandbox's ``transcript.txt``)."""
    from .. import load

    name = str(path) if given else TRANSCRIPT_PATH
    if not path.exists() and not path.is_symlink():
        if given:
            raise SandboxError(f"{path}: file not found (the transcript given for the sandbox)", path=str(path))
        raise SandboxError(f"{TRANSCRIPT_PATH}: file not found (looked at {path})", path=str(path))
    try:
        if check_input_file(str(path)) == 0 or not read_input_file(str(path)).strip():
            return _empty_transcript(str(path), agent)
    except TranscriptError as exc:
        raise SandboxError(f"{name}: cannot be read: {exc.reason}", path=str(path)) from None
    try:
        return load(str(path))
    except TranscriptError as exc:
        raise SandboxError(str(exc) if given else f"{TRANSCRIPT_PATH}: {exc}", path=str(path)) from exc


def _line_of(text: str, needle: str, start: int) -> tuple[int, int]:
    """1-based line of *needle* in *text* at or after *start*, and the index after it (or 0, start)."""
    i = text.find(needle, start)
    if i < 0:
        return 0, start
    return text.count("\n", 0, i) + 1, i + len(needle)


@attrs.define(slots=False, eq=False)
class EvalContext:
    """Everything the Storybook assertions read about one run.

    Attributes:
        agent: ``agent.json › agent`` (``claude-code``, ``codex``...).
        integration: ``mcp``, ``plugin`` or (Gen C) ``none``.
        review: ``agent.json › review === true``.
        transcript: the parsed transcript (``transcript.txt``).
        workspace: the project root (where ``package.json`` and the story files are).
        profile: the generation and the choices where generations disagree.
        shell_commands: the shell commands as the harness recorded them.
        transcript_path / results_path / agent_json_path: the files read (``None`` when given
            as parts).
        notes: facts about how the context was built (e.g. shell commands taken from the
            transcript because ``results.json`` was absent).
        layout: ``"agent-eval"`` (``__agent_eval__/``) or ``"niceeval"`` (``__niceeval__/``).
        prompt: the fixture's ``PROMPT.md``, where the sandbox has one.
        eval_path: the fixture's ``EVAL.ts``, where the sandbox has one.
        transcript_missing: the sandbox holds no transcript (a NiceEval sandbox: NiceEval keeps
            it on the host) and none was given: ``transcript`` is empty, and every check that
            reads it is INCONCLUSIVE, never PASS or FAIL.
    """

    agent: str
    integration: Integration
    review: bool
    transcript: Transcript
    workspace: Path
    profile: EvalProfile = attrs.field(factory=EvalProfile)
    shell_commands: tuple[ShellCommand, ...] = ()
    transcript_path: Path | None = None
    results_path: Path | None = None
    agent_json_path: Path | None = None
    notes: tuple[str, ...] = ()
    layout: Literal["agent-eval", "niceeval"] = "agent-eval"
    prompt: str | None = None
    eval_path: Path | None = None
    transcript_missing: bool = False
    _cache: dict[str, Any] = attrs.field(factory=dict, init=False, repr=False)

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def from_sandbox(
        cls,
        directory: str | os.PathLike[str],
        *,
        profile: EvalProfile | None = None,
        transcript: Transcript | str | os.PathLike[str] | None = None,
        agent: str | None = None,
        integration: str | None = None,
        review: bool | None = None,
    ) -> EvalContext:
        """Read a saved sandbox: ``__agent_eval__/{agent,results}.json`` and ``transcript.txt``.

        A NiceEval sandbox (``__niceeval__/results.json``, with the fixture's ``PROMPT.md`` and
        ``EVAL.ts``) is read too: its shell commands come from ``__niceeval__/results.json``.
        ``agent``, ``integration`` and ``review`` stand for (or override) ``agent.json``, which a
        NiceEval sandbox has only when the eval wrote it; ``transcript`` (a file or a parsed
        ``Transcript``) stands for ``transcript.txt``.

        Raises ``SandboxError`` naming the file when one is missing or malformed. A missing
        ``results.json`` is tolerated: the shell commands then come from the transcript (noted
        in ``notes``).
        """
        root = Path(directory)
        if not root.is_dir():
            raise SandboxError(f"{root}: not a directory (expected a saved sandbox)", path=str(root))
        agent_path = root / AGENT_CONTEXT_PATH
        vercel = root / RESULTS_PATH
        nice = root / NICEEVAL_RESULTS_PATH
        niceeval = not vercel.exists() and nice.exists()
        rpath: Path | None = nice if niceeval else vercel
        notes: list[str] = []
        if niceeval:
            notes.append(f"a NiceEval sandbox: shell commands come from {NICEEVAL_RESULTS_PATH}")
        tpath = root / TRANSCRIPT_PATH
        parsed: Transcript | None = None  # read below, once the agent is known
        missing = False
        if isinstance(transcript, Transcript):
            parsed = transcript
        elif transcript is not None:
            tpath = Path(transcript)
            parsed = _load_transcript(tpath, agent or "claude-code", given=True)
        if agent_path.exists() or not niceeval:
            facts = _read_json_file(agent_path, AGENT_CONTEXT_PATH)
        else:
            facts = {}
            notes.append(f"no {AGENT_CONTEXT_PATH}: agent and integration given as arguments")
        if not isinstance(facts, dict):
            facts = {"agent": _MISSING}
        facts = {**facts, **{k: v for k, v in (("agent", agent), ("integration", integration), ("review", review))
                             if v is not None}}
        if niceeval and "agent" not in facts and parsed is not None and parsed.steps:
            facts["agent"] = parsed.agent
        if niceeval and not ("agent" in facts and "integration" in facts):
            raise SandboxError(
                f"{root}: a NiceEval sandbox without {AGENT_CONTEXT_PATH} needs the agent and the integration: "
                "EvalContext.from_sandbox(dir, agent='claude-code', integration='plugin')",
                path=str(agent_path),
            )
        agent_name, integ, rev = _validate_agent_json(facts, str(agent_path))
        if parsed is None:
            if tpath.exists() or not niceeval:
                parsed = _load_transcript(tpath, agent_name)
            elif integ != "plugin":
                raise SandboxError(
                    f"{root}: a NiceEval sandbox has no transcript, and with integration={integ} the workflow "
                    f"calls come from it: pass transcript= (the agent's transcript file)",
                    path=str(tpath),
                )
            else:
                parsed = _empty_transcript("<no transcript>", agent_name)
                tpath = None  # type: ignore[assignment]
                missing = True
                notes.append(f"no transcript: the checks that read it are inconclusive; {NO_TRANSCRIPT_HINT}")
        notes[:0] = _transcript_notes(parsed, agent_name)
        if rpath is not None and rpath.exists():
            shell = _shell_commands_from_results(rpath, parsed, RESULTS_PATH if not niceeval else NICEEVAL_RESULTS_PATH)
        else:
            shell = _shell_commands_from_transcript(parsed)
            notes.append(f"{RESULTS_PATH} is absent: shell commands are taken from the transcript")
            rpath = None
        prompt_file = root / PROMPT_PATH
        eval_file = root / EVAL_PATH
        return cls(
            agent=agent_name,
            integration=integ,
            review=rev,
            transcript=parsed,
            workspace=root,
            profile=profile or EvalProfile(),
            shell_commands=tuple(shell),
            transcript_path=tpath,
            results_path=rpath,
            agent_json_path=agent_path if agent_path.exists() else None,
            notes=tuple(notes),
            layout="niceeval" if niceeval else "agent-eval",
            prompt=read_sandbox_text(prompt_file, PROMPT_PATH) if prompt_file.is_file() else None,
            eval_path=eval_file if eval_file.is_file() else None,
            transcript_missing=missing,
        )

    @classmethod
    def from_parts(
        cls,
        transcript: Transcript | str | os.PathLike[str],
        *,
        agent: str | None = None,
        integration: str = "mcp",
        review: bool = False,
        workspace: str | os.PathLike[str] = ".",
        shell_commands: Sequence[str] | None = None,
        results: str | os.PathLike[str] | Mapping[str, Any] | None = None,
        profile: EvalProfile | None = None,
    ) -> EvalContext:
        """Build a context from a transcript (file or parsed) and the facts of ``agent.json``.

        ``shell_commands`` (or ``results``, a ``results.json`` path or its decoded object) stand
        for the harness's recorded commands; without either they come from the transcript.
        """
        if isinstance(transcript, Transcript):
            parsed = transcript
            tpath = None if transcript.path.startswith("<") else Path(transcript.path)
        else:
            tpath = Path(transcript)
            parsed = _load_transcript(tpath, agent or "claude-code")
        agent_name = agent if agent is not None else parsed.agent
        agent_name, integ, rev = _validate_agent_json(
            {"agent": agent_name, "integration": integration, "review": review}, "<parts>"
        )
        notes: list[str] = _transcript_notes(parsed, agent_name)
        rpath: Path | None = None
        if shell_commands is not None:
            shell = _locate_commands(list(shell_commands), parsed, None, "")
        elif isinstance(results, Mapping):
            entries = _command_entries(results)
            shell = _with_outcomes(_locate_commands([e["command"] for e in entries], parsed, None, ""), entries)
        elif results is not None:
            rpath = Path(results)
            shell = _shell_commands_from_results(rpath, parsed)
        else:
            shell = _shell_commands_from_transcript(parsed)
            notes.append("no results.json given: shell commands are taken from the transcript")
        return cls(
            agent=agent_name,
            integration=integ,
            review=rev,
            transcript=parsed,
            workspace=Path(workspace),
            profile=profile or EvalProfile(),
            shell_commands=tuple(shell),
            transcript_path=tpath,
            results_path=rpath,
            notes=tuple(notes),
        )

    def with_profile(self, profile: EvalProfile) -> EvalContext:
        """The same run seen through another profile (a fresh context: nothing cached is shared)."""
        return attrs.evolve(self, profile=profile)

    # -- derived views (computed once per context) -------------------------------------------

    def _memo(self, key: str, fn: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    @property
    def agent_family(self) -> str:
        """``claude-code`` / ``codex`` (the substring rule of the reference parser selection)."""
        return agent_family(self.agent)

    @property
    def is_claude(self) -> bool:
        return self.agent_family == "claude-code"

    @property
    def is_codex(self) -> bool:
        return self.agent_family == "codex"

    @property
    def final_assistant_message(self) -> str | None:
        """The last assistant text of the main agent (spec §3.4), or ``None``."""
        return self.transcript.final_response

    @property
    def shell_command_texts(self) -> list[str]:
        """``getShellCommands()``: the recorded command strings, in order."""
        return [c.command for c in self.shell_commands]

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        """Every tool call of the transcript (subagents included, as the reference parser sees them)."""
        return self.transcript.all_tool_calls

    @property
    def workflow_calls(self) -> list[Any]:
        """``getStorybookWorkflowCalls()``: the calls the reference counts for this integration.

        plugin: the CLI calls parsed from the recorded shell commands; mcp/none: the transcript's
        MCP tool calls whose name normalises (Codex: completed items only).
        """
        return cast(list[Any], self._memo("workflow_calls", self._compute_workflow_calls))

    def _compute_workflow_calls(self) -> list[Any]:
        from . import _workflow as wf

        prof = self.profile.names_profile
        if self.integration == "plugin":
            # One pass over every command, so that a file written by a heredoc in one command is
            # known to the later ones; each call is then located at the command it came from.
            texts = self.shell_command_texts
            out: list[Any] = []
            i = 0
            for call in wf.parse_workflow_shell_commands(texts, profile=prof):
                j = i
                while j < len(texts) and texts[j] != call.command:
                    j += 1
                if j < len(texts):
                    i = j
                sc = self.shell_commands[i] if i < len(texts) else None
                changes: dict[str, Any] = {}
                if sc is not None and call.location is None and sc.location is not None:
                    changes["location"] = sc.location
                if sc is not None and call.tool_call is None and sc.tool_call is not None:
                    changes["tool_call"] = sc.tool_call
                    res = sc.tool_call.result
                    if call.result is None and res is not None:
                        changes["result"] = wf.WorkflowResult(res.text, sc.tool_call.is_error, res.location)
                out.append(_evolve(call, changes))
            return out
        calls = [c for c in wf.workflow_calls(self.transcript, profile=prof) if c.source == "mcp"]
        if self.is_codex:
            # The reference reads only ``item.completed`` lines for Codex MCP calls.
            calls = [c for c in calls if c.tool_call is None or c.tool_call.result is not None]
        return calls

    def workflow_results(self, name: str) -> list[Any]:
        """``getWorkflowToolResults(name)``: results of workflow calls *name*, as they arrive.

        Generation C renders ``test-run --json`` documents to markdown (spec §6.3).
        """

        def compute() -> list[Any]:
            from . import _report
            from . import _workflow as wf

            results = list(wf.workflow_results(self.transcript, name, profile=self.profile.names_profile))
            if self.profile.is_c and name == "test-run":
                rendered = []
                for r in results:
                    text = _report.render_test_run_json_output(r.output)
                    rendered.append(r if text is None else _evolve(r, {"output": text}))
                results = rendered
            return results

        return cast(list[Any], self._memo("results:" + name, compute))

    @property
    def sandbox_runs(self) -> dict[str, Any]:
        """Story-test reruns in this sandbox, per project directory (ΔC+), cached per context."""
        return cast(dict[str, Any], self._cache.setdefault("sandbox_runs", {}))

    def path(self, relative: str) -> Path:
        """A workspace path."""
        return self.workspace / relative

    def describe(self) -> str:
        """``agent=claude-code integration=mcp review=false`` (for messages and reports)."""
        return (
            f"agent={self.agent} integration={self.integration} "
            f"review={'true' if self.review else 'false'} generation={self.profile.generation}"
        )


def _transcript_notes(transcript: Transcript, agent: str) -> list[str]:
    """What makes the transcript a weaker ground for "X never happened", said up front."""
    notes: list[str] = []
    h = transcript.health
    if h.truncated_tail:
        notes.append(f"{TRANSCRIPT_PATH}: the last line ({h.lines}) is torn: calls after it are unknown")
    bad = [i.line for i in h.unparsable if not (h.truncated_tail and i.line == h.lines)]
    if bad:
        shown = ", ".join(str(n) for n in bad[:5]) + (" ..." if len(bad) > 5 else "")
        notes.append(f"{TRANSCRIPT_PATH}: {len(bad)} line(s) are not JSON and were skipped: {shown}")
    fam = agent_family(agent)
    if transcript.steps and fam in ("claude-code", "codex") and transcript.agent != fam:
        notes.append(f"agent.json says agent={agent} but {TRANSCRIPT_PATH} is a {transcript.format} transcript")
    return notes


def _evolve(obj: Any, changes: dict[str, Any]) -> Any:
    if not changes:
        return obj
    if attrs.has(type(obj)):
        fields = {f.name for f in attrs.fields(type(obj))}
        return attrs.evolve(obj, **{k: v for k, v in changes.items() if k in fields})
    return obj


def _command_entries(data: Any) -> list[Mapping[str, Any]]:
    """``JSON.parse(results.json).o11y?.shellCommands`` → the entries with a string ``command``."""
    if not isinstance(data, Mapping):
        return []
    o11y = data.get("o11y")
    cmds = o11y.get("shellCommands") if isinstance(o11y, Mapping) else None
    if not isinstance(cmds, list):
        return []
    return [c for c in cmds if isinstance(c, Mapping) and isinstance(c.get("command"), str)]


def _commands_of_results(data: Any) -> list[str]:
    """``JSON.parse(results.json).o11y?.shellCommands`` → the string ``command`` values."""
    return [c["command"] for c in _command_entries(data)]


def _with_outcomes(shell: list[ShellCommand], entries: list[Mapping[str, Any]]) -> list[ShellCommand]:
    """The recorded ``exitCode`` / ``success`` of each entry (NiceEval and Vercel write them)."""
    out = []
    for sc, e in zip(shell, entries, strict=True):
        code = e.get("exitCode")
        ok = e.get("success")
        out.append(attrs.evolve(
            sc,
            exit_code=code if isinstance(code, int) and not isinstance(code, bool) else None,
            success=ok if isinstance(ok, bool) else None,
        ))
    return out


def _shell_commands_from_results(path: Path, transcript: Transcript, rel: str = RESULTS_PATH) -> list[ShellCommand]:
    data = _read_json_file(path, rel)
    if not isinstance(data, dict):
        raise SandboxError(
            f"{rel}: expected a JSON object with o11y.shellCommands, found {type(data).__name__}",
            path=str(path),
        )
    text = read_sandbox_text(path, rel)
    entries = _command_entries(data)
    return _with_outcomes(_locate_commands([e["command"] for e in entries], transcript, path, text), entries)


def _locate_commands(
    commands: list[str], transcript: Transcript, results_path: Path | None, results_text: str
) -> list[ShellCommand]:
    """Attach to each recorded command the transcript shell call with the same text (in order)."""
    pending: dict[str, list[ToolCall]] = {}
    for call in transcript.all_tool_calls:
        if call.kind == "shell" and call.command is not None:
            pending.setdefault(call.command, []).append(call)
    used: dict[str, int] = {}
    out: list[ShellCommand] = []
    pos = 0
    for cmd in commands:
        k = used.get(cmd, 0)
        matches = pending.get(cmd, [])
        hit = matches[k] if k < len(matches) else None
        used[cmd] = k + 1
        loc: Location | None = hit.location if hit is not None else None
        if loc is None and results_path is not None:
            line, pos = _line_of(results_text, json.dumps(cmd, ensure_ascii=False), pos)
            if line == 0:
                line, pos = _line_of(results_text, json.dumps(cmd), pos)
            loc = Location(str(results_path), line) if line else None
        out.append(ShellCommand(cmd, loc, hit))
    return out


def _shell_commands_from_transcript(transcript: Transcript) -> list[ShellCommand]:
    return [
        ShellCommand(c.command, c.location, c)
        for c in transcript.all_tool_calls
        if c.kind == "shell" and c.command is not None
    ]
