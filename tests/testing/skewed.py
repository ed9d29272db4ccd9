"""`python -m tests.testing.skewed MINUTES ARGS...`: renamer ARGS run with this process's clock
shifted by MINUTES (negative: behind), as on a controller whose clock is off. Every reading of
the wall clock in the process is shifted (`datetime.datetime.now`/`utcnow`, `time.time`), so
nothing renamer decides may depend on it (the fault being tested; docs/reliability.md)."""

from __future__ import annotations

import datetime
import sys
import time

_REAL_DATETIME = datetime.datetime
_REAL_TIME = time.time


def skew(minutes: float) -> None:
    offset = datetime.timedelta(minutes=minutes)

    class Skewed(_REAL_DATETIME):
        @classmethod
        def now(cls, tz: datetime.tzinfo | None = None) -> Skewed:
            moment = _REAL_DATETIME.now(tz) + offset
            return cls.combine(moment.date(), moment.timetz())

        @classmethod
        def utcnow(cls) -> Skewed:
            return cls.now(datetime.UTC).replace(tzinfo=None)

    datetime.datetime = Skewed  # type: ignore[misc]  # before renamer is imported: it sees this one
    time.time = lambda: _REAL_TIME() + offset.total_seconds()


def main() -> None:
    skew(float(sys.argv[1]))
    from renamer.cli import main as renamer  # only once the clock is shifted: it reads datetime.datetime

    sys.argv = ["renamer", *sys.argv[2:]]
    renamer(sys.argv[1:])  # exits with renamer's status


if __name__ == "__main__":
    main()
