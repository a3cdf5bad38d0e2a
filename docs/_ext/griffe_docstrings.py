"""Griffe extensions for the API reference: each ``assert_*`` documented as the function it is,
and the few reStructuredText habits of the docstrings shown as Markdown.

``agenteval_assert.assertions`` makes every ``assert_X`` with one factory call,
``assert_X = _assertion(checks.check_X, <returns>, "<what it returns>")``, so static analysis
sees attributes without docstrings and the reference would list nothing. This extension turns
each of them into a function: the parameters of its check (with their annotations, so the
signature links to the model), the return annotation of the ``<returns>`` helper, and the
docstring the factory gives it at run time (the check's summary, returns, raises).
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|class|meth|attr|mod):`([\w.]+)`")
_LITERAL_MARKER = re.compile(r"(?m)(\S)::$")  # reST "Example::" before an indented block


def _markdown(text: str) -> str:
    """The few reStructuredText habits of our docstrings, in Markdown: a role becomes code (a
    link when it names a full path, so that a strict build checks it), ``Example::`` loses a
    colon (the indented block after it is code in Markdown too)."""
    text = _ROLE.sub(lambda m: f"[`{m[1]}`][{m[1]}]" if "." in m[1] else f"`{m[1]}`", text)
    return _LITERAL_MARKER.sub(r"\1:", text)


class ReStructuredTextHabits(griffe.Extension):
    """Rewrite reST roles and literal-block markers in every docstring of the package."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name != "agenteval_assert":
            return
        todo: list[griffe.Object] = [pkg]
        while todo:
            obj = todo.pop()
            if obj.docstring is not None:
                obj.docstring.value = _markdown(obj.docstring.value)
            todo.extend(m for m in obj.members.values() if not m.is_alias)


class AssertionFunctions(griffe.Extension):
    """Replace the ``assert_X = _assertion(...)`` attributes by documented functions."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name != "agenteval_assert":
            return
        module = pkg["assertions"]
        runtime = importlib.import_module("agenteval_assert.assertions")
        for name in runtime.__all__:
            attr = module.members.get(name)
            if not isinstance(attr, griffe.Attribute) or not isinstance(attr.value, griffe.ExprCall):
                continue  # a real function (documented as is), or another name
            check_expr, returns_expr = attr.value.arguments[0], attr.value.arguments[1]
            check = pkg["checks"][str(check_expr).rsplit(".", 1)[-1]]
            returns = module[str(returns_expr)]
            doc = _markdown(inspect.cleandoc(getattr(runtime, name).__doc__ or ""))
            func = griffe.Function(
                name,
                lineno=attr.lineno,
                endlineno=attr.endlineno,
                parameters=griffe.Parameters(*(
                    griffe.Parameter(p.name, annotation=p.annotation, kind=p.kind, default=p.default)
                    for p in check.parameters
                )),
                returns=returns.returns,
            )
            func.docstring = griffe.Docstring(
                doc, lineno=attr.lineno, parent=func,
                parser=check.docstring.parser if check.docstring else None,
                parser_options=check.docstring.parser_options if check.docstring else None,
            )
            module.set_member(name, func)
