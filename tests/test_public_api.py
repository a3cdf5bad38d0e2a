"""The public API is an explicit, complete list, imported on first use."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import types
from pathlib import Path

import pytest

import agenteval_assert
import agenteval_assert.storybook

from . import _proc

#: The modules whose whole ``__all__`` is at the top level (``aa.check_tool_called``...).
FLATTENED = ("assertions", "checks", "exceptions", "matchers", "model", "results", "_parsers")
#: Public names of those modules that stay in their module only: text helpers of the renderers,
#: and the plugin registry's list (public in ``agenteval_assert.formats``).
NOT_AT_TOP = {"results": {"cut_middle", "printable", "short_repr"}, "_parsers": {"available_formats"}}
#: The judge's everyday names are at the top too (the rest of ``agenteval_assert.judge`` is
#: configuration and prompt machinery); ``check_verdict`` returns one result per criterion, so it
#: has no ``assert_`` form and stays in its module.
JUDGE_AT_TOP = {"Judge", "Verdict", "assert_criterion", "check_criterion", "judge_verdict"}
#: The public submodules, reachable as attributes (``aa.checks``, ``aa.storybook``...).
SUBMODULES = {"assertions", "checks", "exceptions", "formats", "judge", "markdown", "matchers", "model",
              "results", "shell", "storybook", "strategies"}


def _ruf022_key(name: str) -> tuple[int, str]:
    """The order ruff's RUF022 keeps ``__all__`` in: CONSTANTS, then Classes, then the rest."""
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)


def test_all_is_sorted_and_without_repeats() -> None:
    names = agenteval_assert.__all__
    assert names == sorted(names, key=_ruf022_key)
    assert len(set(names)) == len(names)


def test_all_is_complete() -> None:
    expected = {"__version__", "find_subagent_files", *JUDGE_AT_TOP}
    for mod in FLATTENED:
        public = importlib.import_module(f"agenteval_assert.{mod}").__all__
        expected.update(n for n in public if n not in NOT_AT_TOP.get(mod, set()))
    assert sorted(agenteval_assert.__all__) == sorted(expected)


def test_every_name_resolves_to_its_home_object() -> None:
    lazy = agenteval_assert._LAZY
    for module, names in lazy.items():
        home = importlib.import_module(module, "agenteval_assert")
        for name in names:
            assert getattr(agenteval_assert, name) is getattr(home, name), name
    assert set(agenteval_assert._WHERE) | {"__version__"} == set(agenteval_assert.__all__)
    for name in SUBMODULES:
        assert isinstance(getattr(agenteval_assert, name), types.ModuleType), name


def test_check_and_assert_forms_are_both_at_the_top() -> None:
    # the reason for the top-level list: aa.check_tool_called used to be an AttributeError
    checks = [n for n in agenteval_assert.__all__ if n.startswith("check_")]
    asserts = [n for n in agenteval_assert.__all__ if n.startswith("assert_")]
    assert len(checks) == len(asserts) > 30
    assert [n.removeprefix("check_") for n in checks] == [n.removeprefix("assert_") for n in asserts]
    assert agenteval_assert.check_tool_called is agenteval_assert.checks.check_tool_called
    assert agenteval_assert.check_criterion is agenteval_assert.judge.check_criterion


def test_type_checkers_see_the_same_names_as_the_lazy_table() -> None:
    # The ``if TYPE_CHECKING:`` imports are what mypy and editors read; ``_LAZY`` is what runs.
    tree = ast.parse(inspect.getsource(agenteval_assert))
    block = next(n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))
    static: dict[str, set[str]] = {}
    modules = set()
    for node in block.body:
        assert isinstance(node, ast.ImportFrom), ast.unparse(node)
        module = "." * node.level + (node.module or "")
        if module == ".":
            modules.update(a.name for a in node.names)
            assert all(a.asname == a.name for a in node.names)  # an explicit re-export
        else:
            static.setdefault(module, set()).update(a.name for a in node.names)
    assert static == {m: set(ns) for m, ns in agenteval_assert._LAZY.items()}
    assert modules == SUBMODULES == set(agenteval_assert._SUBMODULES)


def test_dir_lists_the_lazy_names_and_submodules() -> None:
    listed = set(dir(agenteval_assert))
    assert set(agenteval_assert.__all__) <= listed
    assert listed >= SUBMODULES
    assert not {"importlib", "TYPE_CHECKING", "annotations", "Any"} & listed


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'agenteval_assert' has no attribute 'check_tool_caled'"):
        agenteval_assert.check_tool_caled  # type: ignore[attr-defined]  # noqa: B018
    assert not hasattr(agenteval_assert, "_parsers_")


def _modules_after(code: str) -> list[str]:
    """The modules *code* imports in a fresh interpreter, beyond what the bare interpreter has.

    What the interpreter loads before any code of ours runs (``site``, and whatever ``.pth``
    files of the environment import: an editable install's finder, a certificate hook...) is
    subtracted: it differs between environments and is not ours to keep out.
    """
    loaded = set(_loaded_by(code))
    return sorted(loaded - _BARE.setdefault("modules", set(_loaded_by(""))))


_BARE: dict[str, set[str]] = {}


def _loaded_by(code: str) -> list[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = _proc.python(probe).stdout
    loaded: list[str] = json.loads(out.splitlines()[-1])
    return loaded


def test_importing_the_package_imports_nothing_else_of_ours() -> None:
    loaded = _modules_after("import agenteval_assert")
    ours = [m for m in loaded if m.startswith("agenteval_assert")]
    assert ours == ["agenteval_assert", "agenteval_assert._version"]
    assert not {"attrs", "pydantic", "regex", "jsonpath_ng"} & set(loaded)


def _modules_after_cli(argv: list[str]) -> list[str]:
    return _modules_after(
        "import contextlib, io\nfrom agenteval_assert._cli import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n    main({argv!r})"
    )


#: What a command may import beyond what ``--version`` does, by command (start-up: each imports
#: what it needs when it needs it).
_TINY = str(Path(__file__).parent / "corpus" / "claude-session-log" / "spotter-2.1.38-short.jsonl")
_NEVER_ON_START = ("agenteval_assert.storybook._report", "agenteval_assert.storybook._expect",
                   "agenteval_assert.storybook._context", "agenteval_assert.storybook._js_values",
                   "agenteval_assert.storybook._suites",
                   "agenteval_assert.judge", "agenteval_assert.checks", "agenteval_assert.matchers",
                   "agenteval_assert.reporting._junit", "agenteval_assert.reporting._markdown",
                   "agenteval_assert.reporting._github", "agenteval_assert._parsers._api",
                   "agenteval_assert._parsers._swe", "agenteval_assert._parsers._gemini",
                   # a Claude file: the formats asked before it sniff from ``_parsers._sniff``
                   "agenteval_assert._parsers._codex", "agenteval_assert._parsers._opencode",
                   "agenteval_assert._parsers._cursor", "agenteval_assert._parsers._inspect",
                   "agenteval_assert._parsers._aider", "agenteval_assert._parsers._claude._stream",
                   "pydantic", "regex", "jsonpath_ng", "anthropic", "zipfile", "http", "email",
                   "concurrent", "multiprocessing", "logging", "importlib.resources")


def test_the_version_option_imports_only_the_command_line() -> None:
    # start-up: the format names for ``--format``'s help, the exceptions; no model, no attrs
    loaded = _modules_after_cli(["--version"])
    ours = {m for m in loaded if m.startswith("agenteval_assert")}
    assert ours == {"agenteval_assert", "agenteval_assert._version", "agenteval_assert._cli",
                    "agenteval_assert._cli_exit", "agenteval_assert._cli_check", "agenteval_assert._cli_judge",
                    "agenteval_assert._cli_report", "agenteval_assert._parsers", "agenteval_assert.exceptions"}
    assert not {"attrs", "attr"} & set(loaded)


@pytest.mark.parametrize("argv", [["summary", _TINY], ["summary", _TINY, "--json"], ["check", _TINY]],
                         ids=lambda argv: " ".join(a if a != _TINY else "FILE" for a in argv))
def test_summary_and_check_import_what_they_use(argv: list[str]) -> None:
    loaded = _modules_after_cli(argv)
    assert [m for m in loaded if m.startswith(_NEVER_ON_START)] == []
    if argv[0] == "check":  # the health checks need no shell parser and no Storybook name table
        assert not [m for m in loaded if m.startswith(("agenteval_assert.storybook", "agenteval_assert.shell"))]
    # a log whose texts and names can hold no workflow call: no workflow parser, no shell stack
    assert not [m for m in loaded if m.startswith(("agenteval_assert.storybook._workflow", "agenteval_assert.shell",
                                                   "agenteval_assert._shell"))]


def test_storybook_names_are_imported_on_first_use() -> None:
    from agenteval_assert import storybook

    tree = ast.parse(inspect.getsource(storybook))
    block = next(n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))
    static: dict[str, set[str]] = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom), ast.unparse(node)
        static.setdefault("." * node.level + (node.module or ""), set()).update(a.name for a in node.names)
    assert static == {m: set(ns) for m, ns in storybook._LAZY.items()}
    assert set(storybook._WHERE) == set(storybook.__all__)
    for module, names in storybook._LAZY.items():
        home = importlib.import_module(module, "agenteval_assert.storybook")
        for name in names:
            assert getattr(storybook, name) is getattr(home, name), name
    with pytest.raises(AttributeError, match="has no attribute 'expect_nothing'"):
        storybook.expect_nothing  # type: ignore[attr-defined]  # noqa: B018
    loaded = _modules_after("from agenteval_assert.storybook import workflow_calls")
    assert not [m for m in loaded if m.startswith(("agenteval_assert.storybook._report", "pydantic"))]


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


def test_the_check_command_knows_every_transcript_status() -> None:
    # ``_cli_check`` keys its exit codes by status value, to import no reporting at start-up
    from agenteval_assert import _cli_check
    from agenteval_assert.reporting import TranscriptStatus

    assert set(_cli_check._CODE) == {s.value for s in TranscriptStatus}


def test_first_use_of_lazy_names_from_many_threads_at_once() -> None:
    """Threads that reach a lazy name while another thread is still importing its module wait
    for it (the module's import lock) instead of reading the half-made module."""
    sample = Path(__file__).parent.parent / "samples" / "claude-session" / "agentcmd-2.0.27-edit-heavy.jsonl"
    code = f"""
import threading, agenteval_assert as aa
barrier = threading.Barrier(12)
errors = []
def work(i):
    barrier.wait()
    try:
        if i % 3 == 0:
            t = aa.load({str(sample)!r})
            assert aa.check_tool_not_called(t, "NoSuchTool") is not None
        elif i % 3 == 1:
            assert callable(aa.check_tool_called) and callable(aa.assert_tool_called)
            assert aa.storybook.expect_no_display_review is not None
        else:
            assert aa.Contains("x") is not None and aa.checks.check_budget is not None
    except BaseException as exc:
        errors.append(f"{{type(exc).__name__}}: {{exc}}")
threads = [threading.Thread(target=work, args=(i,)) for i in range(12)]
for th in threads: th.start()
for th in threads: th.join()
print(errors)
"""
    for _ in range(3):
        assert _proc.python(code).stdout.strip() == "[]"
