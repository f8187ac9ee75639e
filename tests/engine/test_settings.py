"""The live-follow settings: how often a run writes its stream, how often a follower reads it."""

import pytest
from pydantic import ValidationError

from engine.settings import Settings


def test_the_stream_write_and_follow_intervals_default_and_read_from_the_environment():
    default = Settings.from_env({})
    assert (default.stream_write_s, default.live_follow_s) == (0.5, 0.25)
    given = Settings.from_env({"STREAM_WRITE_S": "1.5", "LIVE_FOLLOW_S": "0.4"})
    assert (given.stream_write_s, given.live_follow_s) == (1.5, 0.4)


@pytest.mark.parametrize("name", ["STREAM_WRITE_S", "LIVE_FOLLOW_S"])
@pytest.mark.parametrize("value", ["0", "-1", "fast"])
def test_an_interval_that_is_no_positive_number_is_refused(name, value):
    with pytest.raises(ValidationError):
        Settings.from_env({name: value})
