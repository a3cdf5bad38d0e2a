"""The expect_* vocabulary: golden failure messages (the reference's text first, then our evidence)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agenteval_assert.exceptions import UsageError
from agenteval_assert.results import Status, TranscriptAssertionError
from agenteval_assert.storybook._context import EvalContext, EvalProfile
from agenteval_assert.storybook._expect import (
    A11Y_VISUAL_CHANGE_APPROVAL_CRITERION,
    DISPLAY_REVIEW_CURATION_CRITERION,
    expect_all_story_exports_in_display_review,
    expect_display_review_for_browse_request,
    expect_display_review_for_visual_change,
    expect_documentation_tooling_called,
    expect_final_response_contains,
    expect_final_response_matches,
    expect_no_display_review,
    expect_preview_browser_started,
    expect_preview_opened_in_browser,
    expect_preview_stories_with_final_links,
    expect_shell_command_matching,
    expect_skill_invoked,
    expect_story_discovery_before_review,
    expect_story_ids_in_display_review,
    expect_story_tests_ran_and_passed,
    expect_storybook_boots,
    expect_storybook_dependencies_at_least,
    expect_valid_storybook_launch_config,
    expect_workflow_calls,
    get_workflow_calls,
    js_regex_source,
    json_stringify,
    trunc,
)

from .test_storybook_context import (
    CR,
    CT,
    CU,
    XC,
    XG,
    XT,
    bash,
    codex_end,
    codex_start,
    ctx_of,
    flat,
)

MCP = "mcp__storybook-dev-mcp__"
LINK = "Review it here: http://localhost:6006/?path=/review/"


def message(exc: pytest.ExceptionInfo[AssertionError]) -> str:
    assert isinstance(exc.value, TranscriptAssertionError)
    return exc.value.result.summary


def fails(fn: Any, *args: Any, **kw: Any) -> str:
    with pytest.raises(TranscriptAssertionError) as info:
        fn(*args, **kw)
    assert info.value.result.status is Status.FAIL
    assert str(info.value).startswith(info.value.result.summary)
    return info.value.result.summary


def review_ctx(tmp_path: Path, payload: Any, final: str = LINK, **kw: Any) -> EvalContext:
    lines = flat(CU("toolu_1", MCP + "review-create", payload), CR("toolu_1", "ok"), CT(final))
    return ctx_of(tmp_path, lines, review=True, **kw)


GOOD = {
    "title": "New ToggleSwitch",
    "description": "An accessible switch.",
    "collections": [{"title": "States", "rationale": "Every state.",
                     "storyIds": ["components-toggleswitch--off", "components-toggleswitch--on"]}],
    "changedFiles": ["src/components/ToggleSwitch.tsx"],
}

# -- constants ------------------------------------------------------------------------------------


def test_judge_criteria_are_verbatim() -> None:
    assert DISPLAY_REVIEW_CURATION_CRITERION.startswith(
        "The final review-create tool call publishes a well-curated review. It groups stories into 2 to 5 collections. ")
    assert "consume it — not arbitrary groupings. Each collection" in DISPLAY_REVIEW_CURATION_CRITERION
    assert DISPLAY_REVIEW_CURATION_CRITERION.endswith('jargon such as "collection" or "trigger".')
    assert A11Y_VISUAL_CHANGE_APPROVAL_CRITERION == (
        "The final response explains the remaining visual color contrast accessibility concern. "
        "It asks the user before changing visual or design colors. "
        "It offers two or three concrete options for fixing the contrast issue. "
        "It does not claim the visual contrast issue was already fixed. "
        "It distinguishes semantic accessibility issues that can be fixed directly from visual design changes "
        "that need user approval.")


# -- JS formatting --------------------------------------------------------------------------------


def test_json_stringify_is_compact_and_keeps_unicode() -> None:
    assert json_stringify({"a": [1, 2.0, None, True], "é": "—"}) == '{"a":[1,2,null,true],"é":"—"}'
    assert json_stringify([]) == "[]"


def test_json_stringify_orders_keys_and_prints_numbers_as_javascript() -> None:
    # integer-like keys first, ascending; then the others in insertion order ("01" and "-1" are not indexes)
    assert json_stringify({"b": 1, "10": 2, "2": 3, "a": 4, "01": 5, "-1": 6, "4294967295": 7}) == (
        '{"2":3,"10":2,"b":1,"a":4,"01":5,"-1":6,"4294967295":7}')
    assert json_stringify([1e-7, 0.000001, 1.5e-7, 1e21, 1e20, 2.5, float("nan"), float("inf")]) == (
        "[1e-7,0.000001,1.5e-7,1e+21,100000000000000000000,2.5,null,null]")
    assert json_stringify({"nested": {"1": "b", "0": "a"}}) == '{"nested":{"0":"a","1":"b"}}'


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_js_numbers_round_trip(x: float) -> None:
    from agenteval_assert.storybook import js_number

    text = js_number(x)
    assert float(text) == x
    assert "e-0" not in text and "e+0" not in text and not text.endswith(".0")


def test_trunc_counts_utf16_units() -> None:
    assert trunc("a" * 600) == "a" * 600
    assert trunc("a" * 601) == "a" * 600 + "…"
    emoji = "😀" * 300  # 600 UTF-16 units, 300 code points
    assert trunc(emoji) == emoji
    assert trunc(emoji + "x") == emoji + "…"
    assert trunc("a" + "😀" * 300) == "a" + "😀" * 299 + "\ufffd…"  # a split pair cannot be printed


@given(st.text(max_size=700))
def test_trunc_never_longer_than_limit(s: str) -> None:
    out = trunc(s)
    units = len(out.encode("utf-16-le", "surrogatepass")) // 2
    assert units <= 601
    assert out == s or out.endswith("…")


def test_js_regex_source() -> None:
    assert js_regex_source(re.compile("contrast", re.IGNORECASE)) == "/contrast/i"
    assert js_regex_source(re.compile(r"storybook(@\S+)?\s+upgrade")) == r"/storybook(@\S+)?\s+upgrade/"
    assert js_regex_source(r"a/b") == r"/a\/b/"
    assert js_regex_source(re.compile(r"[/]x", re.MULTILINE | re.DOTALL)) == "/[/]x/ms"
    # RegExp#source writes line terminators as escapes: the message stays on one line
    assert js_regex_source(re.compile("Passing\nStories")) == r"/Passing\nStories/"
    assert js_regex_source("a\r\u2028b") == r"/a\r\u2028b/"


# -- presence and final response -------------------------------------------------------------------


def test_expect_workflow_calls_message_and_evidence(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, flat(CU("toolu_1", MCP + "stories-changed", {}), CR("toolu_1", "x")))
    assert expect_workflow_calls(ctx, ["stories-changed"]).passed
    with pytest.raises(TranscriptAssertionError) as info:
        expect_workflow_calls(ctx, ["stories-changed", "review-create"])
    text = str(info.value)
    assert text.splitlines()[0] == "Expected review-create to be called"
    assert re.search(r"transcript\.txt:1\s+stories-changed \{\} via mcp", text), text
    with pytest.raises(UsageError):
        expect_workflow_calls(ctx, "review-create")


def test_legacy_names_translate_unless_strict(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, flat(CU("toolu_1", MCP + "docs-show", {"id": "button"}), CR("toolu_1", "x")))
    assert expect_workflow_calls(ctx, ["get-documentation"]).passed
    strict = ctx.with_profile(EvalProfile(strict_names=True))
    assert fails(expect_workflow_calls, strict, ["get-documentation"]) == "Expected get-documentation to be called"
    assert get_workflow_calls(strict, "docs-show")


def test_final_response(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, [CT("The props are author and rating.")])
    assert expect_final_response_contains(ctx, ["author", "rating"]).passed
    assert fails(expect_final_response_contains, ctx, ["comment"]) == 'Expected the final response to mention "comment"'
    assert fails(expect_final_response_contains, ctx, ["Author"]) == 'Expected the final response to mention "Author"'
    assert expect_final_response_matches(ctx, [re.compile("AUTHOR", re.IGNORECASE), "rat(ing)"]).passed
    assert fails(expect_final_response_matches, ctx, [re.compile("contrast", re.IGNORECASE)]) == (
        "Expected the final response to match /contrast/i")


def test_final_response_absent_is_empty(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, flat(CU("toolu_1", "Bash", {"command": "ls"})))
    assert fails(expect_final_response_contains, ctx, ["x"]) == 'Expected the final response to mention "x"'


def test_documentation_tooling(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, [CT("hi")])
    assert fails(expect_documentation_tooling_called, ctx) == (
        "Expected at least one documentation tool call (docs-show, docs-show-story, docs-list)")
    a = ctx.with_profile(EvalProfile(generation="A"))
    assert fails(expect_documentation_tooling_called, a) == (
        "Expected at least one documentation tool call (get-documentation, get-documentation-for-story, "
        "list-all-documentation)")
    ok = ctx_of(tmp_path / "b", flat(CU("toolu_1", MCP + "docs-list", {}), CR("toolu_1", "x")))
    assert expect_documentation_tooling_called(ok).passed


# -- review ----------------------------------------------------------------------------------------


def test_visual_change_review_passes(tmp_path: Path) -> None:
    assert expect_display_review_for_visual_change(review_ctx(tmp_path, GOOD)).passed


@pytest.mark.parametrize(("change", "msg"), [
    ({"title": None}, "review-create title must be a non-empty string. Received: undefined"),
    ({"title": " \ufeff "}, 'review-create title must be a non-empty string. Received: " \ufeff "'),
    ({"description": 3}, "review-create description must be a non-empty string. Received: 3"),
    ({"collections": []}, "review-create collections must be a non-empty array. Received: []"),
    ({"collections": ["x"]}, 'review-create collection 0 must be an object. Received: "x"'),
    ({"collections": [{"title": "t", "storyIds": ["a"]}]},
     "review-create collection 0 rationale must be a non-empty string. Received: undefined"),
    ({"collections": [{"title": "t", "rationale": "r", "storyIds": "a--b"}]},
     'review-create collection 0 storyIds must be a non-empty array. Received: "a--b"'),
    ({"collections": [{"title": "t", "rationale": "r", "storyIds": ["a", ""]}]},
     'review-create collection 0 storyIds[1] must be a non-empty string. Received: ""'),
    ({"changedFiles": []}, "visual change review-create changedFiles must be a non-empty array. Received: []"),
    ({"changedFiles": ["a", {"p": 1}]},
     'visual change review-create changedFiles[1] must be a non-empty string. Received: {"p":1}'),
])
def test_visual_change_payload_messages(tmp_path: Path, change: dict[str, Any], msg: str) -> None:
    payload = {k: v for k, v in {**GOOD, **change}.items() if v is not None}
    assert fails(expect_display_review_for_visual_change, review_ctx(tmp_path, payload)) == msg


@pytest.mark.parametrize(("final", "msg", "gen"), [
    (None, "Expected a final assistant response", "B"),
    ("Done.", "Final response must include the Storybook review page link", "B"),
    ("See http://localhost:6006/?path=/reviewer", "Final response must include the Storybook review page link", "C"),
    (LINK + " and http://localhost:6006/?path=/story/a--b",
     "Final response must not also include individual story preview links", "B"),
    (LINK + " http://localhost:6006/iframe.html?id=a--b",
     "Final response must not also include individual story preview links", "B"),
])
def test_review_link_messages(tmp_path: Path, final: str | None, msg: str, gen: str) -> None:
    lines = flat(CU("toolu_1", MCP + "review-create", GOOD), CR("toolu_1", "ok"))
    if final is not None:
        lines.append(CT(final))
    ctx = ctx_of(tmp_path, lines, review=True, profile=EvalProfile(generation=gen))  # type: ignore[arg-type]
    assert fails(expect_display_review_for_visual_change, ctx) == msg


def test_reviewer_link_accepted_by_gen_b_only(tmp_path: Path) -> None:
    ctx = review_ctx(tmp_path, GOOD, final="See http://localhost:6006/?path=/reviewer")
    assert expect_display_review_for_visual_change(ctx).passed


def test_the_last_review_create_is_checked(tmp_path: Path) -> None:
    lines = flat(CU("toolu_1", MCP + "review-create", GOOD), CR("toolu_1", "ok"),
                 CU("toolu_2", MCP + "review-create", {**GOOD, "title": ""}), CR("toolu_2", "ok"), CT(LINK))
    with pytest.raises(TranscriptAssertionError) as info:
        expect_display_review_for_visual_change(ctx_of(tmp_path, lines))
    assert info.value.result.summary == 'review-create title must be a non-empty string. Received: ""'
    assert "transcript.txt:3" in str(info.value)


def test_no_review_call(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, [CT(LINK)])
    for fn in (expect_display_review_for_visual_change, expect_display_review_for_browse_request,
               expect_all_story_exports_in_display_review):
        assert fails(fn, ctx) == "Expected review-create to be called"
    assert fails(expect_story_ids_in_display_review, ctx, ["a"]) == "Expected review-create to be called"
    assert fails(expect_display_review_for_visual_change, ctx.with_profile(EvalProfile(generation="A"))) == (
        "Expected display-review to be called")


def test_browse_request(tmp_path: Path) -> None:
    assert expect_display_review_for_browse_request(review_ctx(tmp_path / "a", {**GOOD, "changedFiles": []})).passed
    assert fails(expect_display_review_for_browse_request, review_ctx(tmp_path / "b", GOOD)) == (
        "Browse-request review-create must pass changedFiles: []")
    no_files = {k: v for k, v in GOOD.items() if k != "changedFiles"}
    assert fails(expect_display_review_for_browse_request, review_ctx(tmp_path / "c", no_files)) == (
        "Browse-request review-create must pass changedFiles: []")


def test_no_display_review(tmp_path: Path) -> None:
    assert expect_no_display_review(ctx_of(tmp_path / "a", [CT("Renamed formatRating.")])).passed
    assert fails(expect_no_display_review, review_ctx(tmp_path / "b", {"title": "T"})) == (
        'Expected review-create NOT to be called for a non-visual change. Received payloads: [{"title":"T"}]')
    assert fails(expect_no_display_review, ctx_of(tmp_path / "c", [CT(LINK)])) == (
        "Final response must not link to the Storybook review page for a non-visual change")


def test_story_ids_in_review(tmp_path: Path) -> None:
    payload = {**GOOD, "collections": [{"storyIds": ["reviews-reviewcard--default", 7]}, "skip",
                                       {"storyIds": "no"}, {"storyIds": ["reviews-reviewcard--low-rating"]}]}
    ctx = review_ctx(tmp_path, payload)
    assert expect_story_ids_in_display_review(ctx, ["reviewcard--default", "low-rating"]).passed
    assert fails(expect_story_ids_in_display_review, ctx, ["ReviewCard"]) == (
        'Expected a storyId containing "ReviewCard" in the review-create payload. Received storyIds: '
        '["reviews-reviewcard--default","reviews-reviewcard--low-rating"]')


STORIES = """import type { Meta } from '@storybook/react-vite';
export default meta;
export const Off = {};
export const ToggledWithKeyboard = {};
export function HTMLButton() {}
  export const Indented = {};
"""


def test_all_story_exports(tmp_path: Path) -> None:
    ids = ["components-toggleswitch--off", "components-toggleswitch--toggled-with-keyboard",
           "components-toggleswitch--htmlbutton"]
    payload = {**GOOD, "collections": [{"title": "t", "rationale": "r", "storyIds": ids}]}
    files = {"src/ToggleSwitch.stories.tsx": STORIES, "node_modules/x/A.stories.tsx": "export const Z = 1;\n",
             "__agent_eval__/B.stories.ts": "export const Y = 1;\n", "src/readme.md": "export const Q = 1;\n"}
    lines = flat(CU("toolu_1", MCP + "review-create", payload), CR("toolu_1", "ok"), CT(LINK))
    ctx = ctx_of(tmp_path, lines, files=files)
    assert expect_all_story_exports_in_display_review(ctx).passed
    (tmp_path / "src/More.stories.jsx").write_text("export const DisabledOn = {};\n")
    with pytest.raises(TranscriptAssertionError) as info:
        expect_all_story_exports_in_display_review(ctx)
    assert info.value.result.summary == (
        'Expected story "DisabledOn" from src/More.stories.jsx in the review-create payload. '
        f"Received storyIds: {json.dumps(ids, separators=(',', ':'))}")
    assert "More.stories.jsx:1" in str(info.value)


def test_a_transcript_line_with_nan_is_not_json_on_either_path(tmp_path: Path) -> None:
    from agenteval_assert.storybook import get_workflow_tool_results, parse_workflow_tool_results

    good = flat(CU("toolu_1", MCP + "test-run", {}), CR("toolu_1", "## Passing Stories\n\n- a--b"))
    bad = [CU("toolu_2", MCP + "test-run", {}),
           ('{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2",'
           '"content":"## Failing Stories","is_error":false}]},"score":NaN}')]
    ctx = ctx_of(tmp_path, [*good, *bad, CT("done")])
    assert [i.reason for i in ctx.transcript.health.unparsable] == ["not valid JSON: NaN is not a JSON value"]
    raw = (tmp_path / "__agent_eval__/transcript.txt").read_text()
    on_lines = [r.output for r in parse_workflow_tool_results(raw, "test-run")]
    on_model = [r.output for r in get_workflow_tool_results(ctx, "test-run")]
    assert on_lines == on_model == ["## Passing Stories\n\n- a--b"]


def test_sandbox_json_with_nan_is_invalid(tmp_path: Path) -> None:
    from agenteval_assert.storybook import SandboxError

    from .test_storybook_context import sandbox

    root = sandbox(tmp_path, [CT("x")])
    (root / "__agent_eval__/results.json").write_text('{"o11y": {"shellCommands": []}, "duration": NaN}')
    with pytest.raises(SandboxError, match=r"results.json: invalid JSON: NaN is not JSON"):
        EvalContext.from_sandbox(root)


def test_a_codex_result_wrapped_as_ok_passes_on_both_paths(tmp_path: Path) -> None:
    from agenteval_assert.storybook import parse_workflow_tool_results

    done = {"type": "item.completed", "item": {
        "id": "item_1", "type": "mcp_tool_call", "server": "storybook", "tool": "test-run", "arguments": {},
        "status": "completed", "error": None,
        "result": {"Ok": {"content": [{"type": "text", "text": "## Passing Stories\n\n- button--primary"}]}}}}
    ctx = ctx_of(tmp_path, flat(codex_start(), done, XT("item_2", "done"), codex_end()), agent="codex")
    assert expect_story_tests_ran_and_passed(ctx, covering=["button"]).passed
    raw = (tmp_path / "__agent_eval__/transcript.txt").read_text()
    (res,) = parse_workflow_tool_results(raw, "test-run")
    assert res.output == "## Passing Stories\n\n- button--primary" and not res.is_error


def test_story_files_are_visited_in_byte_order_of_their_names(tmp_path: Path) -> None:
    # strcmp order (libuv sorts readdir with it): upper case before lower case, "Z" before "a"
    files = {"src/a.stories.tsx": "export const Alpha = {};\n", "src/Z.stories.tsx": "export const Zed = {};\n",
             "src/B/x.stories.tsx": "export const Bee = {};\n", "src/_u.stories.tsx": "export const Under = {};\n"}
    payload = {**GOOD, "collections": [{"title": "t", "rationale": "r", "storyIds": ["x--nothing"]}]}
    ctx = ctx_of(tmp_path, flat(CU("toolu_1", MCP + "review-create", payload), CR("toolu_1", "ok"), CT(LINK)),
                 files=files)
    from agenteval_assert.storybook._expect._review import _story_files

    assert _story_files(ctx.workspace) == (
        ["src/B/x.stories.tsx", "src/Z.stories.tsx", "src/_u.stories.tsx", "src/a.stories.tsx"], [])
    assert fails(expect_all_story_exports_in_display_review, ctx).startswith(
        'Expected story "Bee" from src/B/x.stories.tsx')


def test_story_file_links_inside_the_sandbox_are_read_outside_not(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "Far.stories.tsx").write_text("export const Far = {};\n")
    (outside / "dir").mkdir()
    root = tmp_path / "run"
    ids = ["components-toggleswitch--off", "components-toggleswitch--toggled-with-keyboard",
           "components-toggleswitch--htmlbutton"]
    payload = {**GOOD, "collections": [{"title": "t", "rationale": "r", "storyIds": ids}]}
    ctx = ctx_of(root, flat(CU("toolu_1", MCP + "review-create", payload), CR("toolu_1", "ok"), CT(LINK)),
                 files={"lib/ToggleSwitch.stories.tsx": STORIES})
    (root / "src").mkdir()
    (root / "src/Linked.stories.tsx").symlink_to(root / "lib/ToggleSwitch.stories.tsx")  # inside: read
    (root / "src/Far.stories.tsx").symlink_to(outside / "Far.stories.tsx")  # outside: not followed
    (root / "src/linked-dir").symlink_to(outside / "dir", target_is_directory=True)
    from agenteval_assert.storybook._expect._review import _story_files

    files, notes = _story_files(ctx.workspace)
    assert files == ["lib/ToggleSwitch.stories.tsx", "src/Linked.stories.tsx"]
    assert notes == [f"src/Far.stories.tsx links outside the sandbox (to {outside / 'Far.stories.tsx'}): not followed",
                     ("src/linked-dir links to a directory: not walked (the reference does not follow directory "
                     "links either)")]
    r = expect_all_story_exports_in_display_review(ctx)
    assert r.passed and r.summary == "every story export of 2 file(s) is in the review" and r.notes == tuple(notes)


def test_all_story_exports_needs_a_story_file(tmp_path: Path) -> None:
    assert fails(expect_all_story_exports_in_display_review, review_ctx(tmp_path, GOOD)) == (
        "Expected the agent to write at least one story file")


def test_story_discovery_before_review(tmp_path: Path) -> None:
    def run(*names: str) -> EvalContext:
        lines = flat(*[[CU(f"toolu_{i}", MCP + n, {}), CR(f"toolu_{i}", "x")] for i, n in enumerate(names)])
        return ctx_of(tmp_path / "-".join(names), lines)

    assert expect_story_discovery_before_review(run("stories-changed", "review-create")).passed
    assert expect_story_discovery_before_review(run("review-create", "stories-find-by-component", "review-create")).passed
    assert fails(expect_story_discovery_before_review, run("review-create")) == (
        "Expected a story-discovery call (stories-changed or stories-find-by-component) before publishing the review")
    assert fails(expect_story_discovery_before_review, run("stories-changed")) == "Expected review-create to be called"
    assert fails(expect_story_discovery_before_review, run("review-create", "stories-changed")) == (
        "Story discovery must happen before the review is published")


# -- preview ---------------------------------------------------------------------------------------


def preview_ctx(tmp_path: Path, *inputs: Any, final: str = "See http://localhost:6006/?path=/story/a--b") -> EvalContext:
    lines = flat(*[[CU(f"toolu_{i}", MCP + "stories-preview", inp), CR(f"toolu_{i}", "x")]
                   for i, inp in enumerate(inputs)], CT(final))
    return ctx_of(tmp_path, lines)


def test_preview_stories(tmp_path: Path) -> None:
    ctx = preview_ctx(tmp_path, {"stories": [{"storyId": "components-toggleswitch--off"}, "junk"]},
                      {"absoluteStoryPath": "/w/src/Badge.stories.tsx", "exportName": "Accent"})
    assert expect_preview_stories_with_final_links(ctx, covering=["ToggleSwitch", "storyid"],
                                                   covering_any_of=["nope", "badge"]).passed
    received = ('[{"storyId":"components-toggleswitch--off"},'
                '{"absoluteStoryPath":"/w/src/Badge.stories.tsx","exportName":"Accent"}]')
    assert fails(expect_preview_stories_with_final_links, ctx, covering=["card"]) == (
        f'Expected a stories-preview story input covering "card". Received: {received}')
    assert fails(expect_preview_stories_with_final_links, ctx, covering_any_of=["card", "pill"]) == (
        f'Expected a stories-preview story input covering one of ["card","pill"]. Received: {received}')


def test_preview_links(tmp_path: Path) -> None:
    assert fails(expect_preview_stories_with_final_links, ctx_of(tmp_path / "a", [CT("x")])) == (
        "Expected stories-preview to be called")
    assert fails(expect_preview_stories_with_final_links, preview_ctx(tmp_path / "b", {}, final="done")) == (
        "Final response must include a story preview link")
    both = "http://localhost:6006/iframe.html?id=a--b and http://localhost:6006/?path=/review/"
    assert fails(expect_preview_stories_with_final_links, preview_ctx(tmp_path / "c", {}, final=both)) == (
        "Final response must not link to the Storybook review page when review is disabled")


# -- story tests -----------------------------------------------------------------------------------


def run_ctx(tmp_path: Path, *outputs: tuple[str, bool], **kw: Any) -> EvalContext:
    lines = flat(*[[CU(f"toolu_{i}", MCP + "test-run", {}), CR(f"toolu_{i}", out, err)]
                   for i, (out, err) in enumerate(outputs)])
    return ctx_of(tmp_path, lines, **kw)


def test_story_tests_pass(tmp_path: Path) -> None:
    ctx = run_ctx(tmp_path, ("## Failing Stories\n\n### a--b", False),
                    ("## Passing Stories\n\n- components-toggleswitch--off", False), ("exit-check-done", False))
    assert expect_story_tests_ran_and_passed(ctx, covering=["nope", "ToggleSwitch"]).passed


@pytest.mark.parametrize(("out", "err", "msg"), [
    ("Error: cancelled", True, "Final test-run call must succeed. Output: Error: cancelled"),
    ("## Passing Stories\n\n- a\n\n## Failing Stories\n\n### b", False,
     "Final test-run result must not report failing stories"),
    ("## Passing Stories\n\n- a\n\n## Unhandled Errors\n\n### TypeError", False,
     "Final test-run result must not report unhandled errors"),
    ("## Accessibility Violations\n\n### a - button-name", False,
     "Final test-run result must report passing stories. Output: ## Accessibility Violations\n\n### a - button-name"),
    ("## Passing Stories\n\n- a--b", False,
     "Final test-run result must cover the changed component (one of: toggleswitch, Badge). Output: ## Passing Stories\n\n- a--b"),
])
def test_story_tests_messages(tmp_path: Path, out: str, err: bool, msg: str) -> None:
    ctx = run_ctx(tmp_path, (out, err))
    assert fails(expect_story_tests_ran_and_passed, ctx, covering=["toggleswitch", "Badge"]) == msg


def test_story_tests_truncates_output(tmp_path: Path) -> None:
    out = "## Accessibility Violations\n" + "x" * 700
    got = fails(expect_story_tests_ran_and_passed, run_ctx(tmp_path, (out, False)))
    assert got == "Final test-run result must report passing stories. Output: " + out[:600] + "…"


def test_story_tests_without_call_or_result(tmp_path: Path) -> None:
    assert fails(expect_story_tests_ran_and_passed, ctx_of(tmp_path / "a", [CT("x")])) == (
        "Expected test-run to be called")
    ctx = ctx_of(tmp_path / "b", [CU("toolu_1", MCP + "test-run", {})])
    assert fails(expect_story_tests_ran_and_passed, ctx) == "Expected at least one test-run result in the transcript"


def test_story_tests_gen_a_takes_last_result(tmp_path: Path) -> None:
    ctx = run_ctx(tmp_path, ("## Passing Stories\n\n- a--b", False), ("exit-check-done", False),
                    profile=EvalProfile(generation="A"))
    assert fails(expect_story_tests_ran_and_passed, ctx, covering=["zzz"]) == (
        "Final run-story-tests result must report passing stories. Output: exit-check-done")


# -- skills, launch config, preview browser, shell ------------------------------------------------


def test_skill_invoked_claude(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, flat(CU("toolu_1", "Skill", {"skill": "stories"}), CR("toolu_1", "loaded")))
    assert expect_skill_invoked(ctx, "stories").passed
    assert fails(expect_skill_invoked, ctx, "storybook-init") == (
        "Expected the storybook-init skill to be invoked via the Skill tool")


def test_skill_invoked_codex(tmp_path: Path) -> None:
    lines = flat(codex_start(), XC("item_1", "/bin/bash -lc 'cat .agents/skills/init/SKILL.md'", "# init", 0),
                 XC("item_2", "/bin/bash -lc 'cat .agents/skills/storiesx/SKILL.md'", "# x", 0), codex_end())
    ctx = ctx_of(tmp_path, lines, agent="codex", integration="plugin")
    assert expect_skill_invoked(ctx, "storybook-init").passed
    assert fails(expect_skill_invoked, ctx, "stories") == (
        "Expected the stories skill (skills/stories) to be read via a shell command")


LAUNCH_OK = {"version": "0.0.1", "configurations": [
    {"name": "app", "runtimeExecutable": "npm", "runtimeArgs": ["run", "dev"], "port": 5173},
    {"name": "Storybook", "runtimeExecutable": "npm", "runtimeArgs": ["run", "storybook"], "port": 6006, "autoPort": True}]}
PKG = json.dumps({"scripts": {"storybook": "storybook dev -p 6006"}})


@pytest.mark.parametrize(("launch", "pkg", "msg"), [
    (LAUNCH_OK, PKG, None),
    (None, PKG, "Expected .claude/launch.json to be written"),
    ("[1]", PKG, ".claude/launch.json must be an object. Received: [1]"),
    ("{oops", PKG, ".claude/launch.json must be an object. Received: undefined"),
    ({"configurations": []}, PKG, ".claude/launch.json configurations must be a non-empty array. Received: []"),
    ({}, PKG, ".claude/launch.json configurations must be a non-empty array. Received: undefined"),
    ({"configurations": [{"runtimeArgs": ["run", "dev"]}]}, PKG,
     ".claude/launch.json configuration running the storybook script must be an object. Received: undefined"),
    ({"configurations": [{"runtimeArgs": ["storybook"], "port": "6006", "autoPort": True}]}, PKG,
     "Storybook launch entry must use port 6006"),
    ({"configurations": [{"runtimeArgs": ["storybook"], "port": 6006}]}, PKG, "Storybook launch entry must set autoPort: true"),
    (LAUNCH_OK, '{"scripts":{}}', "Launch entry references the storybook script, so package.json must define it"),
])
def test_launch_config(tmp_path: Path, launch: Any, pkg: str, msg: str | None) -> None:
    files = {"package.json": pkg}
    if launch is not None:
        files[".claude/launch.json"] = launch if isinstance(launch, str) else json.dumps(launch)
    ctx = ctx_of(tmp_path, [CT("x")], integration="plugin", files=files)
    if msg is None:
        assert expect_valid_storybook_launch_config(ctx).passed
    else:
        assert fails(expect_valid_storybook_launch_config, ctx) == msg


def test_preview_browser_claude(tmp_path: Path) -> None:
    ok = ctx_of(tmp_path / "a", flat(CU("toolu_1", "mcp__Browser__preview_start", {"url": "http://localhost:6006"}),
                                     CR("toolu_1", "ok")), integration="plugin")
    assert expect_preview_browser_started(ok).passed
    bad = ctx_of(tmp_path / "b", [CT("x")], integration="plugin")
    assert fails(expect_preview_browser_started, bad) == (
        "Expected the Claude preview browser to be opened via the preview_start tool")


def test_preview_browser_codex(tmp_path: Path) -> None:
    goto = "await tab.goto('http://localhost:6006/?path=/story/a--b');"
    ok = ctx_of(tmp_path / "a", flat(codex_start(), XG("item_1", goto), XT("item_2", "done"), codex_end()),
                agent="codex", integration="plugin")
    assert expect_preview_browser_started(ok).passed
    elsewhere = ctx_of(tmp_path / "b", flat(codex_start(), XG("item_1", "await tab.goto('https://example.com/');"),
                                            codex_end()), agent="codex", integration="plugin")
    assert fails(expect_preview_browser_started, elsewhere) == (
        "Expected an in-app browser navigation to the local Storybook review or story preview URL (a node_repl js "
        'tool call whose code calls goto). Navigations found: ["https://example.com/"]')
    killed = ctx_of(tmp_path / "c", flat(codex_start(), XG("item_1", goto),
                                         XC("item_2", "/bin/bash -lc 'fuser -k 6006/tcp'", "", 0), codex_end()),
                    agent="codex", integration="plugin")
    with pytest.raises(TranscriptAssertionError) as info:
        expect_preview_browser_started(killed)
    assert info.value.result.summary == (
        "The dev server must be left running for the user — never kill it after verification")
    assert "fuser -k 6006/tcp" in str(info.value) and "transcript.txt:" in str(info.value)
    other = ctx_of(tmp_path / "d", [CT("x")], agent="gemini-cli", integration="plugin")
    assert fails(expect_preview_browser_started, other) == (
        'Unknown plugin agent "gemini-cli" — teach expectPreviewBrowserStarted its preview surface')


def test_preview_opened_in_browser(tmp_path: Path) -> None:
    lines = flat(CU("toolu_1", MCP + "stories-preview", {}), CR("toolu_1", "ok"),
                 CU("toolu_2", "mcp__Browser__navigate", {"url": "http://localhost:6006/?path=/story/a--b"}))
    assert expect_preview_opened_in_browser(ctx_of(tmp_path / "a", lines)).passed
    lines[-1] = CU("toolu_2", "mcp__Browser__navigate", {"url": "http://localhost:6006/"})
    assert fails(expect_preview_opened_in_browser, ctx_of(tmp_path / "b", lines)) == (
        "Expected an in-app browser navigation to a story preview on the local dev server after stories-preview. "
        "Navigated to:\nhttp://localhost:6006/")


def test_shell_command_matching(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, flat(bash("toolu_1", "npx storybook@latest upgrade --yes", "ok"),
                                bash("toolu_2", "npm i", "ok")), integration="plugin")
    assert expect_shell_command_matching(ctx, re.compile(r"storybook(@\S+)?\s+upgrade")).passed
    assert fails(expect_shell_command_matching, ctx, re.compile(r"create(-|\s+)storybook")) == (
        r'Expected a shell command matching /create(-|\s+)storybook/. Received: ["npx storybook@latest upgrade --yes","npm i"]')
    long = ctx_of(tmp_path / "b", flat(*[bash(f"toolu_{i}", "echo " + "y" * 100, "") for i in range(10)]))
    got = fails(expect_shell_command_matching, long, "nomatch")
    assert got.startswith("Expected a shell command matching /nomatch/. Received: [")
    assert got.endswith("…") and len(got) == len("Expected a shell command matching /nomatch/. Received: ") + 601


@pytest.mark.parametrize(("pkg", "msg"), [
    ({"dependencies": {"storybook": "^10.5.0"}, "devDependencies": {"@storybook/react-vite": "10.5.0-beta.0"}}, None),
    ({"dependencies": {"storybook": "^9.1.20"}, "devDependencies": {"storybook": "~10.6.1", "@storybook/react-vite": "10.5.2"}}, None),
    ({"devDependencies": {"@storybook/react-vite": "10.5.0"}}, "Expected a storybook dependency in package.json. Received: undefined"),
    ({"dependencies": {"storybook": 10, "@storybook/react-vite": "10.5.0"}},
     "Expected a storybook dependency in package.json. Received: 10"),
    ({"dependencies": {"storybook": "latest", "@storybook/react-vite": "10.5.0"}},
     'Could not parse a version from the storybook spec "latest"'),
    ({"dependencies": {"storybook": "^9.1.20", "@storybook/react-vite": "10.5.0"}},
     "Expected storybook to be upgraded to at least 10.5.0. Received: ^9.1.20"),
    ({"dependencies": {"storybook": "10.5.0", "@storybook/react-vite": "10.5.0", "@storybook/react": "9.0.0"}},
     "Expected @storybook/react to be upgraded to at least 10.5.0. Received: 9.0.0"),
    ([], "Expected package.json to contain a JSON object"),
])
def test_dependencies_at_least(tmp_path: Path, pkg: Any, msg: str | None) -> None:
    ctx = ctx_of(tmp_path, [CT("x")], files={"package.json": json.dumps(pkg)})
    call = (expect_storybook_dependencies_at_least, ctx, "10.5.0", ["storybook", "@storybook/react-vite"])
    if msg is None:
        assert call[0](*call[1:], if_present=["@storybook/react"]).passed
    else:
        assert fails(*call, if_present=["@storybook/react"]) == msg


def test_dependencies_invalid_minimum(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, [CT("x")], files={"package.json": "{}"})
    with pytest.raises(UsageError, match=r'^Invalid minInclusiveVersion "ten"$'):
        expect_storybook_dependencies_at_least(ctx, "ten", ["storybook"])


# -- expect_storybook_boots: a real process, a real port, always killed ------------------------------

SERVER = """
import http.server, os, sys
port = int(sys.argv[sys.argv.index("--port") + 1])
assert "--ci" in sys.argv and os.environ["BROWSER"] == "none" and os.environ["CI"] == "1"
open("server.pid", "w").write(str(os.getpid()))
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.path == "/index.json"
        self.send_response(200 if ok else 404)
        self.end_headers()
        self.wfile.write(b'{"v":5,"entries":{}}' if ok else b"")
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", port), H).serve_forever()
"""

SILENT = """
import os, time
open("server.pid", "w").write(str(os.getpid()))
time.sleep(120)
"""

needs_npm = pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def boots_ctx(tmp_path: Path, script: str, body: str = "") -> EvalContext:
    files = {"package.json": json.dumps({"name": "fake", "version": "1.0.0", "scripts": {"storybook": script}})}
    if body:
        files["server.py"] = body
    return ctx_of(tmp_path, [CT("x")], files=files)


#: Seconds a started process may take to start serving, or to go after it was killed: generous
#: (npm starts node, which starts the server; the machine may be shared and loaded), since a
#: passing boot returns as soon as it serves.
BOOT_TIMEOUT = 120


def assert_dead(pid_file: Path, *, may_not_have_started: bool = False) -> None:
    """The server process that wrote *pid_file* is gone (killed with its process group). With
    *may_not_have_started*, a server killed before it wrote the file passes, provided the file
    does not appear later (a survivor would write it)."""
    if may_not_have_started and not pid_file.exists():
        time.sleep(2)
        if not pid_file.exists():
            return
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + BOOT_TIMEOUT
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    pytest.fail(f"process {pid} started by expect_storybook_boots is still alive {BOOT_TIMEOUT} s after it returned")


@needs_npm
def test_boots_serving(tmp_path: Path) -> None:
    ctx = boots_ctx(tmp_path, f"{sys.executable} server.py", SERVER)
    port = free_port()
    result = expect_storybook_boots(ctx, port=port, timeout_ms=BOOT_TIMEOUT * 1000, poll_interval=0.2)
    assert result.passed, result.render()
    assert f"127.0.0.1:{port}/index.json" in result.summary
    assert_dead(tmp_path / "server.pid")


@needs_npm
def test_boots_exits_early(tmp_path: Path) -> None:
    ctx = boots_ctx(tmp_path, f'{sys.executable} -c "import sys; sys.exit(3)"')
    assert fails(expect_storybook_boots, ctx, port=free_port(), timeout_ms=BOOT_TIMEOUT * 1000,
                 poll_interval=0.2) == "npm run storybook exited (code 3) before serving"


@needs_npm
def test_boots_never_answers(tmp_path: Path) -> None:
    ctx = boots_ctx(tmp_path, f"{sys.executable} server.py", SILENT)
    port = free_port()
    t0 = time.monotonic()
    assert fails(expect_storybook_boots, ctx, port=port, timeout_ms=1500, poll_interval=0.2) == (
        f"Storybook did not respond on port {port} within 1500ms")
    # it gives up at the deadline: 1.5 s, then at most 5 s for SIGTERM and 5 for SIGKILL (and slack)
    assert time.monotonic() - t0 < 30
    assert_dead(tmp_path / "server.pid", may_not_have_started=True)  # npm may not have started it yet


def test_boots_spawn_failure(tmp_path: Path) -> None:
    ctx = boots_ctx(tmp_path, "true")
    got = fails(expect_storybook_boots, ctx, command=["/nonexistent/npm-binary"], timeout_ms=500)
    assert got.startswith("Failed to spawn npm run storybook: ")


# -- raw access helpers ---------------------------------------------------------------------------


def test_raw_access_helpers(tmp_path: Path) -> None:
    from agenteval_assert.storybook import (
        get_eval_context,
        get_final_assistant_message,
        get_shell_commands,
        get_transcript,
        is_record,
        is_review_enabled,
        parse_json,
        parse_workflow_tool_results,
    )

    root = tmp_path / "run"
    ctx_of(root, flat(bash("toolu_1", "npm test", "ok"), CT("bye")), review=True)
    ctx = get_eval_context(root)
    assert is_review_enabled(ctx) and get_shell_commands(ctx) == ["npm test"]
    assert get_transcript(ctx) is ctx.transcript and get_final_assistant_message(ctx) == "bye"
    assert get_eval_context(root) is not ctx  # a fresh object: nothing memoised per process
    assert is_record({}) and not is_record([]) and not is_record(None)
    assert parse_json(' {"a": 1} ') == {"a": 1} and parse_json("  ") is None and parse_json("{") is None
    # JSON.parse rejects Python's extensions
    for text in ("NaN", "Infinity", "-Infinity", '{"score": NaN}', "[1, Infinity]"):
        assert parse_json(text) is None, text
    raw = (root / "__agent_eval__/transcript.txt").read_text()
    assert parse_workflow_tool_results(raw, "test-run") == []
    lines = flat(CU("toolu_1", MCP + "run-story-tests", {}), CR("toolu_1", "## Passing Stories\n\n- a--b"))
    text = "\n".join(json.dumps(x) for x in lines)
    (res,) = parse_workflow_tool_results(text, "run-story-tests")
    assert res.output == "## Passing Stories\n\n- a--b"
    assert res.location is not None and res.location.line == 2
    assert parse_workflow_tool_results("", "test-run") == []


# -- properties -----------------------------------------------------------------------------------


@given(st.text(max_size=200))
def test_url_predicates_never_raise_and_agree(s: str) -> None:
    from agenteval_assert.storybook import is_local_dev_server_url, is_local_storybook_preview_url

    local = is_local_dev_server_url(s)
    assert isinstance(local, bool)
    assert not is_local_storybook_preview_url(s) or local


@given(st.lists(st.text(max_size=60), max_size=8))
def test_kill_commands_are_a_subsequence(commands: list[str]) -> None:
    from agenteval_assert.storybook import find_dev_server_kill_commands

    flagged = find_dev_server_kill_commands(commands)
    it = iter(commands)
    assert all(any(c == x for x in it) for c in flagged)
    assert all(re.search(r"kill|fuser", c, re.IGNORECASE) for c in flagged)


@given(st.lists(st.sampled_from(["stories-changed", "stories-find-by-component", "review-create", "test-run"]),
                max_size=6))
def test_story_discovery_order_property(names: list[str]) -> None:
    from agenteval_assert.storybook._workflow import WorkflowCall

    calls = [WorkflowCall(n, {}, "mcp", n, i) for i, n in enumerate(names)]
    ctx = EvalContext.from_parts(_EMPTY, integration="mcp")
    ctx._cache["workflow_calls"] = calls
    first = next((i for i, n in enumerate(names) if n.startswith("stories-")), None)
    last = max((i for i, n in enumerate(names) if n == "review-create"), default=None)
    expected = first is not None and last is not None and first < last
    try:
        expect_story_discovery_before_review(ctx)
        assert expected
    except TranscriptAssertionError:
        assert not expected


def _empty_transcript() -> Any:
    from agenteval_assert import parse

    return parse('{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"x"}]}}\n')


_EMPTY = _empty_transcript()


def test_absence_on_a_torn_transcript_is_inconclusive(tmp_path: Path) -> None:
    from agenteval_assert.results import InconclusiveError

    lines = [CU("toolu_1", MCP + "stories-changed", {}), CR("toolu_1", "x"),
             '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_2","name":"mcp__storybook-dev']
    ctx_of(tmp_path, lines)
    t = tmp_path / "__agent_eval__/transcript.txt"
    t.write_text(t.read_text().rstrip("\n"))  # the writer died mid-line
    ctx = EvalContext.from_sandbox(tmp_path)
    assert ctx.transcript.health.truncated_tail
    with pytest.raises(InconclusiveError) as info:
        expect_workflow_calls(ctx, ["review-create"])
    assert info.value.result.summary == "Expected review-create to be called"
    assert info.value.result.status is Status.INCONCLUSIVE
    assert any("torn" in n for n in info.value.result.notes)
    assert expect_workflow_calls(ctx, ["stories-changed"]).passed  # presence is still proven
    run = storybook_suite_run(ctx)
    assert run.outcome("reads the documentation (docs-show)").outcome == "inconclusive"


def storybook_suite_run(ctx: EvalContext) -> Any:
    from agenteval_assert.storybook import suite

    return suite("801-create-accessible-component").run(ctx.with_profile(EvalProfile()))
