"""Derivations an answer writes out: "0.07 = $0.34 − $0.28", "360.51% = (($1,271 − $276) /
$276) × 100", "273 million = 6,332 − 6,059".

The expression is read by a small recursive-descent parser (numbers, + − × * / ÷ and
parentheses; nothing is ever executed) and compared with the stated result at the
result's precision. A percent result may be written with or without × 100, and
percentages inside the expression may be read as written or as hundredths ("(32.0% −
31.8%) × 100"), and a lone figure in parentheses as grouped or as negative ("−114 − (71)"). Scale words ("million", "thousand") and currency signs are read as
written: the result and its operands are compared in the answer's own unit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from engine.grounding.figures import Found

# A stated result: a signed number with its currency, scale word or %.
_SCALE = r"(?:[ \u00a0]?(?:million|thousand|billion|bn|mn|k|m)\b)?"
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_RESULT = re.compile(
    rf"[-−–]?\s?[$€£]?\s?\(?[-−–]?(?:{_NUMBER})\)?{_SCALE}\s?%?",
    re.IGNORECASE,
)
_EXPR_CHARS = re.compile(rf"(?:(?<=\d)\s?(?:million|thousand|billion|bn|mn)\b|[\s$€£%()+\-−–×*/÷]|{_NUMBER})+", re.I)
_TOKEN = re.compile(rf"\s*(?:(?P<num>{_NUMBER})(?P<pct>\s?%)?|(?P<op>[-−–+×*/÷()]))")
_NOISE = re.compile(r"[$€£]|\b(?:million|thousand|billion|bn|mn)\b", re.IGNORECASE)
CONSTANTS = frozenset({100.0, 1e3, 1e6, 1e9})  # "× 100" of a percentage, "/ 1,000,000" of a unit: nothing to trace
_BRACKETS = str.maketrans("[]", "()")
MAX_DIVISOR = 12  # "/ 2" of an average of two: a count, no figure to trace


@dataclass(slots=True, frozen=True)
class Stated:
    """One derivation an answer writes: its result's span and value, its expression's span, and whether it holds."""

    result: tuple[int, int]
    expression: tuple[int, int]
    expression_text: str
    stated: float  # the result as written, magnitude
    actual: float  # the expression's value, in the result's unit (×100 for a percent result)
    holds: bool
    percent: bool
    constants: tuple[tuple[int, int], ...]  # spans of "100" and average counts: not operands
    decimals: int = 0  # of the stated result

    def divides(self) -> bool:
        """Whether the expression is one figure divided by another ("39,784 / 3,313")."""
        return bool(re.fullmatch(r"[^/+×*÷−-]+\s*[/÷]\s*[^/+×*÷−-]+", self.expression_text.strip()))

    def actual_text(self) -> str:
        """The expression's value, written one digit finer than the stated result: "17.70%"."""
        whole = abs(self.actual - round(self.actual)) < 1e-9
        text = f"{self.actual:,.0f}" if whole else f"{self.actual:,.{self.decimals + 1}f}"
        return f"{text}%" if self.percent else text


class _Parser:
    """expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*; unary := '-' unary | atom."""

    def __init__(self, tokens: list[tuple[str, float, bool, int, int]], percent_as_fraction: bool) -> None:
        self.tokens, self.i, self.fraction = tokens, 0, percent_as_fraction

    def peek(self) -> str | None:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, float, bool, int, int]:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def expr(self) -> float:
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()[0]
            right = self.term()
            value = value + right if op == "+" else value - right
        return value

    def term(self) -> float:
        value = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()[0]
            right = self.unary()
            if op == "/":
                if right == 0:
                    raise ValueError("division by zero")
                value /= right
            else:
                value *= right
        return value

    def unary(self) -> float:
        if self.peek() == "-":
            self.take()
            return -self.unary()
        if self.peek() == "+":
            self.take()
            return self.unary()
        if self.peek() == "(":
            self.take()
            value = self.expr()
            if self.peek() != ")":
                raise ValueError("unbalanced")
            self.take()
            return value
        if self.peek() == "n":
            _, value, percent, _, _ = self.take()
            return value / 100 if percent and self.fraction else value
        raise ValueError("not arithmetic")


_OPS = {"−": "-", "–": "-", "×": "*", "÷": "/"}


def _tokens(text: str, offset: int) -> list[tuple[str, float, bool, int, int]] | None:
    """(kind, value, percent, start, end) of each token; None when the text is not arithmetic."""
    clean = _NOISE.sub(lambda m: " " * len(m.group()), text)
    out: list[tuple[str, float, bool, int, int]] = []
    pos = 0
    while pos < len(clean):
        if clean[pos:].strip() == "":
            break
        m = _TOKEN.match(clean, pos)
        if m is None or m.end() == pos:
            return None
        if m.group("num"):
            value = float(m.group("num").replace(",", ""))
            out.append(("n", value, bool(m.group("pct")), offset + m.start("num"), offset + m.end("num")))
        else:
            op = m.group("op")
            out.append((_OPS.get(op, op), 0.0, False, offset + m.start("op"), offset + m.end("op")))
        pos = m.end()
    return out


def _accounting(tokens: list[tuple[str, float, bool, int, int]]) -> list[tuple[str, float, bool, int, int]]:
    """The tokens with a lone number in parentheses read as a report writes a negative one:
    "−114 − (71)" is −114 − (−71). Grouping one figure says nothing, so an annotator's "(71)" is −71."""
    out = list(tokens)
    for i in range(len(out) - 2):
        if out[i][0] == "(" and out[i + 1][0] == "n" and out[i + 2][0] == ")":
            out[i + 1] = ("n", -out[i + 1][1], *out[i + 1][2:])
    return out


def _evaluate(tokens: list[tuple[str, float, bool, int, int]], fraction: bool) -> float | None:
    parser = _Parser(tokens, fraction)
    try:
        value = parser.expr()
    except (ValueError, IndexError, OverflowError):
        return None
    return value if parser.i == len(tokens) else None


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without surrounding spaces, trailing operators or parentheses that open or close nothing."""
    while True:
        while start < end and (text[start].isspace() or text[start] in "+×*/÷"):
            start += 1
        while end > start and (text[end - 1].isspace() or text[end - 1] in "+-−–×*/÷("):
            end -= 1
        piece = text[start:end]
        if piece.count("(") < piece.count(")") and piece.endswith(")"):
            end -= 1
        elif piece.count("(") > piece.count(")") and piece.startswith("("):
            start += 1
        else:
            return start, end


def _year_count(tokens: list[tuple[str, float, bool, int, int]]) -> list[tuple[int, int]]:
    """Spans of "/ (2019 − 2017 + 1)": the number of years an average is over, no figures to trace."""
    kinds = "".join(t[0] if t[0] != "n" else ("y" if 1900 <= t[1] <= 2100 else "n") for t in tokens)
    out = []
    for match in re.finditer(r"/\(y-y\+n\)", kinds):
        one = tokens[match.start() + 6]
        if one[1] == 1:
            out += [(t[3], t[4]) for t in tokens[match.start() + 2 : match.end() - 1] if t[0] == "n"]
    return out


def _constants(tokens: list[tuple[str, float, bool, int, int]]) -> tuple[tuple[int, int], ...]:
    out = _year_count(tokens)
    for i, (kind, value, percent, start, end) in enumerate(tokens):
        if kind != "n" or percent:
            continue
        if value == 0:  # a "—" cell written as 0: no figure to trace, and it adds nothing
            out.append((start, end))
            continue
        before = tokens[i - 1][0] if i else ""
        after = tokens[i + 1][0] if i + 1 < len(tokens) else ""
        if value in CONSTANTS and "*" in (before, after) or before == "/" and value in CONSTANTS:
            out.append((start, end))
        elif before == "/" and value == int(value) and 2 <= value <= MAX_DIVISOR and i >= 2 and tokens[i - 2][0] == ")":
            out.append((start, end))
        elif value == 1 and before == "-" and after in (")", "") and any(t[0] == "/" for t in tokens[:i]):
            # "(462 / 810 − 1) × 100", "126 / 67 − 1": a percentage change's one
            out.append((start, end))
        elif value == 1 and before in ("", "(") and after in ("/", "-"):
            out.append((start, end))  # "1 / 91.60": a rate's reciprocal; "(1 − 15%) × …": the rest of a share
        elif abs(value) == 1 and ("*" in (before, after) or before == "-" and i >= 2 and tokens[i - 2][0] == "*"):
            out.append((start, end))  # "(30584 × -1) / 531822": a sign, no figure
    return tuple(out)


def _result_value(text: str) -> tuple[float, int, bool] | None:
    """(magnitude, decimals written, percent) of a written result."""
    m = re.search(_NUMBER, text)
    if m is None:
        return None
    digits = m.group()
    decimals = len(digits) - digits.find(".") - 1 if "." in digits else 0
    return float(digits.replace(",", "")), decimals, "%" in text


def _holds(stated: float, tolerance: float, percent: bool, values: list[float]) -> tuple[bool, float]:
    """Whether one reading of the expression rounds, or is cut, to the stated result ("16.93%" for
    16.938%: the digits written are the actual's); the reading shown otherwise."""
    candidates = []
    for value in values:
        candidates.append(abs(value))
        if percent:
            candidates.append(abs(value) * 100)  # "17.7% = 16.6 / 93.8"
    slack = tolerance * (1 + 1e-6) + 1e-12
    for value in candidates:
        cut = math.floor(value / (2 * tolerance) + 1e-9) * 2 * tolerance  # the actual to the digits written
        if abs(value - stated) <= slack or abs(cut - stated) <= slack * 1e-3:
            return True, value
    return False, min(candidates, key=lambda v: abs(v - stated))


def stated_derivations(answer: str) -> list[Stated]:
    """Every "result = expression" (or "expression = result") the answer writes; square
    brackets group as parentheses do ("[(a + b) / 2] − [(b + c) / 2]")."""
    written, answer = answer, answer.translate(_BRACKETS)  # same length: the spans stay the answer's
    out: list[Stated] = []
    for eq in re.finditer(r"=", answer):
        left = _side(answer, eq.start(), backwards=True)
        right = _side(answer, eq.end(), backwards=False)
        if left is None or right is None:
            continue
        for result, expression in ((left, right), (right, left)):
            found = _one(answer, result, expression)
            if found is not None:
                out.append(replace(found, expression_text=" ".join(written[slice(*found.expression)].split())))
                break
    return out


def _side(answer: str, at: int, *, backwards: bool) -> tuple[int, int] | None:
    if backwards:
        line_start = max(answer.rfind("\n", 0, at) + 1, answer.rfind("=", 0, at) + 1)
        match = None
        for m in _EXPR_CHARS.finditer(answer, line_start, at):
            match = m
        if match is None or match.end() != at:
            return None
        span = _trim(answer, match.start(), match.end())
        if span[0] > 0 and answer[span[0] - 1] in ".,":  # part of a number written otherwise ("0,07")
            return None
    else:
        m = _EXPR_CHARS.match(answer, at)
        if m is None:
            return None
        end = m.end()
        nxt = answer.find("=", at)
        if 0 <= nxt < end:
            end = nxt
        span = _trim(answer, at, end)
        if span[1] < len(answer) - 1 and answer[span[1]] in ".," and answer[span[1] + 1].isdigit():
            return None
    return span if span[0] < span[1] else None


def _one(answer: str, result: tuple[int, int], expression: tuple[int, int]) -> Stated | None:
    result_text = answer[result[0] : result[1]]
    if _RESULT.fullmatch(result_text.strip()) is None:
        return None
    tokens = _tokens(answer[expression[0] : expression[1]], expression[0])
    if not tokens or sum(1 for t in tokens if t[0] == "n") < 2 or not any(t[0] in "+-*/" for t in tokens):
        return None
    stated = _result_value(result_text)
    if stated is None:
        return None
    magnitude, decimals, percent = stated
    tolerance = 0.5 * 10.0**-decimals
    readings = (_evaluate(tokens, False), _evaluate(tokens, True), _evaluate(_accounting(tokens), False))
    values = [v for v in readings if v is not None]
    if not values:
        return None
    holds, actual = _holds(magnitude, tolerance, percent, values)
    text = " ".join(answer[expression[0] : expression[1]].split())
    return Stated(result, expression, text, magnitude, actual, holds, percent, _constants(tokens), decimals)


def role(stated: list[Stated], item: Found) -> tuple[Stated, str] | None:
    """The derivation a figure of the answer belongs to, and its part: "result", "operand" or "constant"."""
    for s in stated:
        if s.result[0] <= item.start < s.result[1] or item.start <= s.result[0] < item.end:
            return s, "result"
        if s.expression[0] <= item.start < s.expression[1]:
            inside = any(a <= item.start < b or item.start <= a < item.end for a, b in s.constants)
            return s, "constant" if inside else "operand"
    return None
