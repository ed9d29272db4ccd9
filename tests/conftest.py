from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from renamer.cli import cli
from tests.testing.repos import Files, make_repo

# The longest tests (real daemons killed over and over, ansible-playbook runs): started first, so
# that under `pytest -n auto` they run beside the many short ones instead of alone at the end.
_SLOW = ("tests/dns/test_cli_dns.py::test_sigkill_during_dns_apply", "tests/sweep/test_crash.py::",
         "tests/dns/test_ansible", "tests/dns/test_applies.py::test_rollback_of_a_batched_apply",
         "tests/cli/test_native_first_pass.py", "tests/cli/test_precommit.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(_SLOW))  # stable: the order otherwise kept


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str
    stdout_bytes: bytes


def _invoke(repo: Path, *args: str) -> Result:
    runner = CliRunner()
    previous = os.getcwd()
    os.chdir(repo)
    try:
        result = runner.invoke(cli, list(args), env={"NO_COLOR": "1"}, catch_exceptions=False)
    finally:
        os.chdir(previous)
    stdout = result.stdout_bytes.decode("utf-8", "replace")  # a diff may hold Latin-1 bytes
    return Result(result.exit_code, stdout, result.stderr, result.stdout_bytes)


@pytest.fixture
def run() -> Callable[..., Result]:
    """Run the CLI in-process in a folder: run(repo, "sweep", "--dry-run")."""
    return _invoke


@pytest.fixture
def repo(tmp_path: Path) -> Callable[..., Path]:
    def build(files: Files, **kwargs: object) -> Path:
        return make_repo(tmp_path / "repo", files, **kwargs)  # type: ignore[arg-type]

    return build


@pytest.fixture
def lab(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Three real dnsmasq instances on loopback; stopped after the test."""
    from tests.testing.resolvers import start_lab

    started = start_lab(tmp_path / "lab")
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def sshd(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A real OpenSSH server on loopback with throwaway keys; stopped after the test."""
    from tests.testing.sshd import start_sshd

    server = start_sshd(tmp_path / "sshd")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _private_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain folders keep renamer's state under XDG_STATE_HOME: a throwaway one per test."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
