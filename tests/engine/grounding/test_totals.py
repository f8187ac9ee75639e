import pytest

from engine.grounding.totals import is_total_label


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
