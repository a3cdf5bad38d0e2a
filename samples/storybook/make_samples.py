"""Regenerate the saved Storybook sandboxes in this folder (see README.md).

    python samples/storybook/make_samples.py

The shell commands of the Codex sample are the three real commands of Storybook's
``agent-eval/lib/__fixtures__/claude-plugin-801-heredoc-commands.json`` (MIT, read from
``tests/corpus/storybook/``), wrapped the way Codex runs them (``/bin/bash -lc '…'``).
The component and story files are the ones those heredocs write.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIXTURE = HERE.parents[1] / "tests/corpus/storybook/lib/__fixtures__/claude-plugin-801-heredoc-commands.json"

PROMPT = (
    "Create an accessible ToggleSwitch component in src/components using the Reshaped Switch. "
    "It needs a visible label, a controlled `checked` prop and an `onChange` callback. Write stories for it."
)
REVIEW_URL = "http://localhost:6006/?path=/review/new-accessible-toggleswitch-component"
IDS = ["components-toggleswitch--off", "components-toggleswitch--on", "components-toggleswitch--toggled-with-keyboard",
       "components-toggleswitch--disabled", "components-toggleswitch--disabled-on"]
PASSING = "## Passing Stories\n\n" + "\n".join(f"- {i}" for i in IDS)
PACKAGE = {
    "name": "agent-eval-801", "private": True, "version": "0.0.0", "type": "module",
    "scripts": {"dev": "vite", "typecheck": "tsc --noEmit", "storybook": "storybook dev -p 6006"},
    "dependencies": {"react": "^19.1.0", "react-dom": "^19.1.0", "reshaped": "^3.7.0"},
    "devDependencies": {"storybook": "^10.3.0", "@storybook/react-vite": "^10.3.0", "typescript": "~5.8.3"},
}
LAUNCH = {"version": "0.0.1", "configurations": []}


def heredocs(command: str) -> dict[str, str]:
    """``cat > PATH <<'EOF' … EOF`` bodies of *command*, by path."""
    return {m.group(1): m.group(2) + "\n"
            for m in re.finditer(r"cat > (\S+) <<'EOF'\n(.*?)\nEOF\n", command, re.DOTALL)}


# -- Claude Code session lines ----------------------------------------------------------------------

class Claude:
    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.n = 0
        self.parent: str | None = None

    def _add(self, kind: str, message: dict[str, Any], **extra: Any) -> None:
        self.n += 1
        uuid = f"7f3c0a52-801e-4b6d-9c1a-{self.n:012d}"
        self.lines.append({
            "parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": "/workspace",
            "sessionId": "7f3c0a52-801e-4b6d-9c1a-5e0f1d2c3b4a", "version": "2.0.14", "gitBranch": "main",
            "type": kind, "message": message, "uuid": uuid,
            "timestamp": f"2026-10-04T12:{self.n // 60:02d}:{self.n % 60:02d}.000Z", **extra,
        })
        self.parent = uuid

    def prompt(self, text: str) -> None:
        self._add("user", {"role": "user", "content": text})

    def say(self, text: str) -> None:
        self._add("assistant", {"id": f"msg_{self.n:04d}", "type": "message", "role": "assistant",
                                "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": text}],
                                "usage": {"input_tokens": 1200, "output_tokens": 80}})

    def tool(self, name: str, input: dict[str, Any], result: Any, is_error: bool = False) -> None:
        tid = f"toolu_01{self.n:06d}"
        self._add("assistant", {"id": f"msg_{self.n:04d}", "type": "message", "role": "assistant",
                                "model": "claude-sonnet-4-5",
                                "content": [{"type": "tool_use", "id": tid, "name": name, "input": input}],
                                "usage": {"input_tokens": 1500, "output_tokens": 120}})
        self._add("user", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tid, "content": result, "is_error": is_error}]})


def mcp(name: str) -> str:
    return f"mcp__storybook-dev-mcp__{name}"


def text(t: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": t}]


def write_sandbox(name: str, *, agent: str, integration: str, review: bool, lines: list[dict[str, Any]],
                  commands: list[str], files: dict[str, str]) -> None:
    root = HERE / name
    if root.exists():
        shutil.rmtree(root)
    ev = root / "__agent_eval__"
    ev.mkdir(parents=True)
    (ev / "agent.json").write_text(json.dumps({"agent": agent, "integration": integration, "review": review},
                                              indent=2) + "\n")
    (ev / "transcript.txt").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    (ev / "results.json").write_text(json.dumps({
        "status": "passed", "duration": 412.7,
        "o11y": {"shellCommands": [{"command": c, "success": True, "exitCode": 0} for c in commands]},
    }, indent=2, ensure_ascii=False) + "\n")
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content)


def main() -> None:
    fixture = json.loads(FIXTURE.read_text())
    write_files = fixture["writeFilesThenTestRun"]
    bodies = heredocs(write_files)
    component = bodies["/workspace/src/components/ToggleSwitch.tsx"]
    stories = bodies["/workspace/src/components/ToggleSwitch.stories.tsx"]
    payload = {
        "title": "New accessible ToggleSwitch component",
        "description": "Adds `ToggleSwitch`, a controlled switch built on the Reshaped `Switch` with "
                       "`role=\"switch\"` and a visible label as its accessible name.",
        "collections": [
            {"title": "Interactive states", "rationale": "Off, on, and keyboard toggling with Space.",
             "storyIds": IDS[:3]},
            {"title": "Disabled states", "rationale": "Disabled switches look muted and ignore clicks.",
             "storyIds": IDS[3:]},
        ],
        "changedFiles": ["src/components/ToggleSwitch.tsx", "src/components/ToggleSwitch.stories.tsx"],
    }
    files = {"package.json": json.dumps(PACKAGE, indent=2) + "\n", ".claude/launch.json": json.dumps(LAUNCH, indent=2) + "\n",
             "src/components/ToggleSwitch.tsx": component, "src/components/ToggleSwitch.stories.tsx": stories}

    # 1. Claude + MCP, review on: passes 801.
    c = Claude()
    c.prompt(PROMPT)
    c.say("I'll start by loading the Storybook story-writing instructions.")
    c.tool(mcp("get-storybook-story-instructions"), {}, text("# Writing stories\n\nWrite CSF3 stories with play functions..."))
    c.tool(mcp("docs-show"), {"id": "reshaped-switch"}, text("# Switch\n\nProps: name, checked, disabled, onChange..."))
    c.tool("Write", {"file_path": "/workspace/src/components/ToggleSwitch.tsx", "content": component},
           "File created successfully at: /workspace/src/components/ToggleSwitch.tsx")
    c.tool("Write", {"file_path": "/workspace/src/components/ToggleSwitch.stories.tsx", "content": stories},
           "File created successfully at: /workspace/src/components/ToggleSwitch.stories.tsx")
    c.tool("Bash", {"command": "npm run -s typecheck", "description": "Type-check the project"}, "")
    c.tool(mcp("stories-changed"), {}, text("\n".join(f"- {i}" for i in IDS)))
    c.tool(mcp("test-run"), {"stories": [{"storyId": i} for i in IDS]}, text(PASSING))
    c.tool(mcp("review-create"), payload, text(f"Review published: {REVIEW_URL}"))
    c.tool("mcp__Browser__navigate", {"url": REVIEW_URL}, text("Navigated."))
    c.say("I created `ToggleSwitch` with five stories; all story tests pass.\n\n"
          f"Review the change here: {REVIEW_URL}")
    write_sandbox("801-claude-mcp-pass", agent="claude-code", integration="mcp", review=True, lines=c.lines,
                  commands=["npm run -s typecheck"], files=files)

    # 2. Claude + MCP, review on: fails 801 (red tests, incomplete review, no discovery, no link).
    c = Claude()
    c.prompt(PROMPT)
    c.tool(mcp("get-storybook-story-instructions"), {}, text("# Writing stories\n\n..."))
    c.tool("Write", {"file_path": "/workspace/src/components/ToggleSwitch.tsx", "content": component},
           "File created successfully at: /workspace/src/components/ToggleSwitch.tsx")
    c.tool("Write", {"file_path": "/workspace/src/components/ToggleSwitch.stories.tsx", "content": stories},
           "File created successfully at: /workspace/src/components/ToggleSwitch.stories.tsx")
    c.tool(mcp("test-run"), {}, text(
        "## Passing Stories\n\n- components-toggleswitch--off\n- components-toggleswitch--on\n\n"
        "## Failing Stories\n\n### components-toggleswitch--toggled-with-keyboard\n\n"
        "expected element to have focus:\n<input role=\"switch\" …>"))
    broken = {k: v for k, v in payload.items() if k != "changedFiles"}
    broken["collections"] = [payload["collections"][0]]  # type: ignore[index]
    c.tool(mcp("review-create"), broken, text(f"Review published: {REVIEW_URL}"))
    c.say("Done: the ToggleSwitch component and its stories are in src/components.")
    write_sandbox("801-claude-mcp-fail", agent="claude-code", integration="mcp", review=True, lines=c.lines,
                  commands=[], files=files)

    # 3. Codex + plugin (review always on for plugin): the real heredoc commands.
    def bash_lc(cmd: str) -> str:
        return "/bin/bash -lc " + shlex.quote(cmd)

    review_input = fixture["reviewCreateWithHeredocInput"]
    steps: list[tuple[str, str, int]] = [
        (bash_lc("npx storybook skills write-story"), "# Writing stories\n\nWrite CSF3 stories...", 0),
        (bash_lc("cat .agents/skills/stories/SKILL.md"), "---\nname: stories\n---\n# Stories skill\n...", 0),
        (bash_lc("npx storybook tools docs show --id reshaped-switch 2>&1 | head -60"),
         "# Switch\n\nProps: name, checked, disabled, onChange, inputAttributes...", 0),
        (bash_lc(write_files), PASSING + "\n", 0),
        (bash_lc(review_input),
         "- components-toggleswitch--off\n- components-toggleswitch--on\n{\n  \"reviewUrl\": \""
         + REVIEW_URL + "\"\n}\n", 0),
    ]
    ev: list[dict[str, Any]] = [{"type": "thread.started", "thread_id": "0199c4a1-7e52-7c13-a801-3f5b2a9d0c11"},
                                {"type": "turn.started"}]
    n = 0
    ev.append({"type": "item.completed", "item": {"id": f"item_{n}", "type": "reasoning",
                                                   "text": "**Loading the story instructions**"}})
    for cmd, out, code in steps:
        n += 1
        item = {"id": f"item_{n}", "type": "command_execution", "command": cmd}
        ev.append({"type": "item.started", "item": {**item, "aggregated_output": "", "exit_code": None,
                                                     "status": "in_progress"}})
        ev.append({"type": "item.completed", "item": {**item, "aggregated_output": out, "exit_code": code,
                                                       "status": "completed"}})
    n += 1
    goto = ("var tab = (await browser.tabs.selected()) ?? (await browser.tabs.new());\n"
            f"await tab.goto('{REVIEW_URL}');")
    js = {"id": f"item_{n}", "type": "mcp_tool_call", "server": "node_repl", "tool": "js",
          "arguments": {"code": goto, "title": "Open the review", "timeout_ms": 30000}}
    ev.append({"type": "item.started", "item": {**js, "result": None, "error": None, "status": "in_progress"}})
    ev.append({"type": "item.completed", "item": {**js, "error": None, "status": "completed",
                                                   "result": {"content": [{"type": "text", "text": "ok"}],
                                                              "structured_content": None}}})
    n += 1
    ev.append({"type": "item.completed", "item": {
        "id": f"item_{n}", "type": "agent_message",
        "text": f"Added `ToggleSwitch` with five stories; the story tests pass. Review: {REVIEW_URL}"}})
    ev.append({"type": "turn.completed", "usage": {"input_tokens": 48213, "cached_input_tokens": 40960,
                                                   "output_tokens": 3120}})
    codex_files = {**files}
    codex_files.pop(".claude/launch.json")
    write_sandbox("801-codex-plugin-heredoc", agent="codex", integration="plugin", review=True, lines=ev,
                  commands=[s[0] for s in steps], files=codex_files)
    # 4. The same run as an older NiceEval sandbox leaves it (hand-made: no real one is public).
    write_niceeval_sandbox("801-codex-plugin-niceeval", agent="codex", integration="plugin", review=True,
                           commands=[s[0] for s in steps], files=codex_files)
    make_912()


# -- 912-fix-a11y-violations (hand-made: no real run of this eval is public) --------------------------

PROMPT_912 = "Run Storybook story tests using the Storybook MCP testing tool. Fix any issues you find."
#: The fixture as the eval describes it: grey text (#b0b0b0) on white, and an icon-only button
#: whose only child is an aria-hidden SVG (hand-written from that description).
BUTTON_912 = """import type { ButtonHTMLAttributes, ReactNode } from 'react';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  icon?: ReactNode;
  iconOnly?: boolean;
};

export function Button({ icon, iconOnly = false, children, style, ...rest }: ButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      style={{ color: '#b0b0b0', background: '#ffffff', border: '1px solid #d0d0d0', borderRadius: 6, ...style }}
    >
      {icon}
      {iconOnly ? null : children}
    </button>
  );
}
"""
STORIES_912 = """import type { Meta, StoryObj } from '@storybook/react-vite';

import { Button } from '../src/components/Button';

const CloseIcon = () => (
  <svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16">
    <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="2" />
  </svg>
);

const meta = {
  title: 'Button',
  component: Button,
  tags: ['test'],
} satisfies Meta<typeof Button>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = { args: { children: 'Save changes' } };

export const IconOnly: Story = { args: { icon: <CloseIcon />, iconOnly: true } };
"""
ICON_ONLY_OLD = "export const IconOnly: Story = { args: { icon: <CloseIcon />, iconOnly: true } };"
ICON_ONLY_NEW = "export const IconOnly: Story = { args: { icon: <CloseIcon />, iconOnly: true, 'aria-label': 'Close' } };"
CONTRAST_912 = """### button--default - color-contrast

Ensure the contrast between foreground and background colors meets WCAG 2 AA minimum contrast ratio thresholds

#### Affected Elements
- **Impact**: serious
  **Message**: Fix any of the following:
  Element has insufficient color contrast of 2.17 (foreground color: #b0b0b0, background color: #ffffff, font size: 10.5pt (14px), font weight: normal). Expected contrast ratio of 4.5:1
  **Element**: <button type="button" style="color: rgb(176, 176, 176); background: rgb(255, 255, 255);">Save changes</button>
  **Inspect**: http://localhost:6006/?path=/story/button--default"""
BUTTON_NAME_912 = """### button--icon-only - button-name

Ensure buttons have discernible text

#### Affected Elements
- **Impact**: critical
  **Message**: Fix any of the following:
  Element does not have inner text that is visible to screen readers
  aria-label attribute does not exist or is empty
  Element has no title attribute
  **Element**: <button type="button"><svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16">…</svg></button>
  **Inspect**: http://localhost:6006/?path=/story/button--icon-only"""
PASSING_912 = "## Passing Stories\n\n- button--default\n- button--icon-only"
FIRST_RUN_912 = f"{PASSING_912}\n\n## Accessibility Violations\n\n{CONTRAST_912}\n\n{BUTTON_NAME_912}"
SECOND_RUN_912 = f"{PASSING_912}\n\n## Accessibility Violations\n\n{CONTRAST_912}"
ASKS_912 = """I ran the story tests with the Storybook testing tool. Both stories pass their component tests, but the accessibility checks reported two violations.

**Fixed: `button-name` on `button--icon-only`.** The icon-only button's only child is an `aria-hidden` SVG, so it had no accessible name. I gave the story an `aria-label` ("Close"); this is a semantic fix with no visual change. The rerun no longer reports it.

**Not changed: `color-contrast` on `button--default`.** The text colour `#b0b0b0` on white has a contrast ratio of 2.17:1; WCAG AA needs 4.5:1 for normal text. Fixing it changes how the button looks, so I have left it as it is until you decide. Options:

1. Darken the text to `#767676` (4.54:1), the lightest grey that passes AA.
2. Use `#595959` (7:1), which also passes AAA.
3. Keep the light grey for a disabled-looking secondary style only, and use a dark text colour for the default button.

Which would you like?"""
CHANGES_912 = "All accessibility violations are fixed: the icon-only button has an accessible name, and the button text is now `#767676`, which meets the WCAG AA contrast ratio. The story tests pass."


def make_912() -> None:
    """Three hand-made Claude Code + MCP runs of 912: one that does what the eval asks, and two that do not."""
    base = {"package.json": json.dumps({**PACKAGE, "name": "agent-eval-912"}, indent=2) + "\n",
            "src/components/Button.tsx": BUTTON_912, "stories/Button.stories.tsx": STORIES_912}
    fixed_stories = STORIES_912.replace(ICON_ONLY_OLD, ICON_ONLY_NEW)
    stories_path = "/workspace/stories/Button.stories.tsx"
    button_path = "/workspace/src/components/Button.tsx"

    def start() -> Claude:
        c = Claude()
        c.prompt(PROMPT_912)
        c.say("I'll run the story tests with the Storybook testing tool.")
        c.tool(mcp("test-run"), {}, text(FIRST_RUN_912))
        c.tool("Read", {"file_path": stories_path}, STORIES_912)
        c.tool("Read", {"file_path": button_path}, BUTTON_912)
        c.say("The icon-only button has no accessible name: I'll label it. The contrast issue is a design "
              "decision, so I'll leave the colours alone.")
        c.tool("Edit", {"file_path": stories_path, "old_string": ICON_ONLY_OLD, "new_string": ICON_ONLY_NEW},
               f"The file {stories_path} has been updated.")
        return c

    # 1. What the eval asks: label fixed, tests rerun, colours left alone, options offered.
    c = start()
    c.tool(mcp("test-run"), {}, text(SECOND_RUN_912))
    c.say(ASKS_912)
    write_sandbox("912-claude-mcp-asks", agent="claude-code", integration="mcp", review=False, lines=c.lines,
                  commands=[], files={**base, "stories/Button.stories.tsx": fixed_stories})

    # 2. Fixed the label and asked, but never ran the tests again.
    c = start()
    c.say(ASKS_912.replace(" The rerun no longer reports it.", ""))
    write_sandbox("912-claude-mcp-runs-once", agent="claude-code", integration="mcp", review=False,
                  lines=c.lines, commands=[], files={**base, "stories/Button.stories.tsx": fixed_stories})

    # 3. Changed the design colour on its own and claimed everything was fixed.
    c = Claude()
    c.prompt(PROMPT_912)
    c.tool(mcp("test-run"), {}, text(FIRST_RUN_912))
    c.tool("Edit", {"file_path": stories_path, "old_string": ICON_ONLY_OLD, "new_string": ICON_ONLY_NEW},
           f"The file {stories_path} has been updated.")
    c.tool("Edit", {"file_path": button_path, "old_string": "color: '#b0b0b0'", "new_string": "color: '#767676'"},
           f"The file {button_path} has been updated.")
    c.tool(mcp("test-run"), {}, text(PASSING_912))
    c.say(CHANGES_912)
    write_sandbox("912-claude-mcp-changes-colours", agent="claude-code", integration="mcp", review=False,
                  lines=c.lines, commands=[], files={
                      **base, "stories/Button.stories.tsx": fixed_stories,
                      "src/components/Button.tsx": BUTTON_912.replace("#b0b0b0", "#767676")})


def write_niceeval_sandbox(name: str, *, agent: str, integration: str, review: bool, commands: list[str],
                           files: dict[str, str]) -> None:
    """A sandbox as an older NiceEval run leaves it (hand-made from NiceEval's documented layout).

    The fixture's ``PROMPT.md`` and ``EVAL.ts``, Storybook's ``__agent_eval__/agent.json`` (the eval's
    support files write it whatever the harness), and NiceEval's summary ``__niceeval__/results.json``
    (``{"o11y": O11ySummary}``); no transcript: NiceEval keeps it on the host.
    """
    root = HERE / name
    if root.exists():
        shutil.rmtree(root)
    (root / "__agent_eval__").mkdir(parents=True)
    (root / "__agent_eval__" / "agent.json").write_text(
        json.dumps({"agent": agent, "integration": integration, "review": review}, indent=2) + "\n")
    (root / "__niceeval__").mkdir()
    (root / "__niceeval__" / "results.json").write_text(json.dumps({"o11y": {
        "totalTurns": 1, "toolCalls": {"shell": len(commands)}, "totalToolCalls": len(commands),
        "filesRead": [".agents/skills/stories/SKILL.md"],
        "filesModified": ["src/components/ToggleSwitch.tsx", "src/components/ToggleSwitch.stories.tsx"],
        "shellCommands": [{"command": c, "exitCode": 0, "success": True} for c in commands],
        "webFetches": [], "errors": [], "thinkingBlocks": 1, "compactions": 0,
    }}, indent=2, ensure_ascii=False) + "\n")
    (root / "PROMPT.md").write_text(PROMPT + "\n")
    (root / "EVAL.ts").write_text(EVAL_TS)
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content)


#: A condensed reconstruction of the Gen C 801 EVAL.ts (not the upstream file).
EVAL_TS = """import { expect, test } from 'vitest';
import {
  expectStoryTestsRanAndPassed, expectWorkflowCalls, expectDisplayReviewForVisualChange,
  expectSkillInvoked, expectDevServerLeftRunning, getEvalContext,
} from '#test-utils';

const { integration } = getEvalContext();

test('story tests ran and passed', () => expectStoryTestsRanAndPassed({ covering: ['toggleswitch'] }));
test('calls the story instructions and review-create', () =>
  expectWorkflowCalls(['get-storybook-story-instructions', 'review-create']));
test('publishes a visual-change review', () => expectDisplayReviewForVisualChange());
test.skipIf(integration === 'mcp')('invokes the stories skill', () => expectSkillInvoked('stories'));
test.skipIf(integration !== 'plugin')('leaves the dev server running', () => expectDevServerLeftRunning());
"""


if __name__ == "__main__":
    main()
