"""agenteval_assert.shell: the shell model, its parser, and shell_commands(transcript)."""

from __future__ import annotations

import json
import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert import _shell_parse
from agenteval_assert.shell import (
    Expansion,
    ShellRun,
    nested_script_index,
    parse_shell,
    shell_commands,
)

from ._opcount import call_count, growth
from .conftest import CORPUS

FIXTURE = CORPUS / "storybook" / "lib" / "__fixtures__" / "claude-plugin-801-heredoc-commands.json"


def argvs(text: str) -> list[tuple[str, ...]]:
    return [c.argv for c in parse_shell(text).commands]


# -- words, quoting, escapes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "argv"),
    [
        ("echo a b", ("echo", "a", "b")),
        ("echo 'a b'", ("echo", "a b")),
        ('echo "a b"', ("echo", "a b")),
        ("echo a'b c'd", ("echo", "ab cd")),
        (r"echo a\ b", ("echo", "a b")),
        (r'echo "x\"y" "a\b"', ("echo", 'x"y', r"a\b")),
        (r"echo 'back\slash'", ("echo", r"back\slash")),
        (r"echo $'tab\there\n' $'\x41\u00e9'", ("echo", "tab\there\n", "Aé")),
        ("echo '' x", ("echo", "", "x")),
        ('echo ""', ("echo", "")),
        ("echo \\\n  continued", ("echo", "continued")),
        ('echo "multi\nline"', ("echo", "multi\nline")),
        ("echo $HOME ${USER:-x} $1 $@", ("echo", "$HOME", "${USER:-x}", "$1", "$@")),
        ("echo $", ("echo", "$")),
        ("echo a#b #comment", ("echo", "a#b")),
        (r"echo \<Callout\>", ("echo", "<Callout>")),
        ("echo {a,b} ~/x *.ts", ("echo", "{a,b}", "~/x", "*.ts")),
    ],
)
def test_word_values(text: str, argv: tuple[str, ...]) -> None:
    assert argvs(text) == [argv]


def test_quoting_flags() -> None:
    (cmd,) = parse_shell("x '--q' \\-e a\"b\" $V \"$(date)\" '$lit'").commands
    flags = [(w.value, w.quoted, w.quoted_start, w.expands) for w in cmd.words]
    assert flags == [
        ("x", False, False, False),
        ("--q", True, True, False),
        ("-e", True, True, False),
        ("ab", True, False, False),
        ("$V", False, False, True),
        ("$(date)", True, True, True),
        ("$lit", True, True, False),
    ]


# -- separators, pipelines, assignments, redirections --------------------------------------


def test_separators_and_pipelines() -> None:
    script = parse_shell("a 1 && b | c; d || e & f\ng |& h")
    assert [c.argv[0] for c in script.commands] == ["a", "b", "c", "d", "e", "f", "g", "h"]
    assert [c.separator for c in script.commands] == ["&&", "|", ";", "||", "&", "\n", "|&", None]
    assert [[c.argv[0] for c in p] for p in script.pipelines] == [
        ["a"], ["b", "c"], ["d"], ["e"], ["f"], ["g", "h"]
    ]  # fmt: skip


def test_operators_inside_words_are_not_separators() -> None:
    assert argvs("echo 'a && b' \"c | d\" e\\;f") == [("echo", "a && b", "c | d", "e;f")]


def test_leading_assignments() -> None:
    (cmd,) = parse_shell("STORYBOOK_FEATURE_AI_CLI=1 A='x y' B+=z npx storybook").commands
    assert cmd.env == {"STORYBOOK_FEATURE_AI_CLI": "1", "A": "x y", "B": "z"}
    assert [a.append for a in cmd.assignments] == [False, False, True]
    assert cmd.argv == ("npx", "storybook")
    # After the command name, NAME=value is an ordinary argument.
    (cmd,) = parse_shell("env X=1 cmd").commands
    assert cmd.argv == ("env", "X=1", "cmd") and cmd.env == {}


@pytest.mark.parametrize(
    ("text", "redirects"),
    [
        ("cmd 2>&1", [("2", ">&", "1")]),
        ("cmd >out.txt 2> err.log", [(None, ">", "out.txt"), ("2", ">", "err.log")]),
        ("cmd < in >> log", [(None, "<", "in"), (None, ">>", "log")]),
        ("cmd &> all", [("&", "&>", "all")]),
        ("cmd &>> all", [("&", "&>>", "all")]),
        ('cmd 2>"/tmp/err log" >\'/tmp/out.md\'', [("2", ">", "/tmp/err log"), (None, ">", "/tmp/out.md")]),
        ("cmd {fd}>x", [("{fd}", ">", "x")]),
        ("cmd <<< 'here string'", [(None, "<<<", "here string")]),
        ("cmd >| f 3<&0 1>&-", [(None, ">|", "f"), ("3", "<&", "0"), ("1", ">&", "-")]),
    ],
)
def test_redirections(text: str, redirects: list[tuple[str | None, str, str]]) -> None:
    (cmd,) = parse_shell(text).commands
    assert cmd.argv == ("cmd",)
    assert [(r.fd, r.op, r.target.value if r.target else None) for r in cmd.redirects] == redirects


def test_redirection_binds_to_its_command_not_the_list() -> None:
    a, b = parse_shell("a && b > out").commands
    assert a.redirects == () and [r.writes_file for r in b.redirects] == ["out"]


def test_quoted_angle_bracket_is_a_word() -> None:
    (cmd,) = parse_shell("x --title '> quote' --a11y false").commands
    assert cmd.argv == ("x", "--title", "> quote", "--a11y", "false") and cmd.redirects == ()


# -- substitutions ---------------------------------------------------------------------------


def test_command_substitution_is_parsed() -> None:
    script = parse_shell('echo "$(cat /tmp/x | head -1)" `date +%s` $((1 + (2))) <(ls)')
    (cmd,) = script.top_level
    kinds = [e.kind for w in cmd.words for e in w.expansions]
    assert kinds == ["command", "backtick", "arithmetic", "process"]
    inner = [c.argv for c in script.walk()]
    assert inner == [("cat", "/tmp/x"), ("head", "-1"), ("date", "+%s"), ("ls",), cmd.argv]
    assert cmd.argv[1] == "$(cat /tmp/x | head -1)"


def test_nested_substitutions_and_parens_in_quotes() -> None:
    script = parse_shell("""echo "$(echo "$(echo ')')")" done""")
    assert script.complete
    assert [c.argv for c in script.walk()][-1] == ("echo", """$(echo "$(echo ')')")""", "done")


def test_word_resolve() -> None:
    script = parse_shell(
        "cat > /tmp/p.json <<'EOF'\n{\"a\": 1}\nEOF\n"
        'x --f "$(cat /tmp/p.json)" --g "$(< /tmp/p.json)" --h "$(cat <<EOF\ninline\nEOF\n)" '
        "--v $V --u $(curl x)"
    )
    files = script.files_written()
    assert files == {"/tmp/p.json": '{"a": 1}\n'}
    cmd = script.commands[-1]
    words = cmd.words
    assert words[2].resolve({}, files) == '{"a": 1}'  # trailing newline removed, as $( ) does
    assert words[4].resolve({}, files) == '{"a": 1}'
    assert words[6].resolve() == "inline"
    assert words[8].resolve({"V": "1"}) == "1" and words[8].resolve() is None
    assert words[10].resolve({}, files) is None


# -- heredocs --------------------------------------------------------------------------------


def test_heredoc_body_is_data() -> None:
    text = "cat > f.md <<'EOF'\nit's $(rm -rf /) `x` \"quoted\nEOF\nnpx storybook tools test run 2>&1 | tail -5"
    script = parse_shell(text)
    assert script.complete
    assert [c.argv for c in script.walk()] == [
        ("cat",),
        ("npx", "storybook", "tools", "test", "run"),
        ("tail", "-5"),
    ]
    (doc,) = script.commands[0].heredocs
    assert (doc.tag, doc.quoted, doc.complete) == ("EOF", True, True)
    assert doc.body == "it's $(rm -rf /) `x` \"quoted\n"


def test_heredoc_variants() -> None:
    text = 'cat <<-END | grep x; cat <<"Q" >o\n\tone\n\tEND\n$y\nQ\nafter'
    script = parse_shell(text)
    a, b, c, d = script.commands
    assert a.heredocs[0].body == "one\n" and a.heredocs[0].strip_tabs
    assert d.argv == ("after",)
    assert b.argv == ("grep", "x")
    assert c.heredocs[0].body == "$y\n" and c.heredocs[0].quoted
    assert [r.writes_file for r in c.redirects] == [None, "o"]
    unquoted = parse_shell("cat <<EOF\n$HOME\nEOF").commands[0].heredocs[0]
    assert not unquoted.quoted and unquoted.body == "$HOME\n"


def test_two_heredocs_on_one_line() -> None:
    script = parse_shell("paste <<A <<B\n1\nA\n2\nB\necho end")
    first = script.commands[0]
    assert [h.body for h in first.heredocs] == ["1\n", "2\n"]
    assert script.commands[1].argv == ("echo", "end")


def test_inline_heredoc_in_substitution() -> None:
    text = FIXTURE.read_text()
    fixture = json.loads(text)
    script = parse_shell(fixture["reviewCreateWithHeredocInput"])
    assert script.complete
    review = next(c for c in script.commands if c.argv[-3:-1] == ("create", "--input") or "create" in c.argv)
    payload = review.words[review.argv.index("--input") + 1].resolve()
    assert payload is not None
    assert json.loads(payload)["title"] == "New accessible ToggleSwitch component"


def test_the_apostrophe_fixture() -> None:
    fixture = json.loads(FIXTURE.read_text())
    script = parse_shell(fixture["writeFilesThenTestRun"])
    assert script.complete
    assert [c.argv[:3] for c in script.commands] == [
        ("mkdir", "-p", "/workspace/src/components"),
        ("cat",),
        ("cat",),
        ("cd", "/workspace"),
        ("npm", "run", "-s"),
        ("npx", "eslint", "src/components"),
        ("npx", "storybook", "tools"),
        ("tail", "-40"),
    ]
    written = script.files_written()
    assert sorted(written) == [
        "/workspace/src/components/ToggleSwitch.stories.tsx",
        "/workspace/src/components/ToggleSwitch.tsx",
    ]
    assert "switch's accessible name" in written["/workspace/src/components/ToggleSwitch.tsx"]


def test_files_written_forms() -> None:
    script = parse_shell(
        "cat <<EOF > a\n1\nEOF\ncat >> a <<EOF\n2\nEOF\ntee -a b c <<EOF\n3\nEOF\ncat x <<EOF > d\n4\nEOF"
    )
    assert script.files_written() == {"a": "1\n2\n", "b": "3\n", "c": "3\n"}


# -- nested shells ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "bash -c 'npx storybook ai stories-changed'",
        "/bin/sh -lc 'npx storybook ai stories-changed'",
        "/bin/zsh -lc 'npx storybook ai stories-changed'",
        "env bash -x -c 'npx storybook ai stories-changed'",
        "bash -O extglob -c 'npx storybook ai stories-changed'",
        "sudo -u me bash -e -c \"npx storybook ai stories-changed\"",
        "bash -lc \"bash -c 'npx storybook ai stories-changed'\"",
    ],
)
def test_nested_shells_are_unwrapped(text: str) -> None:
    script = parse_shell(text)
    assert [c.argv for c in script.commands] == [("npx", "storybook", "ai", "stories-changed")]
    assert script.commands[0].wrapper is not None


@pytest.mark.parametrize(
    "text", ["head -c 800 f", "curl -c jar http://x", "grep -c foo bar.txt", "bash script.sh -c x"]
)
def test_not_shell_wrappers(text: str) -> None:
    (cmd,) = parse_shell(text).commands
    assert cmd.nested is None and cmd.argv == tuple(shlex.split(text))


def test_codex_wrapper_with_quote_escapes() -> None:
    # Codex wraps every command: /bin/bash -lc '…' with ' written as '"'"' or '\''.
    inner = "cd app && sed -n '1,20p' src/x.ts | rg \"it's\""
    text = "/bin/bash -lc " + shlex.quote(inner)
    assert [c.argv for c in parse_shell(text).commands] == [
        ("cd", "app"),
        ("sed", "-n", "1,20p", "src/x.ts"),
        ("rg", "it's"),
    ]


def test_nested_script_index() -> None:
    assert nested_script_index(("bash", "-lc", "x")) == 2
    assert nested_script_index(("env", "bash", "-x", "-c", "x")) == 4
    assert nested_script_index(("head", "-c", "800")) is None


# -- keywords, groups, comments --------------------------------------------------------------


def test_compound_commands() -> None:
    assert argvs("if test -f x; then echo yes; else echo no; fi") == [
        ("test", "-f", "x"), ("echo", "yes"), ("echo", "no")
    ]  # fmt: skip
    assert argvs("for f in *.ts; do echo $f; done") == [("echo", "$f")]
    assert argvs("while read l; do echo $l; done < f") == [("read", "l"), ("echo", "$l")]
    assert argvs("case $x in a) echo A;; *) echo B;; esac") == [("echo", "A"), ("echo", "B")]
    assert argvs("case $x in\n a|b) echo AB;;\n (c) echo C;;\nesac; echo z") == [("echo", "AB"), ("echo", "C"), ("echo", "z")]
    assert argvs("(cd a && ls) | wc -l") == [("cd", "a"), ("ls",), ("wc", "-l")]
    assert argvs("{ echo a; echo b; } > f") == [("echo", "a"), ("echo", "b")]
    assert argvs("f() { echo hi; }; f") == [("echo", "hi"), ("f",)]
    assert argvs("# only a comment\necho x # trailing") == [("echo", "x")]
    assert argvs("! grep -q x f") == [("grep", "-q", "x", "f")]
    assert argvs("sed -n '1p' src/app/(protected)/page.tsx") == [
        ("sed", "-n", "1p", "src/app/(protected)/page.tsx")
    ]


def test_command_text_and_offsets() -> None:
    src = "a 1 && b 2 | c"
    script = parse_shell(src)
    for c in script.commands:
        assert src[c.start : c.end].rstrip() == c.text
    assert [c.text for c in script.commands] == ["a 1", "b 2", "c"]


# -- malformed input: never raises, says it is incomplete -------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("echo 'unterminated", "unterminated single quote"),
        ('echo "unterminated', "unterminated double quote"),
        ("echo $(date", "unterminated command substitution"),
        ("echo `date", "unterminated backtick"),
        ("cat <<EOF\nbody", "unterminated heredoc"),
        ("echo $'x", "unterminated $'"),
        ("echo )", "unmatched ')'"),
        ("(echo a", "unterminated '('"),
        ("cat >", "without a target"),
        ("a\x00b", "NUL"),
    ],
)
def test_malformed_input_is_best_effort(text: str, problem: str) -> None:
    script = parse_shell(text)
    assert not script.complete
    assert any(problem in p for p in script.problems), script.problems


def test_unterminated_quote_keeps_the_words_before() -> None:
    script = parse_shell("npx storybook tools test run --title 'oops")
    assert script.commands[0].argv == ("npx", "storybook", "tools", "test", "run", "--title", "oops")


def test_hostile_nesting_and_size(monkeypatch: pytest.MonkeyPatch) -> None:
    deep = "echo " + "$(" * 5000 + ")" * 5000
    script = parse_shell(deep)
    assert not script.complete and any("deeper" in p for p in script.problems)
    wrappers = "x"
    for _ in range(6):  # quoting grows 5x per level: keep the text small, lower the limit
        wrappers = "bash -c " + shlex.quote(wrappers)
    assert parse_shell(wrappers).complete
    monkeypatch.setattr(_shell_parse, "MAX_DEPTH", 4)
    assert not parse_shell(wrappers).complete
    big = "echo " + "a" * 1_000_000 + " 'b"
    script = parse_shell(big)
    assert not script.complete and len(script.commands[0].argv[1]) == 1_000_000
    # a megabyte word costs what a kilobyte one does: runs are read by one regex match, never
    # a Python step per character (counted, not timed: see tests/_opcount.py)
    assert call_count(lambda: parse_shell(big)) == call_count(lambda: parse_shell("echo " + "a" * 1000 + " 'b"))


def test_bytes_and_binary() -> None:
    assert parse_shell(b"echo \xff\xfe ok").commands[0].argv == ("echo", "\ufffd\ufffd", "ok")
    script = parse_shell(bytes(range(256)).decode("latin-1"))
    assert not script.complete


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab $'\"\\`()<>|&;#\n{}=-EOF\t")), max_size=80))
def test_never_raises(text: str) -> None:
    script = parse_shell(text)
    assert isinstance(script.complete, bool)
    for c in script.walk():
        assert isinstance(c.argv, tuple)


_WORDS = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\x00\r"), min_size=0, max_size=12
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_WORDS, min_size=1, max_size=5), min_size=1, max_size=4),
       st.sampled_from([" && ", " || ", "; ", " | ", "\n"]))  # fmt: skip
def test_quoted_argv_round_trips(commands: list[list[str]], sep: str) -> None:
    """shlex.quote-d words, joined by an operator, parse back to the same argv lists."""
    commands = [["cmd", *c] for c in commands]
    text = sep.join(" ".join(shlex.quote(w) for w in c) for c in commands)
    script = parse_shell(text)
    assert script.complete
    assert [list(c.argv) for c in script.commands] == commands


@settings(max_examples=100, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=5))
def test_nested_quoting_round_trips(words: list[str]) -> None:
    inner = " ".join(shlex.quote(w) for w in ["cmd", *words])
    text = "/bin/bash -lc " + shlex.quote(inner)
    assert [list(c.argv) for c in parse_shell(text).commands] == [["cmd", *words]]


def test_linear_work() -> None:
    """8x the input, 8x the work (counted calls, not time: quadratic work would be 64x)."""
    unit = "npx storybook tools test run --input \"$(cat <<'EOF'\n{\"a\": \"it's\"}\nEOF\n)\" 2>&1 | tail -5; "
    ratio = growth(lambda: parse_shell(unit * 200), lambda: parse_shell(unit * 1600))
    assert ratio <= 8 * 1.05, f"8x the input made {ratio:.2f}x the calls"


# -- shell_commands(transcript) ----------------------------------------------------------------


def test_shell_commands_claude() -> None:
    lines = [
        {"type": "assistant", "message": {"content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "npm test && echo ok"}}]}},
        {"type": "user", "message": {"content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "Exit code 1\nfail", "is_error": True}]}},
        {"type": "assistant", "message": {"content": [
            {"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "/x"}}]}},
    ]  # fmt: skip
    t = aa.parse("\n".join(json.dumps(x) for x in lines))
    runs = shell_commands(t)
    assert len(runs) == 1
    (run,) = runs
    assert isinstance(run, ShellRun)
    assert run.text == "npm test && echo ok" and run.is_error
    assert [c.argv for c in run.commands] == [("npm", "test"), ("echo", "ok")]
    assert run.location.line == 1


def test_shell_commands_codex_exit_codes() -> None:
    def item(i: int, cmd: str, code: int) -> str:
        return json.dumps({"type": "item.completed", "item": {
            "id": f"item_{i}", "type": "command_execution", "command": cmd,
            "aggregated_output": "out", "exit_code": code, "status": "completed"}})  # fmt: skip

    text = "\n".join(
        [
            json.dumps({"type": "thread.started", "thread_id": "t"}),
            item(1, "/bin/bash -lc 'ls -la'", 0),
            item(2, "/bin/bash -lc 'npm test'", 2),
        ]
    )
    runs = shell_commands(aa.parse(text))
    assert [(r.commands[0].argv, r.exit_code, r.is_error) for r in runs] == [
        (("ls", "-la"), 0, False),
        (("npm", "test"), 2, True),
    ]


def test_shell_commands_on_the_corpus(corpus: object) -> None:
    paths = sorted(p for d in ("claude-session-log", "claude-stream-json", "codex-exec-json", "codex-rollout")
                   for p in (CORPUS / d).iterdir())  # fmt: skip
    total = 0
    for path in paths:
        for run in shell_commands(aa.load(path)):
            total += 1
            assert run.script.complete, (path.name, run.text, run.script.problems)
            assert run.commands, (path.name, run.text)
    assert total >= 90


def test_expansion_repr_fields() -> None:
    (cmd,) = parse_shell("echo ${NAME} $OTHER").commands
    assert [(e.kind, e.name) for e in cmd.words[1].expansions + cmd.words[2].expansions] == [
        ("parameter", "NAME"),
        ("parameter", "OTHER"),
    ]
    assert isinstance(cmd.words[1].expansions[0], Expansion)


def test_relative_paths_find_files_written_elsewhere() -> None:
    files = {"/workspace/tmp/p.json": "{}\n", "/a/x.json": "1", "/b/x.json": "2"}
    (cmd,) = parse_shell('x "$(cat tmp/p.json)" "$(cat ./tmp/p.json)" "$(cat x.json)" "$(cat /tmp/p.json)"').commands
    assert [w.resolve({}, files) for w in cmd.words[1:]] == ["{}", "{}", None, None]
