def test_a_line_of_a_tables_head_read_as_a_row_is_told_apart():
    from engine.grounding.units import is_head_row

    assert is_head_row("|  | Domestic |  |\n|  | 2019 | 2018 |")
    assert is_head_row("|  | Domestic |  |\n|  | September 30, |  |")
    assert not is_head_row("|  | Domestic |  |\n| Discount rate | 4.00% | 3.75% |")
    assert not is_head_row("|  | 2019 |\n|  | 1,950 |")  # an unlabelled total holds figures
    assert not is_head_row("Revenue rose in 2019.")


def test_sentences_under_a_line_comparing_two_periods_are_about_its_first():
    from engine.grounding import Evidence
    from engine.grounding.units import evidence_units, located

    text = (
        "Fiscal Year 2019 Compared with Fiscal Year 2018\n\n"
        "Key changes were: • Cost of revenue increased $4.6 billion. • Research expenses increased $2.2 billion.\n\n"
        "Fiscal Year 2018 Compared with Fiscal Year 2017\n\n"
        "Research expenses increased $1.7 billion, due to cloud engineering. In 2016, they fell."
    )
    units = evidence_units(Evidence(n=1, tool="search_docs", text=text, source="report.md"))
    periods = {u.text: u.period for u in units}
    assert periods["• Research expenses increased $2.2 billion."] == "2019"  # a bullet written inline is a unit
    assert periods["Research expenses increased $1.7 billion, due to cloud engineering."] == "2018"
    assert periods["In 2016, they fell."] == ""  # a sentence naming its own year keeps it
    # a passage cut out of that part, with the line in its location only
    part = Evidence(n=2, tool="search_docs", text="Research rose.", source="r.md",
                    location="top > Fiscal Year 2018 Compared with Fiscal Year 2017")  # fmt: skip
    assert [u.period for u in evidence_units(part)] == ["2018"]
    assert located(part.location) == ("top > 2018", "2018") and located("top > Costs") == ("top > Costs", "")
