from pathlib import Path

import pytest

SALES = """date,region,product,units,revenue
2025-01-15,France,Pipettes,10,1000.5
2025-02-10,France,Microscopes,2,5000
2025-04-03,Benelux,Pipettes,7,700
2025-07-21,France,Pipettes,4,400
2025-08-02,Benelux,Centrifuges,1,9000
2025-09-30,United Kingdom,Pipettes,3,300
"""


@pytest.fixture
def write_csv(tmp_path):
    def write(name: str, text: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def sales_csv(write_csv):
    return write_csv("sales_2025.csv", SALES)
