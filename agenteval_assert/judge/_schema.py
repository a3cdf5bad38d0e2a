"""The verdict the judge must return, validated by pydantic (the ``verdict.json`` design).

The JSON the model writes::

    {"criteria": [{"name": "c1", "pass": true, "score": 0.9, "reason": "...",
                   "evidence": [{"step": "s12", "quote": "..."}]}],
     "observations": [{"summary": "...", "severity": "low"}],
     "friction": [{"summary": "...", "fix": "..."}],
     "pass": true,
     "summary": "..."}

A verdict that contradicts itself is invalid: an overall ``pass`` that disagrees with its
criteria, a score outside 0–1, a passing criterion scored 0 or a failing one scored 1, and (when
the caller says which criteria were asked) criteria missing, renamed or out of order. The judge
is then asked again with the validation errors.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

__all__ = [
    "SCHEMA_VERSION",
    "Citation",
    "CriterionVerdict",
    "Friction",
    "Observation",
    "Verdict",
    "extract_json",
    "validation_messages",
]

#: Part of every cassette key: a change to the schema makes old cassettes miss.
SCHEMA_VERSION = "1"

_CONFIG = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


class Citation(BaseModel):
    """A step the judge relied on, and the exact text it quotes from that step."""

    model_config = _CONFIG

    step: str = Field(description='The id of a transcript step or file, such as "s12" or "f1".')
    quote: str = Field(description="An exact excerpt of that step, copied verbatim.")


class CriterionVerdict(BaseModel):
    """The judge's decision on one criterion."""

    model_config = _CONFIG

    name: str = Field(description="The criterion's name, exactly as given.")
    passed: bool = Field(alias="pass", description="Whether the transcript clearly meets the criterion.")
    score: float = Field(ge=0.0, le=1.0, description="How fully the criterion is met, from 0 to 1.")
    reason: str = Field(description="Why, in one or two sentences.")
    evidence: list[Citation] = Field(description="The steps relied on; at least one when passing.")

    @model_validator(mode="after")
    def _consistent(self) -> CriterionVerdict:
        if self.passed and self.score == 0.0:
            raise ValueError(f"criterion {self.name!r} passes with score 0: pass and score contradict each other")
        if not self.passed and self.score == 1.0:
            raise ValueError(f"criterion {self.name!r} fails with score 1: pass and score contradict each other")
        return self


class Observation(BaseModel):
    """Something notable about the run, with its severity."""

    model_config = _CONFIG

    summary: str
    severity: Literal["low", "medium", "high"]


class Friction(BaseModel):
    """What made the task harder for the agent, and how to fix it."""

    model_config = _CONFIG

    summary: str
    fix: str


class Verdict(BaseModel):
    """The judge's structured verdict on every criterion of one request.

    ``passed`` (JSON ``pass``) is the judge's overall claim: true only when every criterion
    passes. It is the judge's answer as validated; the ``check_*`` functions also verify each
    citation against the transcript (see ``unverified``).
    """

    model_config = _CONFIG

    criteria: list[CriterionVerdict]
    observations: list[Observation]
    friction: list[Friction]
    passed: bool = Field(alias="pass", description="True only when every criterion passes.")
    summary: str

    _unverified: tuple[str, ...] = pydantic.PrivateAttr(default=())

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> Verdict:
        failing = [c.name for c in self.criteria if not c.passed]
        if self.passed and failing:
            raise ValueError(f"overall pass is true but criterion {failing[0]!r} fails")
        if not self.passed and self.criteria and not failing:
            raise ValueError("overall pass is false but every criterion passes")
        expected = (info.context or {}).get("criteria") if isinstance(info.context, dict) else None
        if expected is not None:
            got = [c.name for c in self.criteria]
            if got != list(expected):
                raise ValueError(
                    f"criteria must be exactly {list(expected)!r}, one verdict each, in this order; got {got!r}"
                )
        return self

    @property
    def unverified(self) -> tuple[str, ...]:
        """Citations that could not be found in the transcript (set by ``judge_verdict``)."""
        return self._unverified

    def criterion(self, name: str) -> CriterionVerdict:
        """The verdict on the criterion *name*."""
        for c in self.criteria:
            if c.name == name:
                return c
        raise KeyError(f"no criterion {name!r} in the verdict; criteria: {[c.name for c in self.criteria]}")


def validate_verdict(data: str | dict[str, Any], criteria: Sequence[str] | None = None) -> Verdict:
    """Parse and validate a verdict; raises ``pydantic.ValidationError`` or ``ValueError`` (bad JSON)."""
    context = {"criteria": list(criteria)} if criteria is not None else None
    if isinstance(data, str):
        data = extract_json(data)
    return Verdict.model_validate(data, context=context)


_FENCE = re.compile(r"```(?:json)?\s*\n(.*?)```", re.DOTALL)


def extract_json(text: str) -> dict[str, Any]:
    """The JSON object in *text*: the whole text, else a fenced ``json`` block, else the span from
    the first ``{`` to the last ``}`` (for endpoints that cannot do structured output).

    Raises ``ValueError`` naming why when there is no JSON object.
    """
    stripped = text.strip()
    candidates = [stripped]
    candidates.extend(m.group(1).strip() for m in _FENCE.finditer(text))
    first, last = text.find("{"), text.rfind("}")
    if 0 <= first < last:
        candidates.append(text[first : last + 1])
    error = "the answer is empty" if not stripped else "the answer holds no JSON object"
    for c in candidates:
        try:
            value = json.loads(c)
        except (json.JSONDecodeError, RecursionError) as exc:
            if c is stripped:
                error = f"the answer is not valid JSON: {exc}"
            continue
        if isinstance(value, dict):
            return value
        error = f"the answer is JSON but not an object (a {type(value).__name__})"
    raise ValueError(error)


def validation_messages(exc: Exception) -> list[str]:
    """One line per problem of a failed validation, ``path: message``, for the retry prompt."""
    if isinstance(exc, pydantic.ValidationError):
        out = []
        for e in exc.errors(include_url=False):
            loc = ".".join(str(p) for p in e.get("loc", ())) or "verdict"
            msg = str(e.get("msg", "invalid")).removeprefix("Value error, ")
            out.append(f"{loc}: {msg}")
        return out
    return [str(exc)]


def verdict_json_schema() -> dict[str, Any]:
    """The JSON schema of ``Verdict`` as the model sees it (aliases: ``pass``)."""
    return Verdict.model_json_schema(by_alias=True)
