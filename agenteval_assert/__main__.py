"""``python -m agenteval_assert``."""

from ._cli import process_main

if __name__ == "__main__":
    raise SystemExit(process_main())
