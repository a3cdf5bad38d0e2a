"""What a shell command reads and writes (``agenteval_assert.shell.file_effects``)."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agenteval_assert.shell import file_effects, parse_shell

from .conftest import CORPUS

GOLDEN_RUN = CORPUS / "storybook/lib/agentic-reference/__fixtures__/golden-run"


def effects(text: str) -> list[tuple[str, str]]:
    return [(e.op, e.path) for e in file_effects(text).effects]


def unknown(text: str) -> list[str]:
    return [u.reason for u in file_effects(text).unknown_writes]


@pytest.mark.parametrize(("text", "expected"), [
    # writes
    ("sed -i 's/a/b/' src/x.ts", [("edit", "src/x.ts")]),
    ("sed -i.bak -e s/a/b/ -e s/c/d/ a b", [("edit", "a"), ("edit", "b")]),
    ("sed -i '' 's/a/b/' mac.txt", [("edit", "mac.txt")]),  # BSD: an empty suffix word
    ("sed --in-place=.orig s/a/b/ f", [("edit", "f")]),
    ("perl -pi -e 's/a/b/' x.pl", [("edit", "x.pl")]),
    ("echo hi > out.txt 2>/dev/null", [("write", "out.txt")]),
    ("echo hi >> log.txt 2>&1", [("edit", "log.txt")]),
    ("npm test &> test.log", [("write", "test.log")]),
    ("echo a | tee -a one.txt two.txt", [("edit", "one.txt"), ("edit", "two.txt")]),
    ("cp a.txt b.txt", [("read", "a.txt"), ("write", "b.txt")]),
    ("cp a.txt b.txt dir", [("read", "a.txt"), ("write", "dir/a.txt"), ("read", "b.txt"), ("write", "dir/b.txt")]),
    ("cp -t out/ x.js", [("read", "x.js"), ("write", "out/x.js")]),
    ("mv old.ts new.ts", [("delete", "old.ts"), ("write", "new.ts")]),
    ("rm -f a.txt b.txt", [("delete", "a.txt"), ("delete", "b.txt")]),
    ("touch new.md", [("write", "new.md")]),
    ("git checkout -- src/a.ts src/b.ts", [("write", "src/a.ts"), ("write", "src/b.ts")]),
    ("git checkout HEAD~1 -- README.md", [("write", "README.md")]),
    ("git checkout .", [("write", ".")]),
    ("git restore src/a.ts", [("write", "src/a.ts")]),
    ("git restore --source HEAD --worktree --staged a.ts", [("write", "a.ts")]),
    ("git -C /w rm old.py", [("delete", "old.py")]),
    ("git mv a.py b.py", [("delete", "a.py"), ("write", "b.py")]),
    (("patch -p1 <<'EOF'\n--- a/x.py\n+++ b/x.py\n@@\n-a\n+b\n--- /dev/null\n+++ b/new.py\n@@\n+n\n"
      "--- a/gone.py\n+++ /dev/null\n@@\n-g\nEOF"), [("edit", "x.py"), ("write", "new.py"), ("delete", "gone.py")]),
    ("git apply <<'EOF'\n--- a/src/m.ts\t2024-01-01\n+++ b/src/m.ts\n@@\n-a\n+b\nEOF", [("edit", "src/m.ts")]),
    ("patch src/x.c < fix.diff", [("read", "fix.diff"), ("edit", "src/x.c")]),
    ("npx prettier --write src/a.ts", [("edit", "src/a.ts")]),
    ("curl -sSo data.json https://example.com/x", [("write", "data.json")]),
    ("cat > f.txt <<'EOF'\nhello > not-a-file\nEOF", [("write", "f.txt")]),
    ("{ echo a; echo b; } > group.txt", [("write", "group.txt")]),
    ("sudo sed -i s/a/b/ /etc/hosts", [("edit", "/etc/hosts")]),
    ("npm install --save-dev vitest", [("edit", "package.json")]),
    # reads
    ("cat a.ts b.ts", [("read", "a.ts"), ("read", "b.ts")]),
    ("sed -n '1,40p' src/App.tsx", [("read", "src/App.tsx")]),
    ("head -n 20 a.py && tail -5 b.py", [("read", "a.py"), ("read", "b.py")]),
    ("tail -n +5 -f log.txt", [("read", "log.txt")]),
    ("less +G x.log; more y.log", [("read", "x.log"), ("read", "y.log")]),
    ("nl -ba x.py", [("read", "x.py")]),
    ("grep -n 'TODO' src/a.ts src/b.ts", [("read", "src/a.ts"), ("read", "src/b.ts")]),
    ("grep -e foo -e bar notes.md", [("read", "notes.md")]),
    ("rg -n --glob '*.ts' useState src/App.tsx", [("read", "src/App.tsx")]),
    ("wc -l < input.txt", [("read", "input.txt")]),
    # neither
    ("ls -la && git status && npx tsc --noEmit", []),
    ("grep -rn foo", []),
    ("cat <<EOF | python3 -c 'print(1)'\nx\nEOF", []),
    ("echo 'sed -i s/a/b/ quoted.txt'", []),
    ("git checkout -b feature", []),
    ("git restore --staged a.ts", []),
    ("git apply --check fix.patch", []),
])
def test_file_effects(text: str, expected: list[tuple[str, str]]) -> None:
    assert effects(text) == expected


@pytest.mark.parametrize(("text", "reason"), [
    ("make build", "make runs build rules that may write any file"),
    ("./scripts/codegen.sh --all", "runs the script ./scripts/codegen.sh"),
    ("bash scripts/setup.sh", "bash runs the script scripts/setup.sh"),
    ("python3 tools/gen.py", "python3 runs the script tools/gen.py"),
    ("python -c 'open(\"x\", \"w\").write(\"y\")'", "python -c runs inline code"),
    ("node -e 'require(\"fs\").writeFileSync(\"x\", \"\")'", "node runs inline code"),
    ("python3 - <<'EOF'\nopen('x', 'w')\nEOF", "python3 runs a script given on its standard input"),
    ("npm run build", "npm runs the package script 'build'"),
    ("npm run -s typecheck", "npm runs the package script 'typecheck'"),
    ("yarn codegen", "yarn runs the package script 'codegen'"),
    ("git reset --hard HEAD", "git reset may rewrite tracked files"),
    ("git checkout main", "git checkout without -- may switch branches: which files change is unknown"),
    ("git apply fix.patch", "git apply takes the files to change from the patch fix.patch"),
    ("cat fix.patch | patch -p1", "patch reads the patch from its standard input"),
    ("for f in src/*.ts; do sed -i s/a/b/ \"$f\"; done", "sed changes \"$f\", a name only known when it runs"),
    ("echo x > \"$OUT\"", "writes to \"$OUT\", a name only known when it runs"),
    ("git ls-files | xargs sed -i s/a/b/", "xargs runs sed on file names read from its input"),
    ("find . -name '*.orig' -delete", "find -delete deletes the files it finds"),
    ("find src -name '*.ts' -exec rm {} +", "find -exec runs rm on the files it finds"),
    ("npx eslint --fix", "eslint rewrites the files its configuration names"),
    ("tar xzf deps.tgz", "tar extracts files whose names are in the archive"),
    ("$EDITOR notes.md", "runs $EDITOR, a command only known when it runs"),
])
def test_commands_that_may_write_files_they_do_not_name(text: str, reason: str) -> None:
    assert unknown(text) == [reason]


@pytest.mark.parametrize("text", [
    "python -m pytest -q", "pytest tests/", "npx vitest run", "cargo test", "go test ./...", "ls | xargs grep x",
    "npx storybook tools test run --json 2>&1 | tail -40", "npm install", "pip install -e .",
])
def test_programs_taken_to_write_nothing(text: str) -> None:
    fe = file_effects(text)
    assert [e for e in fe.effects if e.op != "read"] == [] and fe.unknown_writes == ()


def test_globs_and_directories_are_marked() -> None:
    (glob,) = file_effects("sed -i s/a/b/ src/*.ts").effects
    (quoted,) = file_effects("sed -i s/a/b/ 'src/*.ts'").effects
    assert (glob.pattern, quoted.pattern) == (True, False)
    assert [e.recursive for e in file_effects("rm -rf build; rm a.txt").effects] == [True, False]


@pytest.mark.parametrize(("text", "flags"), [
    ("sed -i s/a/b/ f", (True, True)),
    ("cd app && sed -i s/a/b/ f", (True, True)),
    ("sed -i s/a/b/ f && npm test", (True, False)),  # a zero status says sed ran; a failure may be npm's
    ("sed -i s/a/b/ f; echo done", (False, False)),  # echo's status is the line's
    ("sed -i s/a/b/ f || true", (False, False)),
    ("sed -i s/a/b/ f | cat", (False, False)),
    ("if true; then sed -i s/a/b/ f; fi", (False, False)),  # control flow: not attributed
    ("(cd x && sed -i s/a/b/ f)", (False, False)),
    ("/bin/bash -lc 'cd /w && sed -i s/a/b/ f'", (True, True)),
    ("echo $(sed -i s/a/b/ f)", (False, False)),  # inside a substitution
])
def test_how_the_exit_status_speaks_for_a_command(text: str, flags: tuple[bool, bool]) -> None:
    (e,) = [e for e in file_effects(text).effects if e.path == "f"]
    assert (e.ok_means_done, e.failure_means_not_done) == flags


def test_the_golden_run_commands() -> None:
    """A real Claude Code run (Storybook agentic-reference golden run): its recorded shell commands."""
    doc = json.loads((GOLDEN_RUN / "transcript.json").read_text(encoding="utf-8"))
    commands = [c["command"] for c in doc["summary"]["shellCommands"]]
    writes: list[tuple[str, str]] = []
    reads: set[str] = set()
    for text in commands:
        fe = file_effects(text)
        writes += [(e.op, e.path) for e in fe.effects if e.op != "read"]
        reads |= {e.path for e in fe.effects if e.op == "read"}
        assert fe.unknown_writes == (), text
    assert writes == [
        ("write", "/tmp/footer.render.test.tsx"),
        ("write", "/workspace/src/components/Footer/__tmp_footer.test.tsx"),
        ("edit", "src/components/Footer/__tmp_footer.test.tsx"),
        ("delete", "/workspace/src/components/Footer/__tmp_footer.test.tsx"),
        ("write", "/workspace/src/components/Footer/__tmp_footer.test.ts"),
        ("delete", "/workspace/src/components/Footer/__tmp_footer.test.ts"),
    ]
    assert {"src/components/Footer/Footer.stories.tsx", "/workspace/src/components/Button/index.tsx",
            "/workspace/vitest.config.app.ts", "/tmp/footer.render.test.tsx"} <= reads


_CHARS = st.sampled_from([*"ab $'\"\\`()<>|&;#\n{}=-EOF\t*", "sed -i ", "rm -r ", " > ", "git checkout -- ", "cp ",
                          "make", "./x", "<<EOF\n"])


@given(st.lists(_CHARS, max_size=40).map("".join))
def test_never_raises(text: str) -> None:
    fe = file_effects(text)
    for e in fe.effects:
        assert e.op in ("read", "write", "edit", "delete") and isinstance(e.path, str)


def test_linear_time() -> None:
    unit = "cd app && sed -i 's/a/b/' src/x.ts && cat <<'EOF' > out.txt\nbody\nEOF\nrm -rf build | tee log; "
    small, large = unit * 100, unit * 800

    def cost(text: str) -> float:
        script = parse_shell(text)
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            file_effects(script)
            best = min(best, time.perf_counter() - t0)
        return best

    ratio = cost(large) / cost(small)
    assert ratio < 8 * 3, f"8x the input took {ratio:.1f}x the time"
