"""Griffe extension for the API reference: document each ``assert_*`` as the function it is.

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

_ROLE = re.compile(r":(?:func|class|meth):`([\w.]+)`")


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
            doc = _ROLE.sub(r"[`\1`][\1]", inspect.cleandoc(getattr(runtime, name).__doc__ or ""))
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
