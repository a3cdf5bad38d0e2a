"""Golden tests: the exact rendered text of results (summary, evidence, nearest miss, elision)."""

from __future__ import annotations

import json

import pytest

from agenteval_assert import checks as c
from agenteval_assert.model import Location, Transcript
from agenteval_assert.results import (
    CheckResult,
    Difference,
    Evidence,
    NearestMiss,
    Status,
    cut_middle,
    short_repr,
)

from ._build import T


def shop() -> Transcript:
    return (
        T(path="runs/shop.jsonl")
        .user("find red running shoes in size 42")
        .call("mcp__shop__search_products", q="running shoes", color="blue", size=42)
        .call("mcp__shop__search_products", q="red shoes", size="42")
        .say("Here are 3 red running shoes in size 42.")
        .done()
    )


def many_bash(n: int) -> Transcript:
    t = T(path="r.jsonl").user("go")
    for i in range(n):
        t.call("Bash", command=f"echo {i}")
    return t.say("x").done()


GOLDEN = [
    pytest.param(
        lambda: c.check_tool_called(
            shop(), "mcp__shop__search_products", q="running shoes", color="red", size=42
        ),
        """\
expected a mcp__shop__search_products call with q='running shoes', color='red', size=42, found none among 2 mcp__shop__search_products calls (2 tool calls in total)
  evidence:
    runs/shop.jsonl:2  #0 mcp__shop__search_products(q='running shoes', color='blue', size=42)
    runs/shop.jsonl:4  #1 mcp__shop__search_products(q='red shoes', size='42')
  nearest miss: runs/shop.jsonl:2  #0 mcp__shop__search_products(q='running shoes', color='blue', size=42)
    args.color: expected 'red', found 'blue'
  check: tool_called('mcp__shop__search_products', q='running shoes', color='red', size=42)""",
        id="tool called: nearest miss has one differing argument",
    ),
    pytest.param(
        lambda: c.check_tool_not_called(
            T(path="runs/x.jsonl").user("go").call("Read", file_path="a.py")
            .call("Bash", command="ls", answered=False).done(),
            "Write",
        ),
        """\
inconclusive: expected no Write call, found none, but the transcript has 1 call(s) with no result
  evidence:
    runs/x.jsonl:4  #1 Bash(command='ls')  [no result]
  note: absence cannot be shown on an incomplete transcript; pass assume_complete=True to accept it as it is
  check: tool_not_called('Write')""",
        id="negative check on a transcript with an unanswered call",
    ),
    pytest.param(
        lambda: c.check_never_after(shop(), "Write", "Read"),
        """\
expected no Read after Write, found no Write call
  (vacuous: there was nothing to check)
  check: never_after('Write', 'Read')""",
        id="vacuous pass",
    ),
    pytest.param(
        lambda: c.check_tool_not_called(many_bash(13), "Bash"),
        """\
expected no Bash call, found 13
  evidence:
    r.jsonl:2  #0 Bash(command='echo 0')
    r.jsonl:4  #1 Bash(command='echo 1')
    r.jsonl:6  #2 Bash(command='echo 2')
    r.jsonl:8  #3 Bash(command='echo 3')
    r.jsonl:10  #4 Bash(command='echo 4')
    r.jsonl:12  #5 Bash(command='echo 5')
    r.jsonl:14  #6 Bash(command='echo 6')
    r.jsonl:16  #7 Bash(command='echo 7')
    r.jsonl:18  #8 Bash(command='echo 8')
    r.jsonl:20  #9 Bash(command='echo 9')
    ... and 3 more (set AGENTEVAL_VERBOSE=1 or pass verbose=True to see all)
  check: tool_not_called('Bash')""",
        id="at most ten evidence items",
    ),
    pytest.param(
        lambda: c.check_tool_called(
            T(path="r.jsonl").user("go").call("Write", file_path="a.txt", content="x" * 500).say("ok").done(),
            "Write",
            content="y",
        ),
        """\
expected a Write call with content='y', found none among 1 Write call (1 tool call in total)
  evidence:
    r.jsonl:2  #0 Write(file_path='a.txt', content='xxxxxxxxxxxxxxxxxxx...[462 chars]...xxxxxxxxxxxxxxxxxxx')
  nearest miss: r.jsonl:2  #0 Write(file_path='a.txt', content='xxxxxxxxxxxxxxxxxxx...[462 chars]...xxxxxxxxxxxxxxxxxxx')
    args.content: expected 'y', found 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...[97 chars]...xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
  check: tool_called('Write', content='y')""",
        id="long values are cut in the middle",
    ),
    pytest.param(
        lambda: c.check_tool_calls(shop(), ["search_products", "get_order"], mode="any_order"),
        """\
expected the same calls in any order [search_products, get_order], found 1 expected call unmatched: [get_order]; 1 unexpected call: [mcp__shop__search_products]
  evidence:
    runs/shop.jsonl:2  #0 mcp__shop__search_products(q='running shoes', color='blue', size=42)  expected 1
    runs/shop.jsonl:4  #1 mcp__shop__search_products(q='red shoes', size='42')  unexpected
  check: tool_calls(['search_products', 'get_order'], mode='any_order')""",
        id="any order: missing and unexpected",
    ),
    pytest.param(
        lambda: c.check_file_written(
            T(path="r.jsonl").user("go")
            .call("Write", file_path="/etc/x.conf", content="x", error=True, output="EACCES: permission denied")
            .say("ok").done(),
            "/etc/x.conf",
        ),
        """\
expected '/etc/x.conf' written, found only 1 failed write
  evidence:
    r.jsonl:2  #0 Write(file_path='/etc/x.conf', content='x')  [error]  write /etc/x.conf, failed
  note: counting successful events only (succeeded=None counts attempts)
  check: file_written('/etc/x.conf')""",
        id="a failed write is not a write",
    ),
    pytest.param(
        lambda: c.check_file_not_changed(
            T(path="r.jsonl", fmt="codex-exec").user("go")
            .call("command_execution", kind="shell", command="cd app && sed -i 's/#2563eb/#7c3aed/' src/theme.ts",
                  exit_code=0)
            .say("ok").done(),
            "src/theme.ts",
        ),
        """\
expected 'src/theme.ts' not changed, found 1 change
  evidence:
    r.jsonl:2  #0 command_execution(command="cd app && sed -i 's/#2563eb/#7c3aed/' src/theme.ts")  edit app/src/theme.ts (shell: sed -i 's/#2563eb/#7c3aed/' src/theme.ts)
  check: file_not_changed('src/theme.ts')""",
        id="a shell write is a change",
    ),
    pytest.param(
        lambda: c.check_budget(shop(), max_tokens=1000),
        """\
inconclusive: expected at most 1000 tokens, found no tokens recorded in the log
  note: tokens and cost: usage_total (the main agent; no subagent)
  note: usage mode of this format: none; tokens and cost are never estimated
  check: budget(max_tokens=1000)""",
        id="budget without usage is inconclusive",
    ),
    pytest.param(
        lambda: c.check_budget(_costing(2.5), max_cost_usd=1, max_steps=100),
        """\
expected at most 100 steps, cost at most $1.00, found cost $2.50 (limit $1.00)
  note: tokens and cost: usage_total (the main agent; no subagent)
  check: budget(max_steps=100, max_cost_usd=1)""",
        id="a cost budget speaks in dollars",
    ),
    pytest.param(
        lambda: c.check_budget(_costing(1.004), max_cost_usd=1),
        """\
expected cost at most $1.00, found cost $1.004 (limit $1.00)
  note: tokens and cost: usage_total (the main agent; no subagent)
  check: budget(max_cost_usd=1)""",
        id="a cost over by less than a cent shows the digits that make it over",
    ),
]


def _costing(usd: float) -> Transcript:
    from agenteval_assert.model import Usage

    t = T(path="r.jsonl").user("go").call("Bash", command="ls").say("done")
    t.b.usage = Usage(input_tokens=10, output_tokens=5, cost_usd=usd)
    t.b.usage_mode = "stated"
    return t.done()


@pytest.mark.parametrize(("make", "text"), GOLDEN)
def test_rendered_text(make: object, text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTEVAL_VERBOSE", raising=False)
    result = make()  # type: ignore[operator]
    assert result.render() == text
    assert str(result) == text


def test_verbose_shows_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    r = c.check_tool_not_called(many_bash(13), "Bash")
    full = r.render(verbose=True)
    assert "... and" not in full
    assert full.count("Bash(command=") == 13
    monkeypatch.setenv("AGENTEVAL_VERBOSE", "1")
    assert r.render() == full


def test_hand_built_result_renders_every_part() -> None:
    loc = Location("f.jsonl", 7)
    r = CheckResult(
        name="x",
        status=Status.FAIL,
        summary="expected A, found B",
        evidence=(Evidence("first", loc, detail="more"), Evidence("second")),
        nearest_miss=NearestMiss(Evidence("near", loc), (Difference("args.q", "'a'", "'b'"),)),
        notes=("n1",),
        check="x(1)",
    )
    assert r.render() == (
        "expected A, found B\n"
        "  evidence:\n"
        "    f.jsonl:7  first\n"
        "        more\n"
        "    (no location)  second\n"
        "  nearest miss: f.jsonl:7  near\n"
        "    args.q: expected 'a', found 'b'\n"
        "  note: n1\n"
        "  check: x(1)"
    )


def test_to_dict_is_json_ready_and_complete() -> None:
    r = c.check_tool_called(shop(), "search_products", color="red")
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["status"] == "fail"
    assert d["evidence"][0] == {
        "text": "#0 mcp__shop__search_products(q='running shoes', color='blue', size=42)",
        "path": "runs/shop.jsonl",
        "line": 2,
        "call_id": "toolu_01",
        "step": 1,
        "detail": "",
    }
    assert d["nearest_miss"]["differences"] == [
        {"path": "args.color", "expected": "'red'", "found": "'blue'"}
    ]
    assert d["check"] == "tool_called('search_products', color='red')"


def test_cut_middle_and_short_repr() -> None:
    assert cut_middle("abc", 10) == "abc"
    assert cut_middle("a" * 50, 30) == "aaaaa...[40 chars]...aaaaa"
    assert len(cut_middle("a" * 1000)) < 220

    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert short_repr(Broken()) == "<unrepresentable Broken: RuntimeError('no')>"


def test_rendering_is_deterministic_across_runs() -> None:
    texts = {c.check_tool_calls(shop(), ["get_order", "search_products"], mode="covers").render() for _ in range(3)}
    assert len(texts) == 1


def test_the_result_constructors_write_the_summary_line_every_check_writes() -> None:
    ev = [Evidence("seen here")]
    r = CheckResult.inconclusive("x", "a call", "none", ev, check="x()")
    assert (r.status, r.summary, r.expected, r.found, r.evidence, r.check) == (
        Status.INCONCLUSIVE, "inconclusive: expected a call, found none", "a call", "none", tuple(ev), "x()")
    assert CheckResult.inconclusive("x", "a call", "none", but="the transcript was cut").summary == (
        "inconclusive: expected a call, found none, but the transcript was cut")
    assert CheckResult.inconclusive("x", "a", "b", summary="inconclusive: said otherwise").summary == (
        "inconclusive: said otherwise")
    assert CheckResult.failing("x", "a call", "none").summary == "expected a call, found none"


def test_a_long_call_description_is_cut_in_its_arguments_not_in_its_outcome_tag() -> None:
    t = T().user("go").call("Edit", path="/a/very/long/path/" * 12 + "x.py", output="boom", error=True).say("no").done()
    (call,) = t.tool_calls
    ev = Evidence.from_call(call, "edit /a/very/long/path/x.py, failed")
    (line,) = ev.render(120)
    assert line.endswith("  [error]  edit /a/very/long/path/x.py, failed")
    assert "...[" in line  # the arguments were cut
    # a description given as text is cut in the middle as before
    (plain,) = Evidence("x" * 300).render(120)
    assert "...[" in plain and len(plain) < 160
