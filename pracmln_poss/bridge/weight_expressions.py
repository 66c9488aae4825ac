"""Evaluating pracmln weight expressions without ``eval``.

pracmln stores weights as text (``1.5``, ``log(0.9/0.1)``, ``logx(0.2)``, ``$w * 2``,
``domSize(person)``) and ``eval``s them later.  We evaluate the same language with
a whitelist over Python's ``ast``: numbers, ``+ - * / **``, parentheses and the
functions below.
"""

from __future__ import annotations

__all__ = ["evaluate_weight"]

import ast
import math
import operator
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

from ..errors import SourcePosition, WeightError


def _logx(x: float) -> float:
    return -100.0 if x == 0 else math.log(x)  # pracmln.mln.util.logx


_FUNCTIONS: Mapping[str, Callable[..., float]] = MappingProxyType({
    "log": math.log,
    "logx": _logx,
    "exp": math.exp,
    "sqrt": math.sqrt,
    "abs": abs,
})
_BINARY: Mapping[type[ast.operator], Callable[[float, float], float]] = MappingProxyType({
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
})
_UNARY: Mapping[type[ast.unaryop], Callable[[float], float]] = MappingProxyType(
    {ast.UAdd: operator.pos, ast.USub: operator.neg})


def evaluate_weight(
    text: str,
    variables: Mapping[str, str] | None = None,
    domain_size: Callable[[str], int] | None = None,
    position: SourcePosition | None = None,
) -> float:
    """The value of a pracmln weight expression.

    :raises WeightError: for anything but arithmetic on numbers and known functions.
    """
    expr = text.strip()
    for name, replacement in (variables or {}).items():
        expr = re.sub(re.escape(name) + r"\b", f"({replacement})", expr)
    if "$" in expr:
        raise WeightError(f"undefined variable in weight {text!r}", position)
    expr = re.sub(r"domSize\(\s*(\w+)\s*\)", lambda m: f"domSize({m.group(1)!r})", expr)

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return float(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            result = _BINARY[type(node.op)](ev(node.left), ev(node.right))
            if not isinstance(result, float):  # (a negative number to a fractional power is complex)
                raise WeightError(f"weight {text!r} is not a real number", position)
            return result
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](ev(node.operand))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            if node.func.id == "domSize" and domain_size and len(node.args) == 1:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    return float(domain_size(arg.value))
            fn = _FUNCTIONS.get(node.func.id)
            if fn is not None:
                return float(fn(*(ev(a) for a in node.args)))
        raise WeightError(f"weight {text!r} is not an arithmetic expression we can evaluate", position)

    try:
        tree = ast.parse(expr, mode="eval")
        value = ev(tree)
    except WeightError:
        raise
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError, TypeError) as exc:
        raise WeightError(f"cannot evaluate weight {text!r}: {exc}", position) from None
    if math.isnan(value):
        raise WeightError(f"weight {text!r} is not a number", position)
    return value
