from __future__ import annotations

import math
import os
import shutil
import signal
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

from renamer.cli import cli
from tests.testing import bytecode
from tests.testing.repos import Files, make_repo
from tests.testing.terraform import require_terraform

# The longest tests (real daemons killed over and over, ansible-playbook runs), longest first:
# `pytest -n auto` hands the tests out one or two at a time in this order (pytest_configure
# below), so the long ones run side by side on every worker from the start and the many short
# ones fill in after them.
_SLOW = ("tests/dns/powerdns/test_ansible_powerdns.py::test_the_ansible_engine",
         "tests/sweep/test_crash.py::test_sigkill", "tests/dns/test_ansible_rollback.py",
         "tests/dns/test_ansible.py::test_apply_rerun", "tests/dns/test_ansible_engine.py", "tests/dns/test_ansible.py",
         "tests/dns/test_cli_dns.py::test_sigkill_during_dns_apply", "tests/dns/test_reused_apply_ids.py",
         "tests/dns/test_applies.py::test_rollback_of_a_batched_apply", "tests/cli/test_precommit.py",
         "tests/dns/test_preflight.py", "tests/dns/test_hosts_dir.py", "tests/cli/test_native_first_pass.py",
         "tests/dns/test_lock.py", "tests/dns/test_ansible_by_hand.py", "tests/dns/test_reused_apply_ids.py",
         "tests/dns/test_ansible_modules.py", "tests/dns/bind/test_bind.py::test_the_ansible_engine",
         "tests/dns/unbound/test_unbound.py::test_the_ansible_engine", "tests/dns/test_vantage.py::test_a_hand_run",
         "tests/dns/test_hosts_dir.py::test_the_ansible_engine",
         "tests/dns/powerdns/test_ansible_powerdns.py::test_a_hand_run", "tests/dns/powerdns/test_retire_powerdns.py",
         "tests/dns/powerdns/test_removed_site_powerdns.py", "tests/dns/powerdns/test_lock_race.py::test_two_applies_at_once",
         "tests/dns/test_backend_conformance.py::test_killed_while_removing_a_site",
         "tests/dns/test_bench_backends.py",  # four labs started, a dozen renamer processes
         "tests/dns/test_backend_conformance.py::test_a_hand_written_record_verify_would_fail",
         # terraform init/validate/plan, ansible-playbook and named-checkzone per case
         "tests/sweep/test_terraform_labels.py", "tests/cli/test_key_fates.py", "tests/cli/test_composed_loops.py",
         "tests/cli/test_composed_tails.py", "tests/cli/test_zone_escaped_labels.py",
         "tests/cli/test_terraform_plan_guard.py", "tests/cli/test_moved_expiry.py::test_prune_keeps_a_block", "tests/cli/test_moved_expiry.py::test_prune_keeps_a_module",
         "tests/cli/test_moved_expiry.py::test_prune_keeps_a_moved_chain", "tests/cli/test_moved_expiry.py::test_prune_needs_every",
         "tests/cli/test_moved_expiry.py::test_prune_plans_every_workspace",
         # kubectl kustomize, twice per render (13 s at load 12)
         "tests/cli/test_kube_render.py",
         "tests/cli/test_kube_identities.py::test_identity_fields_are_residuals_with_the_consequence_and_references_follow",
         # a real named (or pdns_server) per case, several applies each (DNS break-it round 2)
         "tests/dns/bind/test_bind_zones.py", "tests/dns/bind/test_bind_serials.py::test_rollback_after_a_kill",
         "tests/dns/bind/test_bind_activation.py", "tests/dns/powerdns/test_zone_kinds.py",
         # Mostly waiting, not computing (a confirm window run out, a revert's deadline, a writer
         # racing the sweep): 220 s of test_confirm.py alone; started before the short tests, their
         # waits overlap the CPU-bound ones on the spare worker (pytest_xdist_auto_num_workers below).
         "tests/dns/test_confirm.py::test_a_confirmed_apply_stays",
         "tests/dns/test_confirm.py::test_over_ssh", "tests/dns/test_confirm.py::test_a_confirm_that_stopped_short",
         "tests/dns/test_confirm.py::test_in_one_large_batch",
         "tests/dns/test_backend_conformance.py::test_a_commit_confirmed_apply_not_confirmed",
         "tests/cli/test_edits_during_the_write.py::test_a_real_writer_racing")


# Property tests check answers, not speed: no per-example deadline (hypothesis's 200 ms failed
# test_the_gate_rejects_only_what_the_exact_tests_reject on a machine at load 10, a timing, not
# a wrong answer). The work counts in tests/ guard the cost.
# CI gets the same examples on every run (derandomize): a red CI names a change, not a draw
# (stop 43 went red on a generated secret that was part of the host name it was checked beside).
# HYPOTHESIS_PROFILE=explore draws new and more examples, to look for such cases on purpose.
settings.register_profile("renamer", deadline=None, derandomize=True)
settings.register_profile("explore", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "renamer"))


# Workers per core for `-n auto`. Measured on 2 cores (s28-suite report): the suite's CPU (user +
# sys, every child process included) was 2,116 s in a 1,502 s run on 2 workers, so each worker kept
# 0.70 of a core busy on average and 0.6 of the machine's 2 cores sat idle; the rest of the time a
# test waits (a confirm window or a revert's deadline runs out, a resolver starts or reloads, a
# kill lands after a sleep, ssh connects; or a daemon computes: getrusage misses daemonized
# dnsmasq, named, pdns_server and sshd's sessions, so this is an upper bound). 1.5 workers a core (3 on 2 cores) ask for ~2.1 cores:
# the waits of one overlap the work of another, and no more processes than that compete for the
# CPU with the tests that time windows. Every fixture picks its own free ports and tmp_path
# folders, so more workers share nothing. PYTEST_XDIST_AUTO_NUM_WORKERS still wins, as in xdist.
_WORKERS_PER_CORE = 1.5


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    given = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if given:
        return int(given)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, math.ceil(cores * _WORKERS_PER_CORE))


def _rank(item: pytest.Item) -> int:
    return next((i for i, prefix in enumerate(_SLOW) if item.nodeid.startswith(prefix)), len(_SLOW))


def pytest_configure(config: pytest.Config) -> None:
    # xdist's default (--dist load) first gives each worker a quarter of the collection, in order:
    # every long test landed on the first worker, one after the other, while the second ran only
    # short ones. One test at a time keeps the order above across all workers. Set here, not in
    # addopts: `-p no:xdist` would then reject the option.
    if getattr(config.option, "maxschedchunk", 0) is None:
        config.option.maxschedchunk = 1
    # A suite started in the background by a non-interactive shell (`pytest ... &`) inherits SIGINT
    # ignored, and so does every process it starts: Python then installs no KeyboardInterrupt
    # handler, and the Ctrl-C tests (a real SIGINT to renamer) saw it finish as if none came. A
    # handler of our own is reset to the default in each child at exec.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # Where PYTHONDONTWRITEBYTECODE is set (as in the containers the suite was timed in), every `python -m
    # renamer` a test starts (the SIGKILL matrices start hundreds, each resolver reload one)
    # compiled all of renamer from source again: a fifth of those tests' CPU. Their bytecode goes
    # to a folder of this run instead: cached for every process, nothing written in the tree.
    # Set before xdist starts the workers, which inherit it (and so skip this).
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and "PYTHONPYCACHEPREFIX" not in os.environ:
        folder = tempfile.mkdtemp(prefix="renamer-tests-pycache-")
        os.environ["PYTHONPYCACHEPREFIX"] = folder
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    # Every xdist worker compiled the whole suite again on a cold cache (tests/testing/bytecode.py).
    bytecode.warm(config)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the order otherwise kept
    for item in items:
        if _rank(item) < len(_SLOW):
            item.add_marker(pytest.mark.slow)


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


@pytest.fixture
def terraform_binary() -> str:
    """terraform's path for a test marked `needs_terraform`: the test fails where it is missing."""
    return require_terraform()
