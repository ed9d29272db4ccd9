"""renamer/entry.py: a stop while Python imports renamer's CLI is answered as one after it is
(t37-break, finding 13: a KeyboardInterrupt traceback, or a silent 143 or 129)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

# The stop lands while `renamer.cli` is being imported, as a CI cancel right at the start does.
_STOPPED_IN_IMPORT = """import importlib.abc, os, signal, sys
class Stop(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "renamer.cli":
            os.kill(os.getpid(), signal.{name})
        return None
sys.meta_path.insert(0, Stop())
from renamer.entry import main
main()
"""


def _defaults() -> None:
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_stop_during_the_cli_import_is_aborted_130(name: str) -> None:
    done = subprocess.run([sys.executable, "-c", _STOPPED_IN_IMPORT.replace("{name}", name), "--version"],
                          capture_output=True, text=True, check=False, preexec_fn=_defaults,
                          env={**os.environ, "NO_COLOR": "1"})
    assert (done.returncode, done.stderr) == (130, "renamer: aborted\n")
    assert done.stdout == ""


def test_nohup_keeps_a_hangup_ignored_through_the_import() -> None:
    def ignored() -> None:
        _defaults()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    done = subprocess.run([sys.executable, "-c", _STOPPED_IN_IMPORT.replace("{name}", "SIGHUP"), "--version"],
                          capture_output=True, text=True, check=False, preexec_fn=ignored)
    assert done.returncode == 0 and done.stdout.startswith("renamer, version"), done.stderr


def test_the_handlers_go_back_to_their_defaults_for_the_boundary() -> None:
    probe = ("import signal\nfrom renamer import entry\n"
             "import renamer.cli\nrenamer.cli.main = lambda: print(signal.getsignal(signal.SIGTERM) == signal.SIG_DFL, "
             "signal.getsignal(signal.SIGHUP) == signal.SIG_DFL)\nentry.main()\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False,
                          preexec_fn=_defaults)
    assert done.stdout.split() == ["True", "True"], done.stdout + done.stderr


def test_the_package_imports_nothing_before_the_entry_sets_its_handlers() -> None:
    """t38-break finding 16: `renamer/__init__.py` imported typing and renamer.errors, ~20 ms in which
    a SIGTERM ended the process as 143 with nothing said (the console script runs the package first,
    then entry.py). It imports nothing at run time now; its names come on first use."""
    code = ("import sys; before = set(sys.modules); import renamer; "
            "print(sorted(set(sys.modules) - before)); print(renamer.RenamerError.__module__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["['__future__', 'renamer']", "renamer.errors"], done.stdout
