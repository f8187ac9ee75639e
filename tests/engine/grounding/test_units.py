def test_a_line_of_a_tables_head_read_as_a_row_is_told_apart():
    from engine.grounding.units import is_head_row

    assert is_head_row("|  | Domestic |  |\n|  | 2019 | 2018 |")
    assert is_head_row("|  | Domestic |  |\n|  | September 30, |  |")
    assert not is_head_row("|  | Domestic |  |\n| Discount rate | 4.00% | 3.75% |")
    assert not is_head_row("|  | 2019 |\n|  | 1,950 |")  # an unlabelled total holds figures
    assert not is_head_row("Revenue rose in 2019.")
