"""Resolvers from the Ansible inventory people already have (`from_ansible:` in resolvers.yaml).

Hosts, groups and connection variables are read with Ansible's own inventory loader
(host_vars/ and group_vars/ beside the inventory included), never re-parsed by hand.
Only static inventories are read: the `yaml` and `ini` plugins, never a script or a
plugin that runs code, and no variable is templated (a value holding `{{` is refused).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from renamer.errors import ConfigError
from renamer.names import parse_address

# What to install, said the same way wherever Ansible is missing.
EXTRA = ("install ansible-core in renamer's environment "
         "(its fleet extra: pip install '.[fleet]' in renamer's checkout)")
# Ansible host variables that become a resolver's keys: renamer_<key> for any key, and these.
_CONNECTION = ("ansible_host", "ansible_port", "ansible_user", "ansible_connection", "ansible_become",
               "ansible_ssh_common_args", "ansible_python_interpreter")


def hosts_of(inventory: Path, group: str, where: str) -> list[tuple[str, dict[str, Any]]]:
    """(host name, its variables) for every host of `group`, in the inventory's order."""
    if os.access(inventory, os.X_OK) and inventory.is_file():
        raise ConfigError(f"{where}: from_ansible.inventory {inventory} is executable: only static "
                          "inventories (YAML or INI) are read, never a script")
    if not inventory.exists():
        raise ConfigError(f"{where}: from_ansible.inventory {inventory}: not found")
    # Before Ansible is imported: its settings are read from the environment and its config
    # file at import time. No ansible.cfg (the repo's could enable a plugin, which is code),
    # only the static inventory plugins, only the built-in host_vars/group_vars reader.
    with tempfile.TemporaryDirectory(prefix="renamer-ansible-") as scratch:
        empty = Path(scratch) / "ansible.cfg"  # Ansible wants a .cfg file: an empty one
        empty.write_text("")
        os.environ["ANSIBLE_CONFIG"] = str(empty)
        os.environ["ANSIBLE_INVENTORY_ENABLED"] = "yaml,ini"
        os.environ["ANSIBLE_VARS_ENABLED"] = "host_group_vars"
        os.environ["ANSIBLE_LOCALHOST_WARNING"] = "False"
        os.environ["ANSIBLE_INVENTORY_UNPARSED_WARNING"] = "False"
        try:
            from ansible.inventory.manager import InventoryManager
            from ansible.parsing.dataloader import DataLoader
            from ansible.vars.manager import VariableManager
        except ImportError:
            raise ConfigError(f"{where}: from_ansible needs ansible-core: {EXTRA}") from None
    loader = DataLoader()
    try:
        manager = InventoryManager(loader=loader, sources=[str(inventory)])
    except Exception as exc:  # Ansible's own parse errors, in its words
        raise ConfigError(f"{where}: from_ansible.inventory {inventory}: {exc}") from None
    found = manager.groups.get(group)
    if found is None:
        known = ", ".join(sorted(g for g in manager.groups if g not in ("all", "ungrouped"))) or "none"
        raise ConfigError(f"{where}: from_ansible.group {group!r} is not in {inventory} (groups: {known})")
    variables = VariableManager(loader=loader, inventory=manager)
    out = []
    for host in found.get_hosts():
        values = variables.get_vars(host=host, include_hostvars=False)
        out.append((host.name, {k: _plain(v) for k, v in values.items()
                                if k in _CONNECTION or k.startswith("renamer_")}))
    return out


def _plain(value: Any) -> Any:
    """Ansible's wrapped strings and lists as plain Python values."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


_SSH_F = "-F "


def resolver_entry(host: str, values: dict[str, Any],
                   defaults: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A resolvers.yaml entry for an Ansible host, and what cannot be used (as messages).

    `renamer_<key>` host or group variables give a resolver's keys (renamer_sites,
    renamer_snippet_dir, ...); `defaults` (from_ansible.defaults) fills the rest. The
    connection comes from Ansible's: local, or ssh to ansible_host as ansible_user on
    ansible_port, with sudo where ansible_become is set."""
    problems = []
    for key, value in values.items():
        if "{{" in repr(value) or "{%" in repr(value):
            problems.append(f"{key} is a Jinja template; renamer never templates: give the value itself")
    if problems:
        return {}, problems
    entry: dict[str, Any] = {**defaults, "name": host}
    entry.update({key[len("renamer_"):]: value for key, value in values.items()
                  if key.startswith("renamer_")})
    connect = values.get("ansible_host", host)
    if "address" not in entry:
        if parse_address(str(connect)) is None:
            return {}, [f"ansible_host {connect!r} is a name, not an address: give the resolver's "
                        "address as renamer_address"]
        entry["address"] = connect
    if "target" not in entry:
        if values.get("ansible_connection") == "local":
            entry["target"] = "local"
        else:
            user = values.get("ansible_user")
            port = values.get("ansible_port")
            entry["target"] = (f"ssh://{user + '@' if user else ''}{connect}"
                               f"{':' + str(port) if port else ''}")
    if "sudo" not in entry and values.get("ansible_become") in (True, "true", "yes", "True"):
        entry["sudo"] = True
    interpreter = values.get("ansible_python_interpreter")
    if "python" not in entry and isinstance(interpreter, str) and values.get("ansible_connection") != "local":
        entry["python"] = interpreter
    common = values.get("ansible_ssh_common_args")
    if "ssh_config" not in entry and isinstance(common, str) and common.strip().startswith(_SSH_F):
        entry["ssh_config"] = common.strip()[len(_SSH_F):].split()[0]
    return entry, []
