"""A key in a file the sweep skips is a kept key, even where git grep -I never lists the file
(break-it round 7, finding 8).

`vars.yml` holding `hosts: {pug: 1}` and a NUL byte is binary to git, so the key index never read
it: the play's `{{ hosts.pug }}` followed the one other `hosts.pug` (vars2.yml) and was rewritten,
exit 0. A skipped file (a NUL, UTF-16 or UTF-32 with or without a BOM) is read for its keys too
(decoded, bounded), and they keep their names: a reader of only such a key is kept with it, one
that may read it beside a renamed one is a `key-reference` residual, never rewritten.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

PLAY = '- hosts: all\n  vars_files: [vars.yml]\n  tasks:\n    - debug: {msg: "{{ hosts.pug }}"}\n'
SKIPPED = [
    pytest.param(b"hosts:\n  pug: 1\n# \x00\n", id="the-report-a-nul"),
    pytest.param(b"\x00\nhosts:\n  pug: 1\n", id="a-nul-first"),
]
WIDE = [
    pytest.param("utf-16", id="utf-16-bom"),
    pytest.param("utf-16-le", id="utf-16-no-bom"),
    pytest.param("utf-32", id="utf-32-bom"),
]


@pytest.mark.parametrize("data", SKIPPED)
def test_a_reader_of_a_skipped_file_s_key_beside_a_renamed_one_is_a_residual(
        data: bytes, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"play.yml": PLAY, "vars.yml": data, "vars2.yml": "hosts: {pug: 2}\n"},
                config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "key-reference" in done.stdout and "vars.yml:" in done.stdout
    assert (root / "play.yml").read_text() == PLAY
    assert (root / "vars2.yml").read_text() == "hosts: {pug: 2}\n"  # held back with it (finding 10)
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize("data", SKIPPED)
def test_a_reader_of_only_a_skipped_file_s_key_keeps(data: bytes, repo: Callable[..., Path],
                                                     run: Callable[..., Result]) -> None:
    root = repo({"play.yml": PLAY, "vars.yml": data}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert "key-of-record" in done.stdout, done.stdout
    assert (root / "play.yml").read_text() == PLAY
    assert (root / "vars.yml").read_bytes() == data


@pytest.mark.parametrize("codec", WIDE)
def test_a_wide_file_s_key_moves_with_its_readers(codec: str, repo: Callable[..., Path],
                                                  run: Callable[..., Result]) -> None:
    """UTF-16/32 text is read and written in its encoding (break-it round 17, finding 18): its key is
    a key like any other, renamed with the reader."""
    root = repo({"play.yml": PLAY, "vars.yml": "hosts:\n  pug: 1\n".encode(codec)}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "play.yml").read_text() == PLAY.replace("hosts.pug", "hosts.wolf")
    assert (root / "vars.yml").read_bytes() == "hosts:\n  wolf: 1\n".encode(codec)
    assert run(root, "verify").exit_code == 0
