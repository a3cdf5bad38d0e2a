"""The tests' own child-process helpers (``tests/_proc.py``): a hang or a crash of a child fails
the test, within a bound, saying what ran and what it printed."""

from __future__ import annotations

import sys
import time

import pytest

from . import _proc


def test_a_child_that_hangs_is_killed_at_the_bound_and_fails_the_test_with_its_output() -> None:
    started = time.monotonic()
    with pytest.raises(pytest.fail.Exception) as info:
        _proc.python("import sys, time; print('started', flush=True); time.sleep(60)", timeout=2)
    assert time.monotonic() - started < 30
    message = str(info.value)
    assert message.startswith(f"`{sys.executable} -c 'import sys, time;")
    assert "did not finish within 2 s and was killed" in message and "stdout: started" in message


def test_a_child_that_fails_fails_the_test_with_its_status_and_output_when_checked() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"exited with status 3\nstdout: \nstderr: boom"):
        _proc.python("import sys; sys.stderr.write('boom'); sys.exit(3)")
    assert _proc.python("import sys; sys.exit(3)", check=False).returncode == 3


def test_work_that_does_not_finish_in_time_fails_the_test_naming_it() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"^a slow pool did not finish within 0.2 s$"):
        _proc.within("a slow pool", lambda: time.sleep(2), seconds=0.2)
    assert _proc.within("a quick pool", lambda: 42) == 42
