"""Chunking: paragraphs up to a size, walked once, a cap per file."""

import re

from engine.rag.chunking import CHUNK_CHARS, OVERLAP_CHARS, chunk_file, chunk_sections
from engine.rag.readers import Section


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_a_huge_paragraph_is_cut_into_chunks_that_lose_nothing():
    code = "".join(f"value_{i} = compute(alpha, beta) + {i} * gamma  # no sentence end\n" for i in range(20_000))
    chunks = chunk_sections("dump.md", [Section(code, "top")])
    assert all(len(c.text) <= CHUNK_CHARS + 200 for c in chunks)  # a chunk, plus its overlap
    assert chunks[0].text.startswith("value_0 =") and chunks[-1].text.endswith("# no sentence end")
    # every line is in a chunk (overlaps repeat some): nothing was dropped by the cursor
    joined = "\n".join(c.text for c in chunks)
    assert all(f"value_{i} =" in joined for i in range(0, 20_000, 997))


def test_sentence_ends_are_preferred_and_whitespace_between_pieces_is_dropped():
    para = ("A sentence of some length that ends here. " * 60).strip()
    chunks = chunk_sections("s.md", [Section(para, "top")])
    assert len(chunks) > 2 and all(not c.text.startswith(" ") for c in chunks)
    assert squeeze("".join(c.text for c in chunks)).count("endshere.") >= para.count("ends here.")


def test_the_chunks_of_a_file_stop_at_the_cap():
    block = "x" * (CHUNK_CHARS * 50)  # one line without a break: 50 chunks
    whole = chunk_file("dump.md", [Section(block, "top")])
    assert not whole.capped and len(whole.chunks) == 50
    capped = chunk_file("dump.md", [Section(block, "top")], max_chunks=7)
    assert capped.capped and [c.chunk_id for c in capped.chunks] == [f"dump.md#{i}" for i in range(7)]
    assert capped.chunks == whole.chunks[:7]


def test_a_chunk_opens_with_the_last_whole_sentence_of_the_chunk_before():
    filler = "The plan permits awards in several forms to eligible directors and employees. " * 9
    last = "On April 30, 2018, the shareholders approved an amendment to increase by 2,000,000 the shares authorized."
    after = "With the amendment, approximately 4,650,000 shares are authorized for issuance under the plan. " * 3
    chunks = chunk_sections("plan.md", [Section(f"{filler}{last}\n\n{after}", "top")])
    assert len(chunks) == 2 and chunks[0].text.endswith(last)
    assert chunks[1].text.startswith(f"{last}\n\nWith")  # not "by 2,000,000 the shares …", which lost its verb


def test_a_last_sentence_longer_than_the_overlap_is_not_repeated_in_part():
    long = "On April 30, 2018, the shareholders approved an amendment to the plan to increase by 2,000,000 the number "
    long += "of shares of common stock authorized for issuance under the plan and to extend its term through 2028."
    filler = "The plan permits awards in several forms to eligible directors and employees. " * 8
    chunks = chunk_sections(
        "plan.md", [Section(f"{filler}{long}\n\n{'With the amendment, 4,650,000 shares. ' * 5}", "top")]
    )
    assert len(long) > OVERLAP_CHARS and len(chunks) == 2 and chunks[0].text.endswith(long)
    assert chunks[1].text.startswith("With the amendment")


REPORT_HEAD = "|  | Fiscal Year |  |\n|---|---|---|\n| ($ in millions) | 2019 | 2018 |"


def test_every_piece_of_a_long_table_opens_with_its_head_so_its_rows_keep_their_years():
    rows = "\n".join(f"| Item {i} | {i * 100:,} | {i * 90:,} |" for i in range(1, 60))
    text = (
        f"Gross Profit\n\n{REPORT_HEAD}\n{rows}\n\nGross profit in fiscal year 2019 increased. " + "Sales rose. " * 60
    )
    chunks = [c.text for c in chunk_sections("report.md", [Section(text, "top")])]
    held = [c for c in chunks if "| Item " in c]
    assert len(held) >= 3
    assert all(c.startswith(REPORT_HEAD + "\n| Item ") for c in held)  # the head once, then rows
    assert all(c.count("Fiscal Year") == 1 for c in held)
    joined = "\n".join(held)
    assert all(f"| Item {i} |" in joined for i in range(1, 60))  # nothing lost
    # the rows a chunk carries over from a table stand under the head too, before the paragraph after it
    last = next(c for c in chunks if "Gross profit in fiscal year 2019" in c)
    assert last.startswith(REPORT_HEAD) or "| Item" not in last


def test_a_table_head_is_its_lines_to_the_rule_and_the_lines_of_years_after_it():
    from engine.rag.chunking import table_head

    assert table_head(f"{REPORT_HEAD}\n| Net sales | $2,380.2 | $2,157.7 |") == REPORT_HEAD
    assert table_head("| A | 2019 |\n|---|---|\n| Revenue | 5 |") == "| A | 2019 |\n|---|---|"
    assert table_head("Revenue was 5.\n|---|") == ""  # no table opens the block
    assert table_head("| a | b |\n| c | d |") == ""  # no rule: not a Markdown table


def test_a_line_comparing_two_periods_opens_a_chunk_and_joins_its_location():
    text = (
        "Fiscal Year 2019 Compared with Fiscal Year 2018\n\nResearch expenses increased $2.2 billion or 15%.\n\n"
        "Fiscal Year 2018 Compared with Fiscal Year 2017\n\nResearch expenses increased $1.7 billion or 13%."
    )
    chunks = chunk_sections("report.md", [Section(text, "Results")])
    assert [c.location for c in chunks] == [
        "Results > Fiscal Year 2019 Compared with Fiscal Year 2018",
        "Results > Fiscal Year 2018 Compared with Fiscal Year 2017",
    ]
    assert chunks[1].text.endswith("$1.7 billion or 13%.") and "2.2 billion" not in chunks[1].text
    # a sentence that compares two years is no such line: it stays in its chunk
    plain = chunk_sections("report.md", [Section("Revenue in 2019 compared with 2018 rose 5%.\n\nCosts fell.", "")])
    assert len(plain) == 1 and plain[0].location == ""
