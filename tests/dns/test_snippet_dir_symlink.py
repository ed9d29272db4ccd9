"""snippet_dir given through a symlink to the folder the daemon's include names (DNS break-it
round 2, finding 09): the layout check compares real paths, so BIND and Unbound accept it and
the apply is answered; a symlink to another folder is still refused. dnsmasq alike: its conf-dir
compared by real path, renamer's files read through it still renamer's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.testing.resolvers import (
    Lab,
    answers,
    dns,
    move_gateway,
    start_bind_lab,
    start_lab,
    start_unbound_lab,
)

STARTERS: dict[str, Callable[[Path, tuple[str, ...]], Lab]] = {"bind": start_bind_lab, "unbound": start_unbound_lab,
                                                               "dnsmasq": start_lab}


@pytest.mark.parametrize("backend", sorted(STARTERS))
def test_a_snippet_dir_reached_through_a_symlink_is_the_folder_it_names(run: Callable[..., Any], tmp_path: Path,
                                                                       backend: str) -> None:
    lab = STARTERS[backend](tmp_path / "lab", ("ns-fv",))
    try:
        link = lab.root / "renamer-link"
        link.symlink_to(lab.instances["ns-fv"].snippet_dir)
        lab.write_resolvers(ns_fv={"snippet_dir": str(link)})
        applied = dns(run, lab, "apply", "--resolvers", "all")
        assert applied.exit_code == 0, applied.stdout + applied.stderr
        assert answers(lab, "fv-gw.fv.lan.", "A")["ns-fv"] == ("10.251.0.1",)
        move_gateway(lab)  # renamer's own files, read through the include's spelling, stay renamer's
        planned = dns(run, lab, "plan", "--resolvers", "all")
        assert planned.exit_code == 0 and "hand-written" not in planned.stdout, planned.stdout + planned.stderr
        moved = dns(run, lab, "apply", "--resolvers", "all")
        assert moved.exit_code == 0, moved.stdout + moved.stderr
        assert answers(lab, "fv-gw.fv.lan.", "A")["ns-fv"] == ("10.251.0.2",)
        elsewhere = lab.root / "elsewhere"
        elsewhere.mkdir()
        other = lab.root / "other-link"
        other.symlink_to(elsewhere)
        lab.write_resolvers(ns_fv={"snippet_dir": str(other)})
        refused = dns(run, lab, "apply", "--resolvers", "all")
        assert refused.exit_code == 3 and ("would not be loaded" in refused.stderr
                                           or "is not read by dnsmasq" in refused.stderr), refused.stdout + refused.stderr
    finally:
        lab.stop()
