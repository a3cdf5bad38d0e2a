"""Shell parsing benchmark: ``python -m bench.shell_bench [--n 10000] [--json]``.

Builds N real-shaped commands with a fixed seed: every shell command of the test corpus
(Claude ``Bash``, Codex ``command_execution`` / rollout ``shell``), the three commands of the
Storybook heredoc fixture, and synthetic commands in the shapes agents write (Codex
``/bin/bash -lc '…'`` wrappers, pipelines into ``tail``/``grep``, ``cat > f <<'EOF'`` heredocs,
inline ``"$(cat <<'EOF' … EOF)"`` payloads, ``&&`` chains, env-var prefixes). Then times, on
the same list:

* ``parse_shell`` (the full model: words, redirections, heredocs, substitutions, wrappers);
* ``parse_workflow_shell_commands`` (the model + Storybook CLI recognition and inputs);
* tree-sitter-bash parse + a full walk of its tree, and bashlex, when they are installed
  (for the comparison in ``docs/shell.md``; neither is a dependency).

Reports commands/second and MB/second (CPU time, best of 3 runs).
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
FIXTURE = CORPUS / "storybook" / "lib" / "__fixtures__" / "claude-plugin-801-heredoc-commands.json"

_FILES = ["src/components/Button.tsx", "src/App.tsx", "package.json", "src/lib/api.ts", "README.md"]
_STORIES = ["example-button--primary", "components-badge--default", "reviews-reviewcard--default"]


def _corpus_commands() -> list[str]:
    import agenteval_assert as aa
    from agenteval_assert.shell import shell_commands

    out: list[str] = []
    for d in ("claude-session-log", "claude-stream-json", "codex-exec-json", "codex-rollout"):
        for path in sorted((CORPUS / d).iterdir()):
            try:
                out += [r.text for r in shell_commands(aa.load(path))]
            except aa.AgentEvalError:  # a corpus file no parser accepts is simply not used
                continue
    if FIXTURE.is_file():
        out += list(json.loads(FIXTURE.read_text()).values())
    return out


def _synthetic(rng: random.Random) -> str:
    f = rng.choice(_FILES)
    s = rng.choice(_STORIES)
    payload = json.dumps({"title": "Review it's ready", "description": "Check `role=\"switch\"`.",
                          "collections": [{"title": "States", "storyIds": [s]}]})  # fmt: skip
    shapes = [
        f"sed -n '1,{rng.randint(20, 400)}p' {f}",
        f"rg -n \"useState|useEffect\" src --glob '*.tsx' | head -{rng.randint(5, 50)}",
        f"npx storybook tools test run --stories '[{{\"storyId\":\"{s}\"}}]' --json 2>&1 | tail -40",
        f"cd /workspace && npm run -s typecheck && npx eslint {f} && npx storybook tools test run 2>&1 | tail -40",
        "STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai --port 6006 test-run >out.txt 2> err.log",
        f"cat > /tmp/review.json <<'EOF'\n{payload}\nEOF\nnpx storybook tools review create --input \"$(cat /tmp/review.json)\"",
        f"npx storybook tools review create --input \"$(cat <<'EOF'\n{payload}\nEOF\n)\" --json 2>&1 | tail -5",
        "git diff --stat && git status --short | grep -v '^??' || true",
        "for f in $(ls src/components); do echo \"== $f\"; wc -l src/components/$f; done",
        f"cat > {f} <<'EOF'\nexport const x = 'it''s';\nconst y = \"$HOME\";\nEOF",
    ]
    cmd = rng.choice(shapes)
    if rng.random() < 0.4:  # Codex wraps every command
        cmd = "/bin/bash -lc " + shlex.quote(cmd)
    return cmd


def build(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    real = _corpus_commands()
    out = list(real)
    while len(out) < n:
        out.append(_synthetic(rng))
    rng.shuffle(out)
    return out[:n]


def _time(fn: Callable[[Sequence[str]], Any], cmds: Sequence[str], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn(cmds)
        best = min(best, time.process_time() - t0)
    return best


def run(n: int) -> dict[str, Any]:
    from agenteval_assert.shell import parse_shell
    from agenteval_assert.storybook import parse_workflow_shell_commands

    cmds = build(n)
    size = sum(len(c.encode()) for c in cmds)
    rows: dict[str, Any] = {"commands": len(cmds), "bytes": size}

    def ours(cs: Sequence[str]) -> None:
        for c in cs:
            parse_shell(c)

    def workflow(cs: Sequence[str]) -> None:
        for c in cs:
            parse_workflow_shell_commands([c])

    timers: dict[str, Callable[[Sequence[str]], Any]] = {"parse_shell": ours, "workflow": workflow}
    try:
        import tree_sitter_bash
        from tree_sitter import Language, Parser

        ts = Parser(Language(tree_sitter_bash.language()))

        def tree_sitter(cs: Sequence[str]) -> None:
            for c in cs:
                stack = [ts.parse(c.encode()).root_node]
                while stack:
                    node = stack.pop()
                    _ = node.type, node.text
                    stack.extend(node.children)

        timers["tree-sitter-bash (parse+walk)"] = tree_sitter
    except ImportError:
        pass
    try:
        import bashlex  # type: ignore[import-untyped]

        def bl(cs: Sequence[str]) -> None:
            failed = 0
            for c in cs:
                try:
                    bashlex.parse(c)
                except Exception:  # noqa: BLE001 - bashlex raises many kinds; a rejection is counted
                    failed += 1
            rows["bashlex_failures"] = failed

        timers["bashlex"] = bl
    except ImportError:
        pass
    for name, fn in timers.items():
        secs = _time(fn, cmds, repeat=1 if name == "bashlex" else 3)
        rows[name] = {"seconds": round(secs, 4), "commands_per_second": round(len(cmds) / secs),
                      "mb_per_second": round(size / secs / 1e6, 2)}  # fmt: skip
    complete = sum(parse_shell(c).complete for c in cmds)
    rows["complete"] = complete
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = run(args.n)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{rows['commands']} commands, {rows['bytes'] / 1e6:.2f} MB, {rows['complete']} parsed completely")
    for name, r in rows.items():
        if isinstance(r, dict):
            print(f"  {name:32} {r['commands_per_second']:>9,} commands/s  {r['mb_per_second']:>7} MB/s")
    if "bashlex_failures" in rows:
        print(f"  bashlex rejected {rows['bashlex_failures']} commands")
    return 0


if __name__ == "__main__":
    sys.exit(main())
