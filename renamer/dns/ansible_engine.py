"""`dns apply --engine ansible`: run an exported playbook and read what happened from its events.

The playbook's callback (playbook/callback_plugins/renamer_events.py) writes one JSON line
per task result to $RENAMER_EVENTS; the playbook reports each host's outcome in a task
named `Outcome | report` (`applied`, `unchanged`, `rolled back: why`, `failed: why`,
`rollback failed: why`). From those, the same per-resolver outcomes as the built-in engine:
the table, the verdict and the exit code are the same whichever engine ran.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from renamer import clock, debug, lazy_re
from renamer.dns import lock
from renamer.dns.ansible_inventory import EXTRA
from renamer.dns.inventory import Resolver
from renamer.dns.rollout import Outcome, OutcomeStatus
from renamer.errors import ConfigError

EVENTS = "events.jsonl"
# A task's name (as playbook.yml spells it) -> the step the table shows when it ran well.
_STEPS = {
    "Apply | back up and mark the host half-done": "backup",
    "Apply | write the snippets": "wrote snippets",
    "Apply | patch the RRsets": "patched RRsets",  # a PowerDNS resolver (tasks/powerdns.yml)
    "Apply | read the RRsets back through the API": "test ok (read back)",
    "Apply | remove the snippets": "removed snippets",
    "Apply | test the resolver configuration": "test ok",
    "Apply | restart the resolver": "reload ok",  # the handler
    "Verify | record the outcome": "verify ok",  # reached only past the batch's verify
    "Restore | put back the saved snippets": "restored",
    "Restore | the saved RRsets are back": "restored",  # PowerDNS: its PATCH task is ok when one fails
    "Restore | remove the snippets that did not exist before": "restored",
    "Restore | restart the resolver": "reloaded",
    "Restore | check the resolver serves the previous records": "old records served",
}
_STATUSES: dict[str, OutcomeStatus] = {
    "applied": "applied", "unchanged": "unchanged", "rolled back": "rolled back", "failed": "failed",
    "rollback failed": "rollback FAILED",
}


def playbook_command() -> str:
    """ansible-playbook beside the running interpreter (the venv the fleet extra installed it
    in), else on PATH; a clear line when it is in neither."""
    beside = Path(sys.executable).parent / "ansible-playbook"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("ansible-playbook")
    if found is None:
        raise ConfigError(f"--engine ansible needs ansible-playbook (ansible-core): {EXTRA}")
    return found


# One host's line of `ansible -o`: `NAME | SUCCESS => {...}`, `NAME | FAILED! => {...}`, `NAME |
# UNREACHABLE! => {...}`.
_ONE_LINE = lazy_re.compile(r"^(?P<host>\S+) \| (?P<status>[A-Z]+)!? (?:=> )?(?P<rest>.*)$")
MODULE_CHECK_TIMEOUT = 300.0


def modules_that_cannot_run(folder: Path, hosts: Sequence[str], forks: int) -> dict[str, str]:
    """Before the playbook writes anything on any host: can Ansible run a module on each of
    `hosts` (its Python interpreter found and started: `ansible_python_interpreter`, the
    resolver's `python`)? One `ansible -m ping` over the exported inventory; host -> why not.
    Without it, a host where no module runs fails at its first task, after the other hosts of
    its batch were written and restarted, and are rolled back for nothing."""
    if not hosts:
        return {}
    command = str(Path(playbook_command()).with_name("ansible"))
    env = _env(folder)
    env.pop("RENAMER_EVENTS", None)
    argv = [command, "renamer_resolvers", "-i", "inventory.yml", "-m", "ansible.builtin.ping", "-o",
            "--forks", str(max(1, forks)), "--limit", ",".join(hosts)]
    debug.command(argv)
    try:
        done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, errors="replace",
                              timeout=MODULE_CHECK_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {host: f"`ansible -m ping` did not run: {exc}" for host in hosts}
    seen: dict[str, str] = {}
    for line in done.stdout.splitlines():
        found = _ONE_LINE.match(line.strip())
        if found is None or found.group("host") not in hosts:
            continue
        seen[found.group("host")] = ("" if found.group("status") == "SUCCESS"
                                     else f"{found.group('status').lower()}: {_why(found.group('rest'))}")
    return {host: seen.get(host, "no answer from `ansible -m ping`")
            for host in hosts if seen.get(host) != ""}


def _why(rest: str) -> str:
    """The message of a failed module run, in one line."""
    try:
        data = json.loads(rest)
    except json.JSONDecodeError:
        return " ".join(rest.split())[:300]
    if not isinstance(data, dict):
        return " ".join(rest.split())[:300]
    parts = [str(data[key]) for key in ("msg", "module_stderr") if data.get(key)]
    return " ".join(" ".join(parts).split())[:300] or "failed"


def _env(folder: Path) -> dict[str, str]:
    """The user's environment with the exported folder's config and inventory, no colour."""
    return {**os.environ, "ANSIBLE_CONFIG": str(folder / "ansible.cfg"),  # ignored in a world-writable folder
            "ANSIBLE_INVENTORY": str(folder / "inventory.yml"), "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_FORCE_COLOR": "0"}


def run_playbook(folder: Path, forks: int, apply_id: str,
                 say: Callable[[str], None] | None = None,
                 now: dt.datetime | None = None) -> tuple[int, list[dict[str, Any]], bool]:
    """Run playbook.yml in `folder` as apply `apply_id`; (ansible-playbook's exit status, the
    events, whether it was interrupted). `say` gets one line per batch started and per host's
    outcome. `now`: the clock the files were rendered by (Inventory.now); the renamer commands
    the playbook runs (its verify) read it as RENAMER_NOW, so one run judges the transitional
    aliases by one instant, as the built-in engine does: a run spanning an alias's expiry
    verifies what it wrote, never a canary of the other side of the date (t24-alias finding 9)."""
    events = folder / EVENTS
    events.unlink(missing_ok=True)
    # The environment wins over ansible.cfg: the settings the verdict depends on are named
    # here, whatever ANSIBLE_* the user's shell holds (a callback list without renamer's
    # would leave no events, another inventory other hosts).
    env = {**_env(folder), "RENAMER_EVENTS": str(events),
           "ANSIBLE_CALLBACK_PLUGINS": str(folder / "callback_plugins"),
           "ANSIBLE_FILTER_PLUGINS": str(folder / "filter_plugins"),
           "ANSIBLE_ACTION_PLUGINS": str(folder / "action_plugins"),
           "ANSIBLE_CALLBACKS_ENABLED": "renamer_events", "ANSIBLE_STDOUT_CALLBACK": "default",
           "ANSIBLE_STRATEGY": "linear", "PYTHONUNBUFFERED": "1"}
    if now is not None:
        env[clock.ENV] = now.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    # The lock names this process: `dns apply` elsewhere sees who holds it, and here takes it
    # over once this process is gone (as it does for its own locks).
    # Its start time, machine and boot too: a reused pid, or another controller of the same
    # name, never passes for it (dns/lock.py).
    mine = lock.identity(os.getpid())
    holder = json.dumps({"renamer_pid": os.getpid(), "renamer_control_host": socket.gethostname(),
                         "renamer_apply_id": apply_id, "renamer_pid_start": mine["pid_start"],
                         "renamer_machine": mine["machine"], "renamer_boot": mine["boot"]})
    argv = [playbook_command(), "playbook.yml", "-i", "inventory.yml", "--forks", str(max(1, forks)),
            "--extra-vars", holder]
    debug.command(argv)
    interrupted = False
    with subprocess.Popen(argv, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace") as process:
        assert process.stdout is not None
        seen = 0
        try:
            for line in process.stdout:
                debug.say(f"ansible: {line.rstrip()}")
                if say is not None and ("TASK [" in line or "PLAY [" in line):
                    seen = _tell(events, seen, say)
        except KeyboardInterrupt:
            # Ctrl-C reached ansible-playbook too (one process group): let it stop, then say
            # where every resolver stands; hosts it left half-done keep renamer's mark.
            interrupted = True
            with contextlib.suppress(KeyboardInterrupt):
                process.wait(timeout=60)
        code = process.wait()
    if say is not None:
        _tell(events, seen, say)
    return code, read_events(events), interrupted


def read_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:  # a line cut short by a killed run
            continue
        if isinstance(event, dict):
            out.append(event)
    return out


def _tell(path: Path, seen: int, say: Callable[[str], None]) -> int:
    """Say the batches and outcomes written since event `seen`; returns how many there are now."""
    events = read_events(path)
    for event in events[seen:]:
        if event.get("event") == "batch":
            say(f"batch {event.get('batch')} started")
        elif event.get("task") == "Outcome | report":
            say(f"{event.get('host')}: {event.get('msg')}")
    return len(events)


def outcomes(resolvers: Sequence[Resolver], events: Sequence[dict[str, Any]], backup: dict[str, str],
             code: int) -> list[Outcome]:
    """One Outcome per resolver, from the events; `backup` names each resolver's backup folder."""
    by_host: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        if "host" in event and event.get("event") != "stats":
            by_host.setdefault(str(event["host"]), []).append(event)
    result = []
    for resolver in resolvers:
        outcome = Outcome(resolver)
        mine = by_host.get(resolver.name, [])
        for event in mine:
            step = _STEPS.get(str(event.get("task")))
            if step and event.get("event") in ("ok", "changed"):
                if step == "backup":
                    outcome.backup = backup.get(resolver.name)
                    step = f"backup {outcome.backup}"
                if step not in outcome.steps:  # a loop's items report one by one
                    outcome.steps.append(step)
            elif step == "reloaded" and event.get("event") == "skipped":  # the test had failed
                outcome.steps.append("not restarted (it never was)")
            if event.get("event") == "unreachable":
                touched = any(e.get("event") == "changed" and str(e.get("task", "")).startswith("Apply | ")
                              for e in mine[:mine.index(event)])
                outcome.status = "rollback FAILED" if touched else "failed"
                why = ("unreachable after its snippets were changed, state unknown" if touched
                       else "unreachable")
                outcome.error = f"{why}: {event.get('msg')}"
        reported = [e for e in mine if e.get("task") == "Outcome | report"]
        if reported:
            text = str(reported[-1].get("msg", ""))
            status, _, why = text.partition(": ")
            outcome.status = _STATUSES.get(status, "failed")
            if why:
                outcome.error = why
        elif (restore := next((e for e in mine if str(e.get("task", "")).startswith("Restore | ")
                               and e.get("event") in ("failed", "rescued")), None)) is not None:
            outcome.status = "rollback FAILED"
            # what failed first (the step the rescue answered), then the rollback's failure: as the
            # built-in engine says both
            cause = next((e for e in mine[:mine.index(restore)] if e.get("event") == "rescued"), None)
            outcome.error = (f"{cause.get('task')}: {cause.get('msg')}; " if cause is not None else "") + \
                str(restore.get("msg"))
        elif mine and outcome.error is None:  # reached, but no outcome: the run stopped (Ctrl-C, a crash)
            outcome.status = "failed"
            outcome.error = (f"the playbook stopped (exit {code}) before this resolver's outcome; "
                             "`renamer dns apply --resume` or `--rollback` restores one it left half-done")
        if outcome.status == "unchanged":
            outcome.steps.insert(0, "snippets identical: not touched")
        result.append(outcome)
    if code != 0 and all(o.ok for o in result):  # never OK when Ansible itself says otherwise
        for outcome in result:
            outcome.status, outcome.error = "failed", (f"ansible-playbook exited {code} although every "
                                                       "host reported success; check the run with -vv")
    return result
