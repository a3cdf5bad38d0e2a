"""The README's commands and examples run as written."""

from __future__ import annotations

import itertools
import os
import re
import shlex
import sys

import pytest

from . import _proc
from .conftest import ROOT

README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, flags=re.DOTALL)


def _sh_commands() -> list[str]:
    return [line for lang, body in BLOCKS if lang == "sh" for line in body.strip().splitlines()]


def test_readme_opens_with_install_and_run_then_install_and_test() -> None:
    first, second = _sh_commands()[:2]
    assert first.startswith("pip install -e . && python -m agenteval_assert check samples/")
    assert second == "pip install -e '.[dev]' && pytest"


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    second = _sh_commands()[1]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert second in ci


def test_readme_docs_command_installs_what_ci_builds_the_site_with() -> None:
    (docs,) = [c for c in _sh_commands() if "mkdocs" in c]
    assert docs == "pip install -e '.[docs]' && mkdocs serve"
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^pip install -e '\.\[docs\]' && .*mkdocs build --strict", ci, re.MULTILINE)


@pytest.mark.parametrize("command", [c.split(" && ", 1)[1] if " && " in c else c for c in _sh_commands()
                                     if "pytest" not in c and "mkdocs" not in c])
def test_readme_shell_commands_run(command: str) -> None:
    argv = shlex.split(command)
    assert argv[0] == "python"
    proc = _proc.run([sys.executable, *argv[1:]], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in proc.stderr, proc.stderr
    # check exits 1 when a check fails (the unanswered-call example is there to show one)
    expected = 1 if "unanswered" in command else 0
    assert proc.returncode == expected, proc.stdout + proc.stderr


def _shown_outputs() -> list[tuple[str, str]]:
    """``(command, shown)``: each ``text`` block that follows a ``sh`` block shows the last line
    that the sh block's last command prints."""
    pairs = []
    for (lang, body), (next_lang, shown) in itertools.pairwise(BLOCKS):
        if lang == "sh" and next_lang == "text":
            pairs.append((body.strip().splitlines()[-1], shown.strip()))
    return pairs


@pytest.mark.parametrize(("command", "shown"), _shown_outputs())
def test_readme_shown_output_is_what_the_command_prints(command: str, shown: str) -> None:
    argv = shlex.split(command)
    proc = _proc.run([sys.executable, *argv[1:]], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout.strip().splitlines()[-1] == shown.splitlines()[-1]


@pytest.mark.parametrize("code", [body for lang, body in BLOCKS if lang == "python"])
def test_readme_python_examples_run(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})  # noqa: S102 - running the README is the point
