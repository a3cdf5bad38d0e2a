"""``python -m agenteval_assert``."""

from ._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
