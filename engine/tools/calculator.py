"""Arithmetic through a whitelisted AST walk. Nothing is ever executed."""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, Field

from engine.errors import ToolError
from engine.tools.bounded import BoundedTool
from engine.tools.messages import say

MAX_EXPRESSION_CHARS = 500
MAX_EXPONENT = 10_000
MAX_RESULT_BITS = 13_000  # about 3,900 digits: under Python's 4,300-digit limit for printing an integer
MAX_FACTORIAL = 500
MAX_NODES = 300

_BINARY = MappingProxyType(
    {
        ast.Add: operator.add,
        ast.Sub: operator.sub,
        ast.Mult: operator.mul,
        ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv,
        ast.Mod: operator.mod,
        ast.Pow: operator.pow,
    }
)
_UNARY = MappingProxyType({ast.UAdd: operator.pos, ast.USub: operator.neg})
_CONSTANTS = MappingProxyType({"pi": math.pi, "e": math.e, "tau": math.tau})


def _factorial(n: float) -> int:
    if n != int(n) or n < 0:
        raise ToolError(say("calc_factorial_whole"))
    if n > MAX_FACTORIAL:
        raise ToolError(say("calc_factorial_limit", limit=MAX_FACTORIAL))
    return math.factorial(int(n))


_FUNCTIONS: Mapping[str, Any] = MappingProxyType(
    {
        "sqrt": math.sqrt,
        "log": math.log,
        "ln": math.log,
        "log10": math.log10,
        "log2": math.log2,
        "exp": math.exp,
        "sin": math.sin,
        "cos": math.cos,
        "tan": math.tan,
        "asin": math.asin,
        "acos": math.acos,
        "atan": math.atan,
        "floor": math.floor,
        "ceil": math.ceil,
        "abs": abs,
        "round": round,
        "min": min,
        "max": max,
        "factorial": _factorial,
    }
)


def _check_size(value: Any) -> Any:
    if isinstance(value, bool):
        raise ToolError(say("calc_boolean"))
    if isinstance(value, complex):
        raise ToolError(say("calc_complex"))
    if isinstance(value, int) and value.bit_length() > MAX_RESULT_BITS:
        raise ToolError(say("calc_too_large"))
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        raise ToolError(say("calc_not_finite"))
    return value


def _short(value: Any) -> str:
    if isinstance(value, int) and value.bit_length() > 200:
        return say("calc_digits", n=len(str(abs(value))))
    text = f"{value:.10g}" if isinstance(value, float) else str(value)
    return text[:40]


def _eval(node: ast.AST) -> Any:
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow):
            if abs(right) > MAX_EXPONENT:
                raise ToolError(say("calc_exponent_limit", limit=MAX_EXPONENT))
            if isinstance(left, int) and isinstance(right, int) and right > 0:
                if left.bit_length() * right > MAX_RESULT_BITS:
                    raise ToolError(say("calc_too_large"))
        try:
            return _check_size(_BINARY[type(node.op)](left, right))
        except ZeroDivisionError:
            raise ToolError(say("calc_division_by_zero")) from None
        except OverflowError:
            raise ToolError(say("calc_too_large")) from None
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _check_size(_UNARY[type(node.op)](_eval(node.operand)))
    if isinstance(node, ast.Name):
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        raise ToolError(say("calc_unknown_name", name=node.id))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        func = _FUNCTIONS.get(node.func.id)
        if func is None:
            raise ToolError(say("calc_unknown_function", name=node.func.id, functions=", ".join(_FUNCTIONS)))
        args = [_eval(a) for a in node.args]
        try:
            return _check_size(func(*args))
        except (ValueError, TypeError) as exc:
            shown = ", ".join(_short(a) for a in args[:4]) + (", …" if len(args) > 4 else "")
            raise ToolError(say("calc_undefined", name=node.func.id, shown=shown, detail=str(exc)[:120])) from None
        except OverflowError:
            raise ToolError(say("calc_too_large")) from None
    raise ToolError(say("calc_not_allowed", node=type(node).__name__))


def evaluate(expression: str) -> int | float:
    """Evaluate ``expression`` or raise ToolError saying how to fix it."""
    text = expression.strip().replace("^", "**").replace("×", "*").replace("÷", "/")
    if not text:
        raise ToolError(say("calc_empty"))
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ToolError(say("calc_too_long", limit=MAX_EXPRESSION_CHARS))
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ToolError(say("calc_invalid", text=text[:80])) from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ToolError(say("calc_too_complex"))
    result = _eval(tree)
    if isinstance(result, float) and result.is_integer() and abs(result) < 1e15:
        return int(result)
    return result


class CalculatorArgs(BaseModel):
    expression: str = Field(..., description=say("arg_calculator_expression"))


class Calculator(BoundedTool):
    name = "calculator"
    description = say("describe_calculator")
    Args = CalculatorArgs
    always_on = True
    computes = True
    operands_in_input = True

    def run(self, args: CalculatorArgs) -> str:
        result = evaluate(args.expression)
        if isinstance(result, float):
            return f"{result:.10g}"
        return str(result)
