"""A sentence in a comment is no key path (break-it round 10, finding 10).

`# same as a roaming client. pug keeps its public IP.` in a `.tf` file was read as the path
`client.pug`: a path no key of the repo has, so it held back the key `hosts.pug` and every reader
of it (17 residuals on a real repo). A dot followed by a blank ends a sentence, not a path, in
every place the key-reference reader looks: HCL's `#`, `//` and `/* */` comments and heredocs,
and the trailing comment of an Ansible `when:` value. A path written as code in a comment
(`local.net.hosts.pug.ip`, no blank in it) still follows its key.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW, PUG_CONFIG, make_repo, snapshot

NET = "hosts:\n  pug: {ip: x}\n"
READER = "  ip = local.net.hosts.pug.ip\n"


def _tf(comment: str) -> str:
    return f'locals {{\n  net = yamldecode(file("net.yml"))\n{comment}{READER}}}\n'


CASES = [
    pytest.param(_tf("  # same as a roaming client. pug keeps its public IP.\n"), id="hash-comment"),
    pytest.param(_tf("  // the IPv4 above. pug is a dual-stack host\n"), id="slash-comment"),
    pytest.param(_tf("  /* the IPv4 above.\tpug is dual-stack;\n     see the client.  pug's notes */\n"),
                 id="block-comment-tab-and-two-blanks"),
    pytest.param(_tf('  motd = <<EOT\n  Welcome, client. pug keeps its IP.\n  EOT\n'), id="heredoc"),
    pytest.param(_tf("  # e.g. pug, i.e. pug\n"), id="abbreviations"),
]


@pytest.mark.parametrize("main", CASES)
def test_a_sentence_in_a_comment_holds_nothing_back(tmp_path: Path, run: Callable[..., Result],
                                                     main: str) -> None:
    root = make_repo(tmp_path / "r", {"net.yml": NET, "main.tf": main}, config=PUG_CONFIG, allowlist=PUG_ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    files = snapshot(root)
    assert files["net.yml"] == b"hosts:\n  wolf: {ip: x}\n"
    assert files["main.tf"] == main.replace("pug", "wolf").encode()
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_when_value_s_trailing_sentence_holds_nothing_back(tmp_path: Path, run: Callable[..., Result]) -> None:
    task = ("- name: pin\n  debug: {msg: x}\n"
            "  when: net.hosts.pug.ip is defined  # a roaming client. pug keeps its IP\n")
    root = make_repo(tmp_path / "r", {"group_vars/all.yml": "net:\n  " + NET.replace("\n  ", "\n    "),
                                       "tasks/main.yml": task},
                     config=PUG_CONFIG, allowlist=PUG_ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    files = snapshot(root)
    assert files["group_vars/all.yml"] == b"net:\n  hosts:\n    wolf: {ip: x}\n"
    assert files["tasks/main.yml"] == task.replace("pug", "wolf").encode()
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_path_written_as_code_in_a_comment_still_follows(tmp_path: Path, run: Callable[..., Result]) -> None:
    main = _tf("  # reads local.net.hosts.pug.ip, as below\n")
    root = make_repo(tmp_path / "r", {"net.yml": NET, "main.tf": main}, config=PUG_CONFIG, allowlist=PUG_ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert snapshot(root)["main.tf"] == main.replace("pug", "wolf").encode()
    assert run(root, "verify", "--strict").exit_code == 0
