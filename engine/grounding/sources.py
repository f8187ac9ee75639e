"""Sources an answer names, and which of them the run never returned.

An answer names a source as ``[policy.md]``, ``(source: policy.md)``, ``From policy.md``
or ``D'après policy.md``, or just writes a file name. A name is real when it equals an
evidence source case-insensitively, on its base name or its relative path; a misspelt
variant of a real name is not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.grounding.figures import file_names, inside, merge_spans
from engine.grounding.models import Evidence

_EXT = r"(?i:md|txt|pdf|html?|csv|tsv|json|xml|ya?ml|docx?|xlsx?|pptx?)"
FILE_RE = re.compile(rf"(?<![\w./\\-])[\w./\\-]*\w\.{_EXT}(?![\w])")
_BRACKET_RE = re.compile(r"\[([^\[\]\n]{1,200})\](?!\()")
_PAREN_RE = re.compile(r"\(((?i:sources?|src)\s?:[^()\n]{1,200})\)")
_LEAD_RE = re.compile(r"(?=[sSfFaAdD])(?<!\w)(?i:sources?\s?:|from|according to|d['’]après|selon)\s+([\w./\\-]+)")
_LABEL_RE = re.compile(r"^(?i:sources?|src)\s?:\s*")
_PARTS_RE = re.compile(r"\s*(?:[,;·|]|\s(?:and|et)\s)\s*")
_STRIP = " \t\"'`*_«»“”‘’()"


def _norm(name: str) -> str:
    name = name.strip(_STRIP).replace("\\", "/").lower()
    while name.startswith("./"):
        name = name[2:]
    return name


def named_sources(answer: str) -> list[str]:
    """The source names an answer cites, as written, in order, once each."""
    names: list[str] = []
    brackets = [*_BRACKET_RE.finditer(answer), *(_PAREN_RE.finditer(answer) if "(" in answer else ())]
    for match in sorted(brackets, key=lambda m: m.start()):
        body = match.group(1)
        labelled = bool(_LABEL_RE.match(body))
        parts = _PARTS_RE.split(_LABEL_RE.sub("", body))
        for i, part in enumerate(parts):
            part = part.strip(_STRIP)
            if FILE_RE.fullmatch(part) or (labelled and i == 0 and part and not part.isdigit()):
                names.append(part)
    taken = merge_spans([m.span() for m in brackets])
    led = []
    for match in _LEAD_RE.finditer(answer):
        if FILE_RE.fullmatch(match.group(1)) and not inside(taken, match.start(1)):
            names.append(match.group(1))
            led.append(match.span(1))
    taken = merge_spans(taken + led)
    for start, end in file_names(answer):
        if not inside(taken, start):
            names.append(answer[start:end])
    seen: set[str] = set()
    return [n for n in names if not (_norm(n) in seen or seen.add(_norm(n)))]  # type: ignore[func-returns-value]


def _known(evidence: Iterable[Evidence]) -> tuple[set[str], set[str]]:
    """(file names and paths, loose names without punctuation: tools and extension-less stems).

    A file name a tool printed (a document list, a search result header) counts as
    returned by the run, as does every evidence source."""
    exact: set[str] = set()
    loose: set[str] = set()
    for ev in evidence:
        loose.add(_loose(ev.tool))
        names = [ev.text[a:b] for a, b in file_names(ev.text)] if "." in ev.text else []
        for name in [ev.source, *names] if ev.source else names:
            parts = _norm(name).split("/")
            exact.update("/".join(parts[i:]) for i in range(len(parts)))
            loose.add(_loose(parts[-1].rsplit(".", 1)[0]))
    return exact, loose


def _loose(name: str) -> str:
    return re.sub(r"[\W_]+", "", name.lower())


def is_real(name: str, exact: set[str], loose: set[str]) -> bool:
    norm = _norm(name)
    if FILE_RE.fullmatch(norm):
        parts = norm.split("/")
        return any("/".join(parts[i:]) in exact for i in range(len(parts)))
    return _loose(norm) in loose


def invented_sources(answer: str, evidence: Iterable[Evidence]) -> tuple[list[str], list[str]]:
    """(real, invented) source names of an answer."""
    exact, loose = _known(evidence)
    real, invented = [], []
    for name in named_sources(answer):
        (real if is_real(name, exact, loose) else invented).append(name)
    return real, invented
