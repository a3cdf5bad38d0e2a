"""The result of checking many transcripts: a small model, its totals and its JSON form.

Independent of the command line: the ``check`` command, ``agenteval_assert.batch.check_many``,
the pytest plugin and the HTML report all build and read these objects.

* ``TranscriptResult``: one transcript (a file, one member ``path#member`` of a file that holds
  several runs, or a Storybook sandbox): its name, path, member, format, a summary of its
  health, every check result, or why it could not be read. Its ``status`` is the transcript's
  verdict: ``passed`` only when every check passed (or was skipped); an inconclusive transcript
  has not passed.
* ``RunTotals``: counts over a run (transcripts by status, checks by status) and the pass rate.
* ``TranscriptResult.to_dict()`` / ``result_from_dict``: one transcript's JSON form, and back;
  ``run_to_dict`` / ``JsonWriter``: the JSON document (schema ``run-result.schema.json``,
  shipped in this package; ``schema()`` returns it), written whole or streamed.

A ``TranscriptResult`` holds no reference to the parsed transcript (``detach``): it is small,
picklable, and can cross process boundaries.
"""

from __future__ import annotations

from ._json import JsonWriter, result_from_dict, result_to_dict, run_to_dict, schema, totals_to_dict
from ._model import (
    SCHEMA_ID,
    HealthSummary,
    RunTotals,
    SkippedCheck,
    TranscriptResult,
    TranscriptStatus,
    check_status,
    detach,
)

__all__ = [
    "SCHEMA_ID",
    "HealthSummary",
    "JsonWriter",
    "RunTotals",
    "SkippedCheck",
    "TranscriptResult",
    "TranscriptStatus",
    "check_status",
    "detach",
    "result_from_dict",
    "result_to_dict",
    "run_to_dict",
    "schema",
    "totals_to_dict",
]
