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
    ("git -C /w rm old.py", [("delete", "/w/old.py")]),
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
    (e,) = [e for e in file_effects(text).effects if e.path.rsplit("/", 1)[-1] == "f"]
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


# -- a command after || ----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "path", "flags"), [
    ("true || rm src/app.ts", "src/app.ts", (False, False)),  # ran only if `true` failed
    ("grep -q X f || echo X >> f", "f", (False, False)),  # the idempotent append
    ("a || b | tee out", "out", (False, False)),  # the whole pipeline is guarded
    ("a || b && rm g", "g", (True, False)),  # ran if (a || b) succeeded: a zero status says it did
    ("a && rm h || true", "h", (False, False)),
    ("cd x || exit 1; rm k", "x/k", (True, False)),
])
def test_a_command_after_or_is_not_known_to_have_run_when_the_line_succeeds(
    text: str, path: str, flags: tuple[bool, bool],
) -> None:
    [e] = [e for e in file_effects(text).effects if e.path == path and e.op != "read"]
    assert (e.ok_means_done, e.failure_means_not_done) == flags


# -- the working folder ----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("cd src && echo x > app.ts", [("write", "src/app.ts")]),
    ("cd /repo/src && sed -i s/a/b/ app.ts", [("edit", "/repo/src/app.ts")]),
    ("cd src && rm -f app.ts", [("delete", "src/app.ts")]),
    ("cd src; cd ../lib && rm x.ts", [("delete", "lib/x.ts")]),
    ("cd src\nrm a\ncd ..\nrm b", [("delete", "src/a"), ("delete", "b")]),
    ("pushd src && rm a && popd && rm b", [("delete", "src/a"), ("delete", "b")]),
    ("(cd src && rm a.ts); rm b.ts", [("delete", "src/a.ts"), ("delete", "b.ts")]),  # a subshell's cd ends at )
    ("bash -c 'cd src && rm a' && rm b", [("delete", "src/a"), ("delete", "b")]),  # so does a new shell's
    ("echo $(cd src && pwd) > where.txt", [("write", "where.txt")]),
    ("cd src | cat; rm a", [("delete", "a")]),  # a cd in a pipeline changes nothing after it
    ("git -C src checkout -- app.ts", [("write", "src/app.ts")]),
    ("cd web && git -C src rm -q old.ts", [("delete", "web/src/old.ts")]),
    ("cd src && cat app.ts", [("read", "src/app.ts")]),
    ("cd src && rm /tmp/x ~/y", [("delete", "/tmp/x"), ("delete", "~/y")]),  # absolute paths stay
    ("cd && rm a", [("delete", "~/a")]),
    ('eval "cd src && rm app.ts"; rm b', [("delete", "src/app.ts"), ("delete", "src/b")]),  # eval: the same shell
    ("sed -i s/a/b/ src/{app,other}.ts", [("edit", "src/app.ts"), ("edit", "src/other.ts")]),
    ("rm -f log{1..3}.txt", [("delete", "log1.txt"), ("delete", "log2.txt"), ("delete", "log3.txt")]),
    ("cp src/app.ts{,.bak}", [("read", "src/app.ts"), ("write", "src/app.ts.bak")]),
    ("rm 'src/{app,other}.ts'", [("delete", "src/{app,other}.ts")]),  # quoted: no expansion
    ("find . -name x -exec rm {} +", []),
])
def test_relative_paths_follow_the_working_folder(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(op, p) for op, p in effects(text) if op != "read" or "read" in {o for o, _ in expected}] == expected
    assert unknown(text) == [] or text.startswith("find")


@pytest.mark.parametrize(("text", "path", "why"), [
    ('cd "$X" && rm app.ts', "$X/app.ts", "after 'cd \"$X\"', a folder only known when it runs"),
    ("cd - && rm app.ts", "$OLDPWD/app.ts", "after 'cd -', a folder the command line does not show"),
    ("if [ -d src ]; then cd src; fi; rm app.ts", "src/app.ts", "after a cd under if, for, while or case"),
    ("test -d src && cd src; rm app.ts", "src/app.ts", "after a cd that may not have run"),
    ("a || cd src && rm app.ts", "src/app.ts", "after a cd that may not have run"),
    ("popd; rm app.ts", "$PWD/app.ts", "after 'popd', a folder the command line does not show"),
    ('git -C "$R" checkout -- app.ts', "$R/app.ts", 'git -C "$R": a folder only known when it runs'),
])
def test_a_path_in_a_folder_the_line_does_not_fix_is_also_an_unknown_write(text: str, path: str, why: str) -> None:
    [e] = [e for e in file_effects(text).effects if e.op != "read"]
    assert e.path == path
    [reason] = unknown(text)
    assert reason.endswith(f"changes app.ts in a folder the command line does not fix ({why})")


@pytest.mark.parametrize(("text", "cwd", "why"), [
    ("ls", "", None),
    ("cd src", "src", None),
    ("cd src && npm test", "src", None),  # a zero exit status: the cd ran
    ("cd src; npm test", "src", None),
    ("cd /repo/src && cd ../lib", "/repo/lib", None),
    ("(cd src && rm a)", "", None),  # a subshell
    ("bash -lc 'cd src'", "", None),  # a shell of its own
    ("cd src &", "", None),  # in the background
    ("x && cd src; rm b", "src", "after a cd that may not have run"),
    ("cd a && (cd b)", "a", None),
    ("a || cd src", "src", "after a cd that may not have run"),
    ('cd "$X"', "$X", "after 'cd \"$X\"', a folder only known when it runs"),
    ("if x; then cd src; fi", "src", "after a cd under if, for, while or case"),
])
def test_the_folder_a_line_leaves_its_shell_in(text: str, cwd: str, why: str | None) -> None:
    fe = file_effects(text)
    assert (fe.cwd, fe.cwd_unknown) == (cwd, why)


def test_a_line_can_start_in_another_folder() -> None:
    fe = file_effects("rm a.ts && cd ../lib && rm b.ts /tmp/c ~/d", cwd="app/src")
    assert [e.path for e in fe.effects] == ["app/src/a.ts", "app/lib/b.ts", "/tmp/c", "~/d"]
    assert fe.cwd == "app/lib"
    assert [e.path for e in file_effects("cat a", cwd="/repo").effects] == ["/repo/a"]
    assert file_effects("cd ..", cwd="src").cwd == ""


def test_a_brace_expansion_that_would_explode_is_left_as_written() -> None:
    word = "x" + "{a,b,c,d}" * 6  # 4**6 words
    assert effects(f"rm {word}") == [("delete", word)]


# -- more writers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("awk -i inplace '{print}' src/app.ts", [("edit", "src/app.ts")]),
    ("gawk -i inplace -v INPLACE_SUFFIX=.bak '{print}' a b", [("edit", "a"), ("edit", "b")]),
    ("awk '{print $1}' a.txt", [("read", "a.txt")]),
    ("gsed -i s/a/b/ src/app.ts", [("edit", "src/app.ts")]),
    ("busybox sed -i s/a/b/ src/app.ts", [("edit", "src/app.ts")]),
    ("perl -i -pe s/a/b/ src/app.ts", [("edit", "src/app.ts")]),
    ("perl -0pi -e s/a/b/ src/app.ts", [("edit", "src/app.ts")]),
    ("perl -0777 -pi -e s/a/b/ src/app.ts", [("edit", "src/app.ts")]),
    ("yq -i '.version = \"2\"' chart.yaml", [("edit", "chart.yaml")]),
    ("yq e -i '.a = 1' a.yaml", [("edit", "a.yaml")]),
    ("yq '.a' a.yaml", [("read", "a.yaml")]),
    ("vim src/app.ts", [("edit", "src/app.ts")]),
    ("vim -R src/app.ts", [("read", "src/app.ts")]),
    ("ex -sc '%s/a/b/|x' src/app.ts", [("edit", "src/app.ts")]),
    ("ed -s src/app.ts <<'EOF'\n,s/a/b/\nw\nEOF", [("edit", "src/app.ts")]),
    ("jq '.a = 1' package.json | sponge package.json", [("write", "package.json")]),
    ("sort -u -o words.txt words.txt", [("read", "words.txt"), ("write", "words.txt")]),
    ("iconv -f latin1 -t utf-8 -o out.txt in.txt", [("read", "in.txt"), ("write", "out.txt")]),
    ("uniq in.txt out.txt", [("read", "in.txt"), ("write", "out.txt")]),
    ("ln -sf ../common/app.ts src/app.ts", [("write", "src/app.ts")]),
    ("rsync -a dist/ public/", [("read", "dist/"), ("write", "public/")]),
    ("rsync -a --remove-source-files a/ host:/b/", [("delete", "a/")]),
    ("rsync -an dist/ public/", []),  # a dry run
    ("install -m 644 -o root build/app src/app.ts", [("read", "build/app"), ("write", "src/app.ts")]),
    ("install -d build/out", []),
    ("dd if=build/disk.img of=disk.img bs=1M", [("read", "build/disk.img"), ("write", "disk.img")]),
    ("truncate -s 0 src/app.ts", [("write", "src/app.ts")]),
    ("touch src/app.ts", [("write", "src/app.ts")]),
    ("shred -u secret.key", [("delete", "secret.key")]),
    ("unlink src/app.ts", [("delete", "src/app.ts")]),
    ("gzip src/app.ts", [("delete", "src/app.ts"), ("write", "src/app.ts.gz")]),
    ("gzip -k notes.txt", [("read", "notes.txt"), ("write", "notes.txt.gz")]),
    ("gunzip data.json.gz", [("delete", "data.json.gz"), ("write", "data.json")]),
    ("gzip -c a.txt > a.txt.gz", [("write", "a.txt.gz"), ("read", "a.txt")]),
    ("zip -m old.zip src/app.ts", [("delete", "src/app.ts"), ("write", "old.zip")]),
    ("git mv src/app.ts src/main.ts", [("delete", "src/app.ts"), ("write", "src/main.ts")]),
    ("prettier --write src/app.ts", [("edit", "src/app.ts")]),
    ("npx prettier@3 --write src/app.ts", [("edit", "src/app.ts")]),
    ("pnpm prettier --write src/app.ts", [("edit", "src/app.ts")]),
    ("eslint --fix src/app.ts", [("edit", "src/app.ts")]),
    ("ruff --fix src/app.py", [("edit", "src/app.py")]),  # ruff before 0.5: no subcommand
    ("ruff check --fix src/app.py", [("edit", "src/app.py")]),
    ("ruff check --fix --diff src/app.py", []),  # shows the fixes, writes nothing
    ("uvx ruff check --fix src/app.py", [("edit", "src/app.py")]),
    ("pipx run black src/app.py", [("edit", "src/app.py")]),
    ("black src/app.py", [("edit", "src/app.py")]),
    ("npm pkg set scripts.test=vitest", [("edit", "package.json")]),
    ("npm pkg get version", []),
    ("npm version patch", [("edit", "package.json"), ("edit", "package-lock.json")]),
    ("npm init -y", [("write", "package.json")]),
    ("npx storybook@latest build -o out", [("write", "out")]),
    ('eval "sed -i s/a/b/ src/app.ts"', [("edit", "src/app.ts")]),
    ("chmod +x src/app.ts && chown me src/app.ts", []),  # modes and owners are not contents
])
def test_more_writers(text: str, expected: list[tuple[str, str]]) -> None:
    assert effects(text) == expected


@pytest.mark.parametrize(("text", "expected", "reason"), [
    ("npx storybook@latest init", [("edit", "package.json"), ("write", ".storybook")],
     "storybook init also writes example stories and installs dependencies"),
    ("pnpm dlx storybook@8.6 upgrade", [("edit", "package.json"), ("edit", ".storybook")],
     "storybook upgrade runs automigrations that may change any file"),
    ("npm create storybook@latest", [("edit", "package.json"), ("write", ".storybook")],
     "storybook init also writes example stories and installs dependencies"),
    ("npm create vite@latest my-app", [], "npm create runs the initializer create-vite"),
    ("split -l 100 big.csv part-", [], "split writes files named after its prefix"),
    ("awk '{print > $1\".txt\"}' data", [("read", "data")], "awk runs a program that writes files or runs commands"),
    ('eval "$CMD"', [], "eval runs a command only known when it runs"),
    ("sh < script.sh", [("read", "script.sh")], "sh runs a script given on its standard input"),
    ("bash < script.sh", [("read", "script.sh")], "bash runs a script given on its standard input"),
    ("git stash pop", [], "git stash rewrites the working tree"),
    ("git stash apply stash@{0}", [], "git stash rewrites the working tree"),
])
def test_more_writers_whose_files_the_line_does_not_name(text: str, expected: list[tuple[str, str]], reason: str) -> None:
    assert effects(text) == expected
    assert unknown(text) == [reason]


def test_command_forms_see_through_wrappers() -> None:
    from agenteval_assert._shell_files import command_forms

    [cmd] = parse_shell("sudo -E timeout 60 npx vitest@2 run").commands
    assert command_forms(cmd.words) == [("sudo", "-E", "timeout", "60", "npx", "vitest@2", "run"),
                                        ("timeout", "60", "npx", "vitest@2", "run"), ("npx", "vitest@2", "run"),
                                        ("vitest", "run")]
    [cmd] = parse_shell("/usr/bin/make -j4").commands
    assert command_forms(cmd.words) == [("make", "-j4")]
