"""Shell parameter defaults (issue 27, item 5): the value after `:-` is a host name, as after `:=`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = """\
version: 1
renames:
  hosts: {web01.lab.example: web11.lab.example, web01: web11}
  addresses: {10.0.0.70: 10.1.0.70}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\n"


@pytest.mark.parametrize(("line", "expected"), (
    pytest.param('HOST="${HOST:-web01.lab.example}"', 'HOST="${HOST:-web11.lab.example}"', id="fqdn-default"),
    pytest.param("H=${H:-web01}", "H=${H:-web11}", id="one-letter-variable"),
    pytest.param("H=${LLM_HOST:-web01}:8000", "H=${LLM_HOST:-web11}:8000", id="with-a-port"),
    pytest.param("H=${H:=web01}", "H=${H:=web11}", id="assign-default"),
    pytest.param("H=${H:+web01}", "H=${H:+web11}", id="alternative"),
    pytest.param("H=${H:?web01}", "H=${H:?web11}", id="error-if-unset"),
    pytest.param("ADDR=${ADDR:-10.0.0.70}", "ADDR=${ADDR:-10.1.0.70}", id="address-default"),
    pytest.param("H=${H:-web01-bmc}", "H=${H:-web01-bmc}", id="noop-a-derived-name"),
    pytest.param("H=my-web01", "H=my-web01", id="noop-part-of-a-name"),
    pytest.param("H=${H:-xweb01}", "H=${H:-xweb01}", id="noop-longer-name"),
))
def test_shell_defaults(line: str, expected: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"scripts/run.sh": f"#!/bin/sh\n{line}\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "scripts" / "run.sh").read_text() == f"#!/bin/sh\n{expected}\n"
    assert run(root, "verify").exit_code == 0
