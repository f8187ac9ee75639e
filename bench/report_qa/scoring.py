"""TAT-QA's published metric, and where the gold stands in a free-text answer.

**The published metric** (Zhu et al., ACL 2021, section 5; the numeracy-focused F1 of
DROP, Dua et al. 2019, with the answer's scale taken into account):

- Every answer is a bag of spans. A span is normalised to tokens: lower case,
  punctuation and the articles a/an/the dropped, and every number written as
  ``round(x, 2)`` with four decimals ("1,568.6" → ``1568.6000``, "(3.1)" → ``-3.1000``,
  "$0.5" → ``0.5000``). Scale words become one token each: thousand, million, billion,
  percent ("%", "per cent", "millions", "m", "bn" and "k" after a number included).
- The gold's ``scale`` is part of each gold span (appended unless the span already
  carries a scale word, as "$19.1 million" does). A prediction carries the scale it writes. An answer with the wrong scale,
  or none when the gold has one, does not match.
- EM: the two bags hold the same normalised spans (order free, multi-span included).
- F1: each gold span is paired with at most one predicted span (the pairing of best
  total); a pair scores the token F1 of its two spans, or 0 when the gold span holds a
  number and the predicted one holds none of its numbers; F1 is the mean over the larger
  bag. For arithmetic and count answers F1 is EM, as in the paper.

**The prediction read from a free-text answer.** The answer's *statement* is its first
paragraph, without footnote marks, bracketed citations, Markdown emphasis, quote lines
(``>``) and table rows (lines holding ``|``): a quote or a row is evidence, not a statement.
For arithmetic, count and numeric span questions the prediction is the statement's first
figure, with its sign and scale; for multi-span questions the statement's parts
(separated by ``;`` or line breaks when it has any, else by ``, `` and " and "); for text spans the statement.
*Answer figures* skip years (1900-2100 written bare) unless the question asks for a year,
and the other figures the question itself gives.
A figure is negative when written ``-x``, ``−x`` or ``(x)``, or when a word of decrease
("decreased by", "a decline of", "fell", "lower") leads to it in its clause.

**Where the gold stands** (for the trust classes, ``bench/report_qa/trust.py``), compared
by value, not by spelling:

- *stated directly*: a numeric gold equals the statement's first answer figure (every
  gold figure is among the statement's figures, for multi-span); a text gold's tokens run
  in the statement's tokens;
- *in the answer*: the same, anywhere in the answer text (quotes and rows included).

Two figures are equal when the signs agree and the values agree to the precision written:
within half a unit of the gold's last digit, or of the answer's when it writes fewer digits
and is within 0.5% of the gold (3.6 for 3.61, not 18 for 17.7). A gold with decimals may be the
result cut rather than rounded at its last digit (FinQA writes 822.06 for 822.0667 and 6.88 for
6.887): an answer within one unit of that digit above it, and within 0.5%, is the gold too (822.07;
not 2.78 for 2.7, nor 6 for 5). Scales: an explicit scale
word must give the same amount (412 million = 412,000,000; 412 thousand is not 412 million;
17.7% is not 17.7 when the gold is not a percentage); a figure written without any scale
word is read in the report's scale, and counted as ``scale_implicit``.

This module reads figures itself, apart from ``engine/grounding/figures.py``: a measure
that shared the engine's figure reader would share its mistakes and hide them.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from dataclasses import dataclass

from pydantic import BaseModel

from bench.report_qa.dataset import Question

MULTIPLIER = {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "percent": 1.0}
_DIGITS = {1.0: 0, 1e3: 3, 1e6: 6, 1e9: 9}
_SCALE_WORD = {
    "%": "percent", "percent": "percent", "thousand": "thousand", "thousands": "thousand", "million": "million",
    "millions": "million", "billion": "billion", "billions": "billion",
}  # fmt: skip
_SCALE_ABBR = {"k": "thousand", "m": "million", "mn": "million", "mm": "million", "bn": "billion"}  # after a number
_SCALE_OF = _SCALE_WORD | _SCALE_ABBR
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_ARTICLES = frozenset({"a", "an", "the"})
_PUNCT = str.maketrans("", "", string.punctuation + "’‘“”–—−")
_EDGE = "\"'’‘“”.,;:!?*_`"
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
_FIGURE_RE = re.compile(
    r"(?<![\w.,])(?:[$€£¥](?=\())?(?P<open>\()?(?:(?P<sign>[-−–+])(?=[$€£¥]?\d))?(?P<cur>[$€£¥])?\s?(?P<num>"
    + _NUM
    + r")(?![\d])"
    r"(?P<close>\))?(?:\s?(?P<scale>%|(?i:per\s?cent|percent|thousands?|millions?|billions?|bn|mn|mm|m|k)\b))?"
)
_DECREASE_RE = re.compile(
    r"\b(?:decreas\w*|declin\w*|fell|fall\w*|drop\w*|down|lower\w*|reduc\w*)(?:\s+(?:by|of))?"
    r"(?:\s+(?:approximately|about|roughly|around|nearly|some))?\s*[$€£]?\s*$",
    re.I,
)
_YEAR_QUESTION_RE = re.compile(
    r"\b(?:which|what)\s+(?:\w+\s+){0,2}?(?:years?|fiscal years?|periods?)\b|\bin which\b|^\s*when\b", re.I
)
_MARKS_RE = re.compile(r"\[[^\[\]\n]{0,200}\]|⁽[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾|\*\*|__|`")
_LIST_MARK_RE = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
_STRONG_PARTS_RE = re.compile(r"\s*(?:;|\n)\s*")
_PARTS_RE = re.compile(r"\s*(?:,\s|\band\b)\s*", re.I)


# ---- figures -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Figure:
    value: float  # signed, in the written unit ("412 million" → 412.0)
    scale: str  # "", thousand, million, billion or percent
    decimals: int  # digits written after the decimal point
    text: str
    bare: bool = False  # written without sign, currency, decimals, separators or scale

    def is_year(self) -> bool:
        return self.bare and 1900 <= self.value <= 2100 and self.value == int(self.value)


def _figure(match: re.Match[str], text: str) -> Figure:
    raw = match.group("num")
    value = float(raw.replace(",", ""))
    decimals = len(raw.split(".")[1]) if "." in raw else 0
    scale = _SCALE_OF.get(re.sub(r"\s", "", (match.group("scale") or "").lower()), "")
    parenthesised = bool(match.group("open") and match.group("close"))
    before = text[max(0, match.start() - 40) : match.start()]
    negative = (match.group("sign") or "+") != "+" or parenthesised or bool(_DECREASE_RE.search(before))
    bare = not (match.group("sign") or match.group("cur") or match.group("scale") or "," in raw or "." in raw)
    return Figure(-value if negative else value, scale, decimals, match.group(0).strip(), bare)


def figures(text: str) -> list[Figure]:
    """Every figure of ``text`` in order, with its sign and scale."""
    return [_figure(m, text) for m in _FIGURE_RE.finditer(text)]


def gold_figure(span: str, scale: str) -> Figure | None:
    """The gold span as one figure (its ``scale`` field applied), or None for a text answer."""
    found = figures(span)
    rest = _FIGURE_RE.sub("", span).translate(_PUNCT).strip()
    if len(found) != 1 or rest:
        return None
    figure = found[0]
    if not figure.scale and scale:
        figure = Figure(figure.value, scale, figure.decimals, figure.text)
    return figure


def answer_figures(text: str, question: str) -> list[Figure]:
    """The figures of ``text`` that can be an answer: no year unless the question asks for one (then
    every year), and no other figure the question gives ("exceed $2,000 million")."""
    given = {(abs(f.value), f.scale) for f in figures(question)}
    asks_year = _YEAR_QUESTION_RE.search(question) is not None
    return [f for f in figures(text) if (asks_year if f.is_year() else (abs(f.value), f.scale) not in given)]


def _close(a: float, a_decimals: int, b: float, b_decimals: int) -> bool:
    """``a`` (the answer's) equals ``b`` (the gold's) to the precision written."""
    eps = 1e-9 * max(1.0, abs(b))
    if abs(a - b) <= 0.5 * 10.0**-b_decimals + eps:
        return True
    if b_decimals and a_decimals >= b_decimals and abs(b) < abs(a) <= abs(b) + 10.0**-b_decimals + eps:
        return abs(a - b) <= 0.005 * abs(b)  # a gold cut, not rounded, at its last digit: 822.06 for 822.0667
    return a_decimals < b_decimals and abs(a - b) <= 0.5 * 10.0**-a_decimals + eps and abs(a - b) <= 0.005 * abs(b)


def same_figure(answer: Figure, gold: Figure) -> bool:
    """Whether the answer's figure is the gold's, sign, scale and rounding respected."""
    if (answer.value < 0) != (gold.value < 0) and answer.value != 0 and gold.value != 0:
        return False
    if "percent" in (answer.scale, gold.scale):
        if answer.scale not in ("", gold.scale):
            return False
        return _close(answer.value, answer.decimals, gold.value, gold.decimals)
    gold_scaled = gold.value * MULTIPLIER[gold.scale]
    if answer.scale and not gold.scale and _close(answer.value, answer.decimals, gold.value, gold.decimals):
        return True  # "163,047 thousand" for a gold "163,047" that states no scale, of a table "(in thousands)"
    if answer.scale:
        amount = answer.value * MULTIPLIER[answer.scale]
        digits = answer.decimals - _DIGITS[MULTIPLIER[answer.scale]]
        return _close(amount, digits, gold_scaled, gold.decimals - _DIGITS[MULTIPLIER[gold.scale]])
    if _close(answer.value, answer.decimals, gold.value, gold.decimals):
        return True  # the bare number, read in the report's scale
    written_in_full = abs(answer.value) >= MULTIPLIER[gold.scale] > 1  # "412,000,000" for 412 million
    return written_in_full and _close(
        answer.value, answer.decimals, gold_scaled, gold.decimals - _DIGITS[MULTIPLIER[gold.scale]]
    )


# ---- the statement of an answer -----------------------------------------------------------


def clean(answer: str) -> str:
    """The answer without footnote marks, bracketed citations, emphasis and a leading "Answer:"."""
    text = _MARKS_RE.sub("", answer)
    return re.sub(r"^\s*(?:final\s+)?answer\s*:\s*", "", text, flags=re.I)


def statement(answer: str) -> str:
    """The answer's first paragraph, without quote lines and table rows."""
    paragraph = re.split(r"\n\s*\n", clean(answer).strip(), maxsplit=1)[0]
    lines = [_LIST_MARK_RE.sub("", line).strip() for line in paragraph.splitlines()]
    lines = [line for line in lines if line and not line.startswith(">") and "|" not in line]
    return "\n".join(line.lstrip("#").strip() for line in lines)


def _words_to_digits(text: str) -> str:
    return re.sub(
        r"\b(" + "|".join(_NUMBER_WORDS) + r")\b", lambda m: str(_NUMBER_WORDS[m.group(1).lower()]), text, flags=re.I
    )


def is_numeric(question: Question) -> bool:
    """Whether the gold is figures (arithmetic, count, or every span one figure)."""
    if question.answer_type in ("arithmetic", "count"):
        return True
    return all(gold_figure(s, question.scale) is not None for s in question.spans)


def _gold_figures(question: Question) -> list[Figure]:
    out = [gold_figure(s, question.scale) for s in question.spans]
    return [f for f in out if f is not None]


def prediction(answer: str, question: Question) -> list[str]:
    """The answer's prediction as spans, read as the module docstring says."""
    said = statement(answer)
    if question.answer_type == "count":
        said = _words_to_digits(said)
    if question.answer_type == "multi-span":
        parts = _STRONG_PARTS_RE.split(said) if _STRONG_PARTS_RE.search(said) else _PARTS_RE.split(said)
        return [p for p in parts if p.strip()]
    if is_numeric(question):
        found = answer_figures(said, question.question)
        return [figure_span(found[0])] if found else []
    return [said] if said else []


def figure_span(figure: Figure) -> str:
    number = f"{figure.value:.{figure.decimals}f}"
    return f"{number} {figure.scale}".strip()


# ---- the published metric -----------------------------------------------------------------


def _number(token: str) -> tuple[float, str] | None:
    """A token read as a number with the scale it carries ("$1,568.6" → 1568.6, "(3.1)" → -3.1, "17%" → percent)."""
    match = re.fullmatch(r"[$€£¥]?(\()?([-−–+])?[$€£¥]?(" + _NUM + r")(\))?(%|m|mn|mm|bn|k)?", token)
    if not match or bool(match.group(1)) != bool(match.group(4)):
        return None
    value = float(match.group(3).replace(",", ""))
    negative = (match.group(2) or "+") != "+" or bool(match.group(1))
    return (-value if negative else value), _SCALE_OF.get(match.group(5) or "", "")


def tokens(span: str, scale: str = "") -> list[str]:
    """The normalised tokens of one span, ``scale`` appended when the span carries no scale word."""
    text = re.sub(r"per\s+cent\b", "percent", span.lower())
    text = re.sub(r"(?<=\d)\s+%", "%", text)
    text = re.sub(r"(?<=[a-z])[-/](?=[a-z])", " ", text)
    out: list[str] = []
    for raw in text.split():
        token = raw.strip(_EDGE)
        number = _number(token) or _number(token.strip("()"))
        if number is not None:
            value, carried = number
            out.append(f"{round(value, 2):.4f}")
            if carried:
                out.append(carried)
            continue
        word = token.translate(_PUNCT)
        if word in _SCALE_WORD:
            out.append(_SCALE_WORD[word])
        elif word in _SCALE_ABBR and out and _is_number_token(out[-1]):
            out.append(_SCALE_ABBR[word])
        elif word and word not in _ARTICLES:
            out.append(word)
    if scale and not set(out) & set(_SCALE_WORD.values()):
        out.append(scale)
    return out


def _is_number_token(token: str) -> bool:
    return re.fullmatch(r"-?\d+\.\d{4}", token) is not None


def _token_f1(predicted: list[str], gold: list[str]) -> float:
    common = sum((Counter(predicted) & Counter(gold)).values())
    if not predicted or not gold:
        return float(predicted == gold)
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(gold)
    return 2 * precision * recall / (precision + recall)


def _pair_score(predicted: list[str], gold: list[str]) -> float:
    gold_numbers = {t for t in gold if _is_number_token(t)}
    if gold_numbers and not gold_numbers & {t for t in predicted if _is_number_token(t)}:
        return 0.0
    return _token_f1(predicted, gold)


def _best_pairing(scores: list[list[float]]) -> float:
    """The largest total of a one-to-one pairing of rows (gold) and columns (predicted)."""
    columns = len(scores[0]) if scores else 0
    best: dict[int, float] = {0: 0.0}  # used columns (bit mask) → best total so far
    for row in scores:
        step: dict[int, float] = {}
        for used, total in best.items():
            step[used] = max(step.get(used, 0.0), total)  # this gold span stays unpaired
            for col in range(columns):
                if not used & (1 << col):
                    key = used | (1 << col)
                    step[key] = max(step.get(key, 0.0), total + row[col])
        best = step
    return max(best.values(), default=0.0)


class Metric(BaseModel):
    em: float
    f1: float


def em_f1(predicted: list[str], question: Question) -> Metric:
    """TAT-QA's EM and F1 of the predicted spans against the gold of ``question``."""
    gold_bags = [tokens(s, question.scale) for s in question.spans]
    predicted_bags = [tokens(s) for s in predicted if tokens(s)]
    if not predicted_bags:
        return Metric(em=0.0, f1=0.0)
    em = float(sorted(" ".join(b) for b in gold_bags) == sorted(" ".join(b) for b in predicted_bags))
    if question.answer_type in ("arithmetic", "count"):
        return Metric(em=em, f1=em)
    predicted_bags = predicted_bags[:12]  # the pairing is exponential in the predicted spans
    scores = [[_pair_score(p, g) for p in predicted_bags] for g in gold_bags]
    f1 = _best_pairing(scores) / max(len(gold_bags), len(predicted_bags))
    return Metric(em=em, f1=round(f1, 4))


# ---- where the gold stands in an answer ---------------------------------------------------


def text_in(gold: str, text: str) -> bool:
    needle, hay = tokens(gold), tokens(text)
    n = len(needle)
    return n > 0 and any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


def _span_in(span: str, scale: str, text: str, found: list[Figure]) -> bool:
    gold = gold_figure(span, scale)
    if gold is None:
        return text_in(span, text)
    return any(same_figure(f, gold) for f in found)


def stated_directly(answer: str, question: Question) -> bool:
    """The gold is the answer's statement (see the module docstring)."""
    said = statement(answer)
    if question.answer_type == "count":
        said = _words_to_digits(said)
    found = answer_figures(said, question.question)
    if question.answer_type == "multi-span":
        return all(_span_in(s, question.scale, said, found) for s in question.spans)
    if is_numeric(question):
        golds = _gold_figures(question)
        if not golds:  # an arithmetic gold that is not a figure (rare): compare as text
            return text_in(question.spans[0], said)
        return bool(found) and same_figure(found[0], golds[0])
    return text_in(question.spans[0], said)


def in_answer(answer: str, question: Question) -> bool:
    """The gold stands anywhere in the answer, quotes and table rows included."""
    text = clean(answer)
    if question.answer_type == "count":
        text = _words_to_digits(text)
    found = figures(text)
    return all(_span_in(s, question.scale, text, found) for s in question.spans)


def scale_implicit(answer: str, question: Question) -> bool:
    """A numeric gold with a scale, stated directly by its bare number ("412" for 412 million)."""
    if not question.scale or not is_numeric(question) or not stated_directly(answer, question):
        return False
    found = answer_figures(statement(answer), question.question)
    golds = _gold_figures(question)
    if not found or not golds or found[0].scale or not golds[0].scale:
        return False
    return _close(found[0].value, found[0].decimals, golds[0].value, golds[0].decimals)
