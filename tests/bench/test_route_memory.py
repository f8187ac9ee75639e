"""bench_ingest's resident memory: a route measured in a process of its own, over the runtimes' imports."""

import pytest

from bench import route_memory


@pytest.mark.slow
def test_a_route_is_measured_in_its_own_process():
    found = route_memory.measure("minilm-torch", 8)
    assert isinstance(found, dict), found
    assert found["route"] == "minilm-torch"
    assert 20 < found["loaded"] < 2000  # MiniLM's 90 MB of float32 weights, not the runtimes
    assert found["peak"] >= found["after"] > 0


def test_a_route_that_cannot_run_is_one_line_never_a_crash():
    found = route_memory.measure("no-such-route", 1)
    assert isinstance(found, str) and "no-such-route" in found and "\n" not in found
