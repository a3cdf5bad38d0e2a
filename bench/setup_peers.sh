#!/usr/bin/env bash
# Install the peers the benchmark compares against into bench/.peers/ (gitignored):
#   - a virtualenv (same interpreter, system site-packages visible) with the PyPI packages
#     claude-agent-sdk (its stream-json message parser) and claude-code-log (session logs),
#     plus the profilers pyinstrument and py-spy;
#   - @vercel/agent-eval from npm under bench/.peers/node (run by Node.js).
# Safe to re-run. Then: python -m bench.run
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p .peers
PY="${PYTHON:-python3}"
if [ ! -x .peers/venv/bin/python ]; then
  "$PY" -m venv --system-site-packages .peers/venv
fi
.peers/venv/bin/pip install --quiet --disable-pip-version-check \
  "claude-agent-sdk>=0.2" "claude-code-log>=1.7" pyinstrument py-spy
if command -v npm >/dev/null 2>&1; then
  mkdir -p .peers/node
  if [ ! -f .peers/node/package.json ]; then
    (cd .peers/node && npm init -y >/dev/null)
  fi
  (cd .peers/node && npm install --silent --no-audit --no-fund "@vercel/agent-eval@^2.2")
else
  echo "npm not found: @vercel/agent-eval will be skipped" >&2
fi
echo "peers installed:"
.peers/venv/bin/python -c "import importlib.metadata as m; print('  claude-agent-sdk', m.version('claude-agent-sdk')); print('  claude-code-log', m.version('claude-code-log'))"
[ -f .peers/node/node_modules/@vercel/agent-eval/package.json ] && \
  node -e "console.log('  @vercel/agent-eval', require('./.peers/node/node_modules/@vercel/agent-eval/package.json').version)"
