"""The console script's and `python -m renamer`'s entry: a stop while Python imports renamer.

`renamer.cli` takes a few tenths of a second to import (click, the command modules), and its
boundary sets the handlers that turn Ctrl-C, SIGTERM and SIGHUP into "renamer: aborted", exit 130.
A stop before then (a CI cancel or `timeout` right at the start, a Ctrl-C at once) printed a
KeyboardInterrupt traceback, or ended the process as 143 or 129 with nothing said (t37-break,
finding 13). Here the stopping signals (each where the process has it at its default: `nohup`
keeps SIGHUP ignored) raise during the import, which is answered as everywhere else; then they go
back to their defaults for the boundary to take over. Nothing is written before the boundary runs.
"""

from __future__ import annotations

import signal
import sys

TYPE_CHECKING = False  # (typing is not imported before the handlers are set: renamer/__init__.py)
if TYPE_CHECKING:
    from types import FrameType

_STOPS = (signal.SIGTERM, signal.SIGHUP)


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> None:
    """Import the CLI with the stops answered, then run it (`renamer.cli.main`)."""
    taken = [number for number in _STOPS if signal.getsignal(number) is signal.SIG_DFL]
    try:
        for number in taken:
            signal.signal(number, _stop)
        from renamer.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("renamer: aborted\n")
        sys.stderr.flush()
        raise SystemExit(130) from None
    finally:
        for number in taken:
            signal.signal(number, signal.SIG_DFL)
    run()
