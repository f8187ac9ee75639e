"""Footnotes as pure markdown: marks on traced figures, flags on untraced ones, nothing injectable."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from components.footnotes import anchor_id, annotate, escape, footnote_lines, invented_note, mark, unsupported_note
from engine.grounding import Evidence, check_answer
from engine.grounding.models import Citation, Figure, GroundingReport

ROOT = Path(__file__).resolve().parents[2]
HOTELS = "Hotel costs are capped at 160 euros per night in Paris and London, and 120 euros per night elsewhere."


def report_for(answer, evidence=None, question=""):
    evidence = evidence or [
        Evidence(n=1, tool="search_docs", text=HOTELS, source="travel/policy.md", location="Hotels"),
        Evidence(n=2, tool="calculator", text="391", input="17 * 23", computed=True),
    ]
    return check_answer(answer, question, evidence)


def test_no_streamlit_import():
    code = "import sys, components.footnotes; print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_marks_are_superscript_digits():
    assert mark(1) == "⁽¹⁾"
    assert mark(12) == "⁽¹²⁾"


def test_annotate_marks_found_and_flags_unsupported():
    answer = "17 * 23 = 391, and the cap is 160 euros, not 4,7 %."
    report = report_for(answer)
    assert report.unsupported == ["4,7 %"]
    assert annotate(answer, report, "en") == (
        "17 * 23 = 391⁽¹⁾, and the cap is 160 euros⁽²⁾, not :orange-background[4,7 %] :material/warning:."
    )


def test_flag_is_separated_from_a_preceding_word_or_colon():
    answer = "Total:12345 and x99 end"
    report = GroundingReport(
        figures=[Figure(text="12345", start=6, end=11, kind="number", value="12345")],
        unsupported=["12345"],
        grounding="unsupported",
    )
    assert annotate(answer, report, "en") == "Total: :orange-background[12345] :material/warning: and x99 end"


def test_figure_text_cannot_inject_markdown_through_the_flag():
    hostile = "[x](javascript:alert(1)) :red[$1$]"
    report = GroundingReport(
        figures=[Figure(text=hostile, start=0, end=len(hostile), kind="number", value="1")],
        unsupported=[hostile],
        grounding="unsupported",
    )
    out = annotate(hostile, report, "en")
    inner = out[len(":orange-background[") : out.rindex("] :material/warning:")]
    assert "[" not in inner.replace("\\[", "") and "]" not in inner.replace("\\]", "")
    assert "$" not in inner.replace("\\$", "") and ":" not in inner.replace("\\:", "")


def test_figures_in_code_are_left_alone():
    answer = "Run `limit 999` then 4,7 % here."
    report = report_for(answer)
    assert set(report.unsupported) == {"999", "4,7 %"}
    assert annotate(answer, report, "en") == "Run `limit 999` then :orange-background[4,7 %] :material/warning: here."


def test_stale_figures_do_not_corrupt_the_answer():
    report = report_for("the cap is 160 euros")
    assert annotate("something else entirely", report, "en") == "something else entirely"


def test_footnote_lines_en_and_fr():
    report = report_for("17 * 23 = 391; cap 160 euros.")
    assert footnote_lines(report, "en") == [
        "⁽¹⁾ *calculator*: “17 \\* 23 = 391”",
        "⁽²⁾ *travel/policy\\.md* (Hotels): “" + escape(HOTELS) + "”",
    ]
    assert footnote_lines(report, "fr")[1].startswith("⁽²⁾ *travel/policy\\.md* (Hotels) : « Hotel costs")


def test_footnote_quote_is_escaped_and_one_line():
    report = GroundingReport(
        citations=[Citation(n=1, source="a.md", quote="x <b>y</b>\n[l](http://e) $z$ :red[w]", evidence=1)],
        grounding="verified",
    )
    (line,) = footnote_lines(report, "en")
    assert "\n" not in line
    quote = line[line.index("“") + 1 : line.rindex("”")]
    assert re.findall(r"(?<!\\)[\[\]()<>$:]", quote) == []
    assert quote.replace("\\", "") == "x <b>y</b> [l](http://e) $z$ :red[w]"


@pytest.mark.parametrize(
    ("answer", "lang", "expected"),
    [
        ("cap 999 euros", "en", "1 figure could not be traced to a source."),
        ("cap 999 euros and 888", "en", "2 figures could not be traced to a source."),
        ("plafond 999 euros", "fr", "1 chiffre n'a pas pu être relié à une source."),
        ("plafond 999 euros et 888", "fr", "2 chiffres n'ont pas pu être reliés à une source."),
        ("cap 160 euros", "en", None),
    ],
)
def test_unsupported_note_singular_and_plural(answer, lang, expected):
    assert unsupported_note(report_for(answer), lang) == expected


def test_invented_note():
    report = report_for("See [travel/polcy.md].")
    assert invented_note(report, "en") == "Not among the sources searched: travel/polcy\\.md."
    assert invented_note(report_for("See [travel/policy.md]."), "en") is None


def test_a_derived_figure_footnote_shows_its_derivation_escaped():
    from engine.grounding.models import Citation, GroundingReport

    report = GroundingReport(
        citations=[
            Citation(
                n=1, source="table.csv", quote="Software | 1,950 | 1,538", evidence=1,
                derivation="412 = 1,950 − 1,538 (table.csv, Software, 2019 and 2018)",
            ),
            Citation(n=2, source="x.md", quote="plain", evidence=2, derivation="<b>9</b> = 4 + 5"),
        ]
    )  # fmt: skip
    first, second = footnote_lines(report, "en")
    derivation = escape("412 = 1,950 − 1,538 (table.csv, Software, 2019 and 2018)")  # rendered as written
    assert first.startswith(f"⁽¹⁾ **{derivation}**: *table\\.csv*")
    assert escape("<b>9</b>") in second and "<b>9" not in second


def test_one_mark_per_expression_on_its_result():
    """The operands of an expression the result's footnote derives need no mark of their own."""
    evidence = [Evidence(n=1, tool="calculator", text="435", input="12.5 / 100 * 3480", computed=True)]
    answer = "12.5 / 100 * 3480 = 435, so 435 is the share."
    marked = annotate(answer, report_for(answer, evidence, "What is 12.5% of 3480?"))
    assert marked.startswith("12.5 / 100 * 3480 = 435⁽¹⁾,")
    assert marked.count("⁽¹⁾") == 2  # the result again, later in a sentence, keeps its mark


def test_figures_of_different_footnotes_keep_their_marks():
    answer = "160 + 120 = 280"
    evidence = [
        Evidence(n=1, tool="search_docs", text=HOTELS, source="travel/policy.md", location="Hotels"),
        Evidence(n=2, tool="calculator", text="280", input="160 + 120", computed=True),
    ]
    # the passage's two figures share one mark, at the end of their run; the result has its own
    assert annotate(answer, report_for(answer, evidence)) == "160 + 120⁽¹⁾ = 280⁽²⁾"


def test_marks_link_to_their_footnote_anchor():
    answer = "The cap is 160 euros."
    marked = annotate(answer, report_for(answer), anchor="turn 7/<x>")
    assert anchor_id("turn 7/<x>", 1) == "fn-turn-7--x--1"
    assert marked == "The cap is 160 euros[⁽¹⁾](#fn-turn-7--x--1)."
