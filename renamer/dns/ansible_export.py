"""`renamer dns export ansible`: the rollout as a self-contained Ansible playbook folder.

renamer keeps what it is best at (rendering, the plan, the whole-config test, verification
against the desired state, rollback semantics); Ansible does the fan-out (inventories,
parallel connections, `serial` batches, `max_fail_percentage`, retries, vaulted
credentials). The folder holds:

    ansible.cfg                      this folder's inventory and renamer's event callback
    inventory.yml                    one host per resolver: connection, folders, commands
    playbook.yml                     per host, block/rescue: lock, backup, install, test,
    tasks/restore.yml                  restart, verify; restore on failure; rollback per batch
    callback_plugins/renamer_events.py   one JSON line per task result (RENAMER_EVENTS)
    tasks/powerdns*.yml, tasks/restore_powerdns.yml, filter_plugins/renamer_powerdns.py,
    action_plugins/renamer_pdns_api.py   a PowerDNS API call in Ansible's own process
                                     a PowerDNS resolver: its zones through the HTTP API, from the
                                     control node (dns/powerdns/ansible.py writes its host's
                                     `renamer_powerdns`; the key is read at run time, never written)
    files/<resolver>/<snippet>       the rendered snippets
    previous/<resolver>/<snippet>    what each resolver had when exported (for review: the run
                                     compares digests of these, and restores from its own backup)

Every value taken from the inventory is written `!unsafe`: Ansible never templates it, so
a resolver's command or folder can never become a Jinja expression.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from renamer.dns.backend import backend_for
from renamer.dns.inventory import SSH_TARGET, Resolver
from renamer.dns.plan import ResolverPlan, backup_name
from renamer.dns.policy import Policy

STATIC = Path(__file__).parent / "playbook"  # playbook.yml, tasks/, callback_plugins/, ansible.cfg
GROUP = "renamer_resolvers"
# What the static playbook says until the export writes the policy in.
_DEFAULTS = {"renamer_serial": "renamer_serial | default([1, 10])",
             "renamer_max_fail_percentage": "renamer_max_fail_percentage | default(0)"}


@dataclass(frozen=True)
class Export:
    folder: Path
    hosts: tuple[str, ...]
    serial: tuple[int, ...]


@dataclass(frozen=True)
class ControlNode:
    """The renamer commands the playbook runs on the control node, each an argv the playbook
    ends with resolver names: `verify` (JSON, the resolvers named alone), `restored` (the
    playbook adds the host, then --restored-from and the folder of the backup it fetched),
    `answering` (the hand run's preflight: each resolver named, and each forwarder in front of
    them, answers over DNS); and `forwarders`, per resolver, the `manage: false` resolvers in
    front of it (dns/run.in_front), which a hand run asks after its last batch."""
    verify: list[str]
    restored: list[str]
    answering: list[str]
    forwarders: dict[str, list[str]]


def _unsafe(value: str) -> str:
    return f"!unsafe {json.dumps(value)}"


def _argv(argv: Sequence[str]) -> str:
    return "[" + ", ".join(_unsafe(word) for word in argv) + "]"


def _unsafe_value(value: Any) -> str:
    """A JSON value as YAML flow, every string in it `!unsafe` (never templated by Ansible)."""
    if isinstance(value, str):
        return _unsafe(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {_unsafe_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_unsafe_value(v) for v in value) + "]"
    return json.dumps(value)  # a number, true, false, null


def _connection(resolver: Resolver) -> dict[str, str]:
    if resolver.target == "local":
        # the interpreter running ansible-playbook: no discovery, no warning
        return {"ansible_connection": json.dumps("local"),
                "ansible_python_interpreter": json.dumps("{{ ansible_playbook_python }}")}
    found = SSH_TARGET.match(resolver.target)
    assert found is not None, resolver.target  # the inventory checked it
    user, host, port = found.group("user"), found.group("host"), found.group("port")
    out = {"ansible_connection": json.dumps("ssh"), "ansible_host": _unsafe(host.strip("[]"))}
    if user:
        out["ansible_user"] = _unsafe(user)
    if port:
        out["ansible_port"] = str(int(port))
    if resolver.ssh_config:
        # Ansible splits these words as a shell would: the path is quoted, as ssh sees it.
        out["ansible_ssh_common_args"] = _unsafe(f"-F {shlex.quote(os.path.expanduser(resolver.ssh_config))}")
    if resolver.python:
        out["ansible_python_interpreter"] = _unsafe(resolver.python)
    if resolver.sudo:
        out["ansible_become"] = "true"
        out["ansible_become_method"] = json.dumps("sudo")
    return out


def _files(plan: ResolverPlan) -> str:
    """PATH -> [NAME, STORED, MODE, PAST] for every file the plan may write or remove: NAME as a
    backup's ABSENT and RETIRED lists say it, STORED the file's name under files/ and in a
    backup folder (a file outside snippet_dir flattened, as the built-in engine does), MODE
    "0644" for renamer's own files, "" for a hand-written file (its mode is kept), PAST the SHA1
    of the backup that files/restored/STORED replaces in a rollback ("-" for none: _restored)."""
    backend = backend_for(plan.resolver)
    past = _restored(plan)

    def mode(name: str) -> str:
        return "0644" if not name.startswith("/") or backend.live(plan.resolver, [name]) else ""

    def sha(name: str) -> str:
        data = plan.current.get(name)
        return hashlib.sha1(data).hexdigest() if name in past and data is not None else "-"

    items = [f"{_unsafe(plan.path(name))}: [{_unsafe(name)}, {_unsafe(backup_name(name))}, "
             f"{_unsafe(mode(name))}, {_unsafe(sha(name))}]" for name in plan.desired]
    return "{" + ", ".join(items) + "}"


def _restored(plan: ResolverPlan) -> dict[str, bytes]:
    """name -> what a rollback writes back where it is not the backup itself (BIND: the zone's
    records as they were, its SOA serial past the one this apply writes: Backend.restored). The
    playbook writes it only where the backup is what this export read (its digest, PAST) and
    the apply had reloaded the resolver; otherwise the backup as it is, as the built-in engine."""
    backend = backend_for(plan.resolver)
    if not backend.restores_past:
        return {}
    out = {}
    for name in plan.changed:
        saved, text = plan.current.get(name), plan.desired.get(name)
        if saved is not None and text is not None:
            back = backend.restored(name, saved, text.encode("utf-8"))
            if back != saved:
                out[name] = back
    return out


def _activation(plan: ResolverPlan) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """The commands that activate this plan's files once written, and once restored by a
    rollback (Backend.activation: BIND reloads only the zones changed; none for an API backend)."""
    backend = backend_for(plan.resolver)
    changed = plan.changed
    written = [name for name in changed if plan.desired.get(name) is not None]
    restored = [name for name in changed if plan.current.get(name) is not None]
    return (backend.activation(plan.resolver, changed, written),
            backend.activation(plan.resolver, changed, restored))


def serial(policy: Policy, hosts: int) -> tuple[int, ...]:
    """Ansible's `serial` list for the policy: the canary batch, then the batch size."""
    sizes = [len(batch) for batch in policy.batches(list(range(hosts)))]
    if not sizes:
        return (1,)
    return (sizes[0], sizes[1]) if len(sizes) > 1 else (sizes[0],)


def _compare(plan: ResolverPlan) -> list[str]:
    """What the playbook compares on the host (sha1sum): PATH=WANT=HAD per file, WANT its digest
    after the apply and HAD when exported, `-` for no file. A file that is neither is a resolver
    changed since the export (the export is outdated: refused before anything is written)."""
    def digest(data: bytes | None) -> str:
        return "-" if data is None else hashlib.sha1(data).hexdigest()

    if not backend_for(plan.resolver).has_files:  # an API backend: tasks/powerdns.yml compares its zones
        return []
    return [f"{plan.path(name)}={digest(None if text is None else text.encode())}"
            f"={digest(plan.current.get(name))}" for name, text in plan.desired.items()]


def inventory_text(plans: Sequence[ResolverPlan], policy: Policy, control: ControlNode, source: str,
                   api: dict[str, dict[str, Any]] | None = None) -> str:
    """inventory.yml: one host per resolver, with the control node's commands (ControlNode);
    `api`: by resolver name, an API backend's `renamer_powerdns` (dns/powerdns/ansible.py)."""
    batches = serial(policy, len(plans))
    lines = [f"# Written by `renamer dns export ansible` from {source}: regenerate it, do not edit it.",
             f"# The batches ({json.dumps(list(batches))}) and the failure budget "
             f"({policy.max_fail_percent} %) are playbook.yml's defaults.",
             "# Each run of playbook.yml is an apply of its own, with an id of its own.",
             "all:",
             "  children:",
             f"    {GROUP}:",
             "      hosts:"]
    for plan in plans:
        resolver = plan.resolver
        activate, reactivate = _activation(plan)
        host = {
            **_connection(resolver),
            "renamer_backend": json.dumps(resolver.backend),
            "renamer_snippet_dir": _unsafe(resolver.snippet_dir),
            "renamer_backup_dir": _unsafe(resolver.backup_dir),
            "renamer_files": _files(plan),
            "renamer_compare": _argv(_compare(plan)),
            "renamer_test": _argv(resolver.test),
            "renamer_activate": "[" + ", ".join(_argv(argv) for argv in activate) + "]",
            "renamer_reactivate": "[" + ", ".join(_argv(argv) for argv in reactivate) + "]",
            "renamer_verify_batch": _argv(control.verify),
            "renamer_verify_restored": _argv(control.restored),
            "renamer_answering": _argv(control.answering),
            "renamer_forwarders": _argv(control.forwarders.get(resolver.name, [])),
        }
        if api is not None and resolver.name in api:
            host["renamer_test"] = "[]"  # no command: the API's read-back
            host["renamer_powerdns"] = _unsafe_value(api[resolver.name])
        lines.append(f"        {resolver.name}:")
        lines += [f"          {key}: {value}" for key, value in host.items()]
    return "\n".join(lines) + "\n"


def write_export(folder: Path, plans: Sequence[ResolverPlan], policy: Policy, control: ControlNode,
                 source: str, api: dict[str, dict[str, Any]] | None = None) -> Export:
    """Write the playbook folder (a new or empty folder); returns what it holds."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(STATIC, folder, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for plan in plans:
        name = plan.resolver.name
        for snippet, text in plan.desired.items():
            if text is not None:
                target = folder / "files" / name / backup_name(snippet)  # never an absolute path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
        for snippet, back in _restored(plan).items():
            target = folder / "files" / name / "restored" / backup_name(snippet)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(back)
        previous = folder / "previous" / name
        previous.mkdir(parents=True, exist_ok=True)
        for snippet, data in plan.current.items():
            if data is not None:
                (previous / backup_name(snippet)).write_bytes(data)
    (folder / "inventory.yml").write_text(inventory_text(plans, policy, control, source, api))
    # `serial` is templated before any inventory variable exists: the policy becomes the
    # playbook's defaults (extra vars, -e renamer_serial=..., still override them).
    playbook = folder / "playbook.yml"
    text = playbook.read_text()
    for variable, value in (("renamer_serial", list(serial(policy, len(plans)))),
                            ("renamer_max_fail_percentage", policy.max_fail_percent)):
        default = _DEFAULTS[variable]
        assert default in text, f"playbook.yml no longer says {default!r}"
        text = text.replace(default, f"{variable} | default({json.dumps(value)})")
    playbook.write_text(text)
    return Export(folder, tuple(p.resolver.name for p in plans), serial(policy, len(plans)))
