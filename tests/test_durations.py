"""renamer/durations.py: a duration is a whole positive number and h, d or w, nothing else."""

from __future__ import annotations

import datetime as dt

import pytest

from renamer.durations import parse_duration, shown_duration


@pytest.mark.parametrize(("text", "hours"), [("12h", 12), ("30d", 720), ("2w", 336), ("1h", 1),
                                             ("36500d", 876000)])
def test_each_unit(text: str, hours: int) -> None:
    duration = parse_duration(text)
    assert duration == dt.timedelta(hours=hours)
    assert parse_duration(shown_duration(duration)) == duration


@pytest.mark.parametrize("value", ["30", 30, "0d", "00d", "-1d", "+1d", "1.5d", "30D", "30 d", " 30d", "30d ",
                                   "30days", "1m", "1s", "1y", "d", "", "36501d", "5300w", None, True, 30.0,
                                   ["30d"], {"d": 30}, "３０d", "30d\n"])
def test_anything_else_is_refused(value: object) -> None:
    assert parse_duration(value) is None


def test_written_back_in_the_largest_unit() -> None:
    assert [shown_duration(dt.timedelta(hours=h)) for h in (12, 24, 36, 168, 720)] == ["12h", "1d", "36h", "1w",
                                                                                      "30d"]
