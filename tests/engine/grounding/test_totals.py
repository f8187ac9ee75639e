import pytest

from engine.grounding.totals import is_balance_label, is_total_label


@pytest.mark.parametrize(
    "label",
    [
        "Total",
        "total",
        "Total revenue",
        "Total net sales",
        "Subtotal",
        "Sub-total",
        "Grand total",
        "Net sales, total",
        "Sous-total",
        "Totaux",
        "Revenue total",
        "TOTAL ASSETS",
    ],
)
def test_total_labels(label):
    assert is_total_label(label)


@pytest.mark.parametrize("label", ["Software", "Totalview Inc.", "Other", "", "Net income", None, 2019])
def test_not_total_labels(label):
    assert not is_total_label(label)


@pytest.mark.parametrize(
    "label",
    [
        "Non-vested at December 31, 2018",
        "Balance at beginning of year",
        "Outstanding at end of period",
        "Beginning balance",
        "Warranty reserve end of period",
        "Outstanding as of 2019",
        "Solde à l'ouverture",
    ],
)
def test_balance_labels(label):
    assert is_balance_label(label)


@pytest.mark.parametrize("label", ["Granted(1)", "Vested", "Forfeited", "Exercised", "Revenue", "Total", None, 2019])
def test_movements_are_no_balance(label):
    assert not is_balance_label(label)
