"""Rows of a net the label match alone does not give."""

from engine.tools.tables.plan_rows import net_of_two

LABELS = ["Trading assets – derivative receivables", "Trading liabilities – derivative payables", "Net revenue"]


def test_a_net_of_a_row_beside_its_opposite_is_asked_of_two_rows():
    assert net_of_two("What were net trading assets from derivatives?", LABELS[0], LABELS)
    assert not net_of_two("What were trading assets from derivatives?", LABELS[0], LABELS)  # no net asked
    assert not net_of_two("What was net revenue?", "Net revenue", LABELS)  # the row states its net
    assert not net_of_two("What were net trading assets?", LABELS[0], LABELS[:1])  # no opposite row
