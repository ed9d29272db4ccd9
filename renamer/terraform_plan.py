"""The plan guard (issue 32, item 3): what terraform itself would do with the swept tree.

A correct text rename can still destroy: a renamed resource label without a `moved` block plans
a destroy and a create, a `triggers_replace` (or any attribute the provider cannot update) that
held the old name plans a replace. Neither shows in the text. `renamer verify --terraform DIR`
(and renamer.yaml's `terraform:` list) runs, in each directory the user has initialised,

    terraform plan -json -refresh=false -lock=false -input=false -out=TMP

against its existing state, and fails on every `delete` or replace (`planned_change` or
`resource_drift`) that no `--allow-replace ADDR` and no keep rule (`line_contains: ADDR`, with
its reason) accepts, naming the address and, for a replace, the attribute(s) forcing it
(`replace_paths`, read from `terraform show -json TMP`). A move (`moved` block), an update and a
create are listed, never a failure.

Read-only: `-refresh=false` asks no provider about the world, `-lock=false` takes no state lock,
the plan file goes to a temporary folder outside the repo and is removed; renamer never runs
`init`, `apply` or `state mv` and never writes state. A directory that needs `terraform init` is
refused (exit 2) with the command to run, as are a timeout and an error of terraform's own.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from renamer import lazy_re
from renamer.errors import RenamerError

BINARIES = ("terraform", "tofu")
DEFAULT_TIMEOUT = 600.0
DESTRUCTIVE = frozenset({"delete", "replace"})
_MESSAGES = frozenset({"planned_change", "resource_drift"})
# What `terraform init` installs: a module call, a provider other than the builtin `terraform`
# (`terraform_data`, `terraform_remote_state`), a backend or HCP Terraform's `cloud` block.
_MODULE = lazy_re.compile(r'(?m)^\s*module\s+"')
_BACKEND = lazy_re.compile(r'(?m)^\s*(?:backend\s+"|cloud\s*\{)')
_TYPED = lazy_re.compile(r'(?m)^\s*(?:resource|data|ephemeral)\s+"([A-Za-z0-9]+)[_"]')
_PROVIDER = lazy_re.compile(r'(?m)^\s*provider\s+"([^"]+)"')


@dataclass(frozen=True)
class Change:
    """One resource terraform plans to change, as `verify` lists it."""

    directory: str  # as shown
    address: str
    action: str  # create, update, delete, replace, move, read, noop, forget, import
    previous: str | None = None  # the address before a `moved` block
    reason: str | None = None  # terraform's (`delete_because_no_resource_config`, `cannot_update`...)
    forced_by: tuple[str, ...] = ()  # a replace's attributes (replace_paths)
    drift: bool = False  # a resource_drift message: changed outside terraform
    accepted: str | None = None  # what accepts a delete or replace: --allow-replace, a keep rule

    @property
    def fails(self) -> bool:
        return self.action in DESTRUCTIVE and self.accepted is None

    def message(self) -> str:
        """`terraform_data.web (was terraform_data.pug): replace, forced by triggers_replace`."""
        was = f" (was {self.previous})" if self.previous and self.previous != self.address else ""
        what = f"{'drift: ' if self.drift else ''}{self.action}"
        if self.forced_by:
            what += f", forced by {', '.join(self.forced_by)}"
        elif self.reason and self.action in DESTRUCTIVE:
            what += f" ({self.reason})"
        if self.accepted:
            what += f"; accepted by {self.accepted}"
        elif self.action == "delete":
            what += ("; a renamed label needs a `moved` block, a removed resource --allow-replace "
                     f"{self.address}")
        elif self.action == "replace":
            what += f"; a value it cannot update changed: keep it, or --allow-replace {self.address}"
        return f"{self.address}{was}: {what}"


@dataclass(frozen=True)
class Guard:
    """One directory's plan."""

    directory: str
    binary: str
    changes: tuple[Change, ...]

    @property
    def failing(self) -> list[Change]:
        return [c for c in self.changes if c.fails]


def binary_path(name: str) -> str:
    """The terraform (or tofu) executable on PATH; exit 2 where there is none."""
    found = shutil.which(name)
    if found is None:
        raise RenamerError(f"{name}: not found on PATH: the plan guard (verify --terraform) runs "
                           f"`{name} plan` in each directory (options.terraform_binary chooses terraform or "
                           "tofu)")
    return found


def init_needed(directory: Path) -> str | None:
    """Why `directory` needs `terraform init` before a plan, or None: a module call, a provider
    or a backend that the folder's `.terraform/` (or lock file) does not show installed."""
    data_dir = directory / os.environ.get("TF_DATA_DIR", ".terraform")  # where init wrote, as terraform reads
    if data_dir.is_dir() or (directory / ".terraform.lock.hcl").is_file():
        return None
    for path in sorted(directory.glob("*.tf")):
        try:
            text = path.read_text("utf-8", "replace")
        except OSError:
            continue
        if _MODULE.search(text):
            return f"{path.name} calls a module"
        if _BACKEND.search(text):
            return f"{path.name} configures a backend"
        provider = next((m.group(1) for m in (*_TYPED.finditer(text), *_PROVIDER.finditer(text))
                         if m.group(1) != "terraform"), None)
        if provider is not None:
            return f"{path.name} uses the provider {provider}"
    return None


def parse_stream(text: str, directory: str) -> tuple[list[Change], list[str]]:
    """`plan -json`'s lines: the changes (planned_change, resource_drift), and the error
    diagnostics as one line each (`Module not installed: This module is not yet installed...`)."""
    changes: list[Change] = []
    errors: list[str] = []
    for line in text.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "diagnostic":
            diag = item.get("diagnostic") or {}
            if isinstance(diag, dict) and diag.get("severity") == "error":
                where = diag.get("range") or {}
                at = (f"{where.get('filename')}:{(where.get('start') or {}).get('line')}: "
                      if isinstance(where, dict) and where.get("filename") else "")
                detail = " ".join(str(diag.get("detail", "")).split())
                errors.append(f"{at}{diag.get('summary', '')}: {detail}")
            continue
        change = item.get("change")
        if kind not in _MESSAGES or not isinstance(change, dict):
            continue
        resource = change.get("resource") or {}
        previous = change.get("previous_resource") or {}
        address = resource.get("addr") if isinstance(resource, dict) else None
        if not isinstance(address, str):
            continue
        changes.append(Change(directory, address, str(change.get("action", "")),
                              previous.get("addr") if isinstance(previous, dict) else None,
                              change.get("reason"), drift=kind == "resource_drift"))
    return changes, errors


def replace_paths(shown_plan: str) -> dict[str, tuple[str, ...]]:
    """`terraform show -json PLAN`'s replace_paths per address: `triggers_replace`, `tags["Name"]`."""
    try:
        data = json.loads(shown_plan)
    except ValueError:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for item in data.get("resource_changes") or () if isinstance(data, dict) else ():
        change = item.get("change") if isinstance(item, dict) else None
        paths = change.get("replace_paths") if isinstance(change, dict) else None
        if isinstance(paths, list) and isinstance(item.get("address"), str):
            out[item["address"]] = tuple(attribute_path(p) for p in paths if isinstance(p, list))
    return out


def attribute_path(steps: Sequence[object]) -> str:
    """["tags", "Name"] -> `tags["Name"]`, ["disk", 0, "size"] -> `disk[0].size`."""
    out = ""
    for step in steps:
        if isinstance(step, int):
            out += f"[{step}]"
        elif out:
            out += f'["{step}"]' if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", str(step)) else f".{step}"
        else:
            out = str(step)
    return out


def workspaces(directory: Path, shown: str, binary: str, timeout: float) -> list[str] | None:
    """The folder's workspaces (`terraform workspace list`), or None where terraform cannot say."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TF_CLI_ARGS") and k != "TF_WORKSPACE"}
    env.update(TF_IN_AUTOMATION="1", TF_INPUT="0")
    done = _call([binary, "workspace", "list"], directory, shown, Path(binary).name, env, timeout)
    if done.returncode != 0:
        return None
    names = [line.strip().lstrip("*").strip() for line in done.stdout.splitlines()]
    return [n for n in names if n] or None


def run_plan(directory: Path, shown: str, binary: str, timeout: float,
             accept: Callable[[Change], str | None], workspace: str | None = None) -> Guard:
    """Plan `directory` read-only and decide each change; RenamerError (exit 2) where it was never
    initialised, terraform fails or runs past `timeout` seconds. `workspace`: plan that workspace
    (TF_WORKSPACE), not the selected one."""
    name = Path(binary).name
    why = init_needed(directory)
    if why is not None:
        raise RenamerError(f"{shown}: not initialised ({why}, and there is no .terraform/ or "
                           f".terraform.lock.hcl): run `{name} -chdir={shown} init` first; "
                           "renamer never runs init")
    # TF_CLI_ARGS(_plan) would add flags of the user's to the read-only ones (`-replace=ADDR`,
    # `-target`, `-var-file`): not here
    env = {k: v for k, v in os.environ.items() if not k.startswith("TF_CLI_ARGS")}
    env.update(TF_IN_AUTOMATION="1", TF_INPUT="0")
    if workspace is not None:
        env["TF_WORKSPACE"] = workspace
    with tempfile.TemporaryDirectory(prefix="renamer-plan-") as tmp:
        out = Path(tmp) / "plan"
        argv = [binary, "plan", "-json", "-refresh=false", "-lock=false", "-input=false", f"-out={out}"]
        done = _call(argv, directory, shown, name, env, timeout)
        changes, errors = parse_stream(done.stdout, shown)
        if done.returncode != 0 and any("Saving a generated plan" in e for e in errors):
            # a remote backend's run saves no plan file: planned again without one (no replace_paths)
            done = _call(argv[:-1], directory, shown, name, env, timeout)
            changes, errors = parse_stream(done.stdout, shown)
        if done.returncode != 0 or errors:
            said = errors[0] if errors else " ".join((done.stderr or done.stdout).split())[-400:]
            hint = (f"; run `{name} -chdir={shown} init` first (renamer never runs init)"
                    if "init" in said else "")
            raise RenamerError(f"{shown}: `{name} plan` failed (exit {done.returncode}): {said}{hint}")
        forced: dict[str, tuple[str, ...]] = {}
        if any(c.action == "replace" for c in changes) and out.is_file():
            shown_plan = _call([binary, "show", "-json", str(out)], directory, shown, name, env, timeout)
            forced = replace_paths(shown_plan.stdout) if shown_plan.returncode == 0 else {}
    decided = []
    for change in changes:
        change = replace(change, forced_by=forced.get(change.address, ()))
        if change.action in DESTRUCTIVE:
            change = replace(change, accepted=accept(change))
        decided.append(change)
    return Guard(shown, name, tuple(decided))


def _call(argv: list[str], directory: Path, shown: str, name: str, env: dict[str, str],
          timeout: float) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(argv, cwd=directory, env=env, capture_output=True, text=True, check=False,
                              timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise RenamerError(f"{shown}: `{name} {argv[1]}` ran past {timeout:g}s and was stopped; nothing was "
                           "written (--terraform-timeout gives it longer)") from None
    except OSError as error:
        raise RenamerError(f"{shown}: cannot run {name}: {error.strerror or error}") from None
