"""renamer/clock.py: now in UTC, or RENAMER_NOW (a date or a UTC time), anything else refused."""

from __future__ import annotations

import datetime as dt

import pytest

from renamer.clock import at_start_of, faked, now, shown_time
from renamer.errors import ConfigError


def test_the_real_clock_without_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RENAMER_NOW", raising=False)
    before = dt.datetime.now(dt.UTC)
    found = now()
    assert found.tzinfo is not None and before <= found <= dt.datetime.now(dt.UTC)


@pytest.mark.parametrize(("value", "expected"), [
    ("2026-11-05", dt.datetime(2026, 11, 5, tzinfo=dt.UTC)),
    ("2026-11-05T12:30:00Z", dt.datetime(2026, 11, 5, 12, 30, tzinfo=dt.UTC)),
    ("2026-11-05T12:30:00+00:00", dt.datetime(2026, 11, 5, 12, 30, tzinfo=dt.UTC)),
])
def test_the_variable_sets_it(monkeypatch: pytest.MonkeyPatch, value: str, expected: dt.datetime) -> None:
    monkeypatch.setenv("RENAMER_NOW", value)
    assert now() == expected


@pytest.mark.parametrize("value", ["tomorrow", "2026-02-30", "2026-11-05T12:30:00", "2026-11-05T12:30:00+01:00",
                                   "1730800000"])
def test_a_time_that_is_not_plainly_utc_is_refused(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("RENAMER_NOW", value)
    with pytest.raises(ConfigError, match=r"^RENAMER_NOW: expected a date like 2026-11-05 or a UTC time"):
        now()


def test_shown() -> None:
    assert shown_time(at_start_of(dt.date(2026, 11, 4))) == "2026-11-04"
    assert shown_time(dt.datetime(2026, 11, 4, 12, tzinfo=dt.UTC)) == "2026-11-04 12:00 UTC"


def test_a_faked_clock_is_named_with_its_distance_from_the_real_one(monkeypatch: pytest.MonkeyPatch) -> None:
    real = dt.datetime(2026, 10, 12, 9, 30, tzinfo=dt.UTC)
    monkeypatch.delenv("RENAMER_NOW", raising=False)
    assert faked(real) is None
    monkeypatch.setenv("RENAMER_NOW", "2026-11-21")
    assert faked(real) == ("RENAMER_NOW=2026-11-21 sets the clock (40 days after the real clock, 2026-10-12 09:30 "
                           "UTC): transitional aliases are served or retired by it, not by today; unset it unless "
                           "this is meant")
    monkeypatch.setenv("RENAMER_NOW", "2026-10-12T04:30:00Z")
    assert faked(real) is not None and "(5 hours before the real clock, " in str(faked(real))
