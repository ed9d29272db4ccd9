"""What every case shares: the registry, verdicts, the scratch repo and the ways to run renamer.

A case is a function `(Scratch) -> Outcome`, registered with `@case` (or `@doubtful`
for the report's doubtful rows); its docstring is the table's case text, then
(after a blank line) how the case departs from the report's setup, if it does. It
builds what it needs under `scratch.root`, runs renamer through its CLI and
returns `ok(...)`, `decided(...)` or `bug(...)`. `require(condition, actual)`
ends a case early as a bug row saying what renamer did instead.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from click.testing import CliRunner

from renamer.cli import cli
from tests.testing.repos import git, make_repo

Verdict = Literal["ok", "bug", "decided"]
PROJECT = Path(__file__).resolve().parents[2]
DOC_FILES = (*sorted((PROJECT / "docs").glob("*.md")), PROJECT / "README.md")

# The report's `mk` helper: every case starts from this repo unless it says otherwise.
MK_CONFIG = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}
  addresses: {10.250.50.54: 10.251.50.54}
allowlist: allow.yaml
"""
ALL_CURRENT = 'version: 1\ncurrent: ["**"]\n'


# -- verdicts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    verdict: Verdict
    detail: str


def ok(detail: str) -> Outcome:
    return Outcome("ok", detail)


def decided(detail: str) -> Outcome:
    return Outcome("decided", detail)


def bug(detail: str) -> Outcome:
    return Outcome("bug", detail)


class Mismatch(Exception):
    """Renamer did not do what the table expects; the message says what it did."""


class Crash(Mismatch):
    """Renamer printed a traceback or an internal error: a bug even on a doubtful row."""


def require(condition: bool, actual: str) -> None:
    if not condition:
        raise Mismatch(actual)


def require_none(items: Sequence[object], what: str) -> None:
    """Fail naming the first of `items` (and how many more), when there is any."""
    if items:
        more = f" (and {len(items) - 1} more)" if len(items) > 1 else ""
        raise Mismatch(f"{what}: {items[0]}{more}")


# -- the registry ---------------------------------------------------------------------------

Check = Callable[["Scratch"], Outcome]


@dataclass(frozen=True)
class Case:
    number: int
    area: str
    text: str  # the table's "case" column (the first paragraph of the function's docstring)
    expected: str  # the table's "expected" column
    check: Check
    doubtful: bool = False

    @property
    def test_id(self) -> str:
        return f"case-{self.number}-{self.area}"


REGISTRY: dict[int, Case] = {}


def _register(number: int, area: str, expected: str, doubtful: bool) -> Callable[[Check], Check]:
    def add(check: Check) -> Check:
        if number in REGISTRY:
            raise ValueError(f"case {number} is registered twice")
        text = " ".join((check.__doc__ or "").strip().split("\n\n")[0].split())  # the first paragraph
        REGISTRY[number] = Case(number, area, text, expected, check, doubtful)
        return check

    return add


def case(number: int, area: str, expected: str) -> Callable[[Check], Check]:
    """Register a row the table calls ok or bug: the check says whether it holds now."""
    return _register(number, area, expected, doubtful=False)


def doubtful(number: int, area: str, expected: str) -> Callable[[Check], Check]:
    """Register a doubtful row: the check records what renamer does now (`decided`)."""
    return _register(number, area, expected, doubtful=True)


def run_case(entry: Case, root: Path) -> Outcome:
    """Run one case in the empty folder `root`; an exception is a bug row, never a crash."""
    root.mkdir(parents=True, exist_ok=True)
    scratch = Scratch(root)
    try:
        outcome = entry.check(scratch)
    except Crash as exc:
        return bug(first_line(str(exc)))
    except Mismatch as exc:
        if entry.doubtful:
            return decided(first_line(str(exc)))
        return bug(first_line(str(exc)))
    except Exception as exc:  # the row says what went wrong instead
        return bug(f"crashed: {type(exc).__name__}: {first_line(str(exc))}")
    finally:
        scratch.close()
    if entry.doubtful and outcome.verdict == "ok":
        return decided(outcome.detail)
    return outcome


def first_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[0] if lines else "(no message)"


# -- running renamer ------------------------------------------------------------------------


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: str
    stderr: str
    seconds: float
    stdout_bytes: bytes = b""
    # CPU seconds of this process and the children it reaped meanwhile (cli: the forked scan
    # workers): what a bound on a blow-up compares, as wall time depends on the machine's load
    cpu: float = 0.0

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def json(self) -> Any:
        return json.loads(self.stdout)

    def brief(self) -> str:
        """exit code and the first line of stderr (or stdout), for a verdict's detail."""
        said = first_line(self.stderr) if self.stderr.strip() else first_line(self.stdout)
        return f"exit {self.exit_code}: {said}"


@dataclass
class Scratch:
    """One case's folder, its repos, and renamer run in-process or as a process."""

    root: Path
    cleanups: list[Callable[[], None]] = field(default_factory=list)

    @property
    def env(self) -> dict[str, str]:
        """What renamer runs with: no colour, renamer's per-user state inside the scratch folder."""
        return {"NO_COLOR": "1", "XDG_STATE_HOME": str(self.root / "xdg-state")}

    def process_env(self, **extra: str) -> dict[str, str]:
        python_path = os.pathsep.join(p for p in (str(PROJECT), os.environ.get("PYTHONPATH")) if p)
        return {**os.environ, **self.env, "PYTHONPATH": python_path, **extra}

    def folder(self, name: str) -> Path:
        path = self.root / name
        path.mkdir(parents=True, exist_ok=True)
        return path

    def repo(self, files: Mapping[str, str | bytes], *, config: str | None = MK_CONFIG,
             allowlist: str | None = ALL_CURRENT, name: str = "repo", commit: bool = True) -> Path:
        """A real git repo holding `files` plus renamer.yaml and allow.yaml, committed."""
        return make_repo(self.root / name, dict(files), config=config, allowlist=allowlist, commit=commit)

    def cli(self, cwd: Path, *args: str, env: Mapping[str, str | None] | None = None) -> Run:
        """renamer in this process, through click, as tests/conftest.py's `run` does."""
        previous = os.getcwd()
        start, cpu = time.monotonic(), _cpu()
        os.chdir(cwd)
        try:
            result = CliRunner().invoke(cli, list(args), env={**self.env, **(env or {})},
                                        catch_exceptions=False)
        finally:
            os.chdir(previous)
        return Run(result.exit_code, result.stdout_bytes.decode("utf-8", "replace"), result.stderr,
                   time.monotonic() - start, result.stdout_bytes, _cpu() - cpu)

    def process(self, cwd: Path, *args: str, env: Mapping[str, str] | None = None,
                timeout: float = 120) -> Run:
        """`python -m renamer` as a child process (a fresh interpreter: TMPDIR and signals are real)."""
        start = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "renamer", *args], cwd=cwd,
                              env=self.process_env(**(env or {})), capture_output=True, timeout=timeout,
                              check=False)
        return Run(done.returncode, done.stdout.decode("utf-8", "replace"),
                   done.stderr.decode("utf-8", "replace"), time.monotonic() - start, done.stdout)

    def on_close(self, cleanup: Callable[[], None]) -> None:
        self.cleanups.append(cleanup)

    def close(self) -> None:
        """Run the cleanups, last first; one that fails does not stop the others."""
        while self.cleanups:
            with contextlib.suppress(Exception):
                self.cleanups.pop()()


def commit_all(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


# -- checks on what renamer printed -----------------------------------------------------------


def no_crash(run: Run) -> None:
    """No traceback and no internal error, whatever the exit code."""
    if "Traceback (most recent call last)" in run.output or "internal error" in run.stderr:
        raise Crash(f"crashed: {run.brief()}")


def clear_error(run: Run, code: int) -> None:
    """Refused with exit `code` and errors of one line each, `renamer: error: ...`."""
    no_crash(run)
    require(run.exit_code == code, f"expected exit {code}, got {run.brief()}")
    lines = run.stderr.splitlines()
    require(bool(lines), f"exit {run.exit_code} with nothing on stderr")
    strays = [line for line in lines if not line.startswith("renamer: ")]
    require_none([repr(line) for line in strays], "a multi-line error")


def succeeded(run: Run, what: str = "renamer", *, decisions: bool = False) -> None:
    """It ran to the end: exit 0, or with `decisions` also exit 1 of a sweep that wrote and left
    references for a decision (issue 27 item 18: as verify would fail); the case checks them."""
    no_crash(run)
    left = decisions and run.exit_code == 1 and "left for a decision" in run.stdout + run.stderr
    require(run.exit_code == 0 or left, f"{what} failed: {run.brief()}")


# -- common shapes of a case ------------------------------------------------------------------


def config(*, hosts: Mapping[str, str] | None = None, addresses: Mapping[str, str] | None = None,
           networks: Mapping[str, str] | None = None, options: Mapping[str, object] | None = None,
           extra: str = "") -> str:
    """A renamer.yaml; mappings are written as JSON, which is YAML, so every key stays a string."""
    renames = {k: dict(v) for k, v in (("hosts", hosts), ("addresses", addresses),
                                       ("networks", networks)) if v}
    text = f"version: 1\nrenames: {json.dumps(renames)}\n"
    if options:
        text += f"options: {json.dumps(dict(options))}\n"
    return text + extra + "allowlist: allow.yaml\n"


def swept(scratch: Scratch, files: Mapping[str, str | bytes], *, cfg: str = MK_CONFIG,
          allowlist: str = ALL_CURRENT, args: Sequence[str] = ("sweep",)) -> tuple[Path, Run]:
    """A repo holding `files`, swept; the sweep must succeed."""
    root = scratch.repo(files, config=cfg, allowlist=allowlist)
    result = scratch.cli(root, *args)
    succeeded(result, " ".join(args), decisions=True)
    return root, result


def rewritten(scratch: Scratch, text: str, *, cfg: str = MK_CONFIG, name: str = "a.txt") -> str:
    """What a sweep makes of `text` in a current-state file."""
    root, _ = swept(scratch, {name: text}, cfg=cfg)
    return (root / name).read_text()


def differing(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """`got -> wanted` for each line that differs."""
    return [f"{got!r} (wanted {want!r})" for got, want in zip(before, after, strict=True) if got != want]


def fates(scratch: Scratch, lines: Sequence[str], *, cfg: str = MK_CONFIG,
          name: str = "a.txt") -> tuple[Path, list[str]]:
    """The swept repo, and per line of a current-state file what the sweep made of it, or
    whether verify (run before the sweep) flagged it as a near-miss."""
    root = scratch.repo({name: "\n".join(lines) + "\n"}, config=cfg)
    misses = near_misses(scratch, root)
    succeeded(scratch.cli(root, "sweep"), "sweep")
    after = (root / name).read_text().splitlines()
    out = []
    for number, (before, now) in enumerate(zip(lines, after, strict=True), 1):
        flagged = [str(m["text"]) for m in misses if m["line"] == number]
        if before != now:
            out.append(f"{before!r} -> {now!r}")
        elif flagged:
            out.append(f"{before!r} untouched, near-miss {', '.join(flagged)}")
        else:
            out.append(f"{before!r} untouched, not flagged")
    return root, out


def near_misses(scratch: Scratch, root: Path) -> list[dict[str, Any]]:
    result = scratch.cli(root, "verify", "--format", "json")
    no_crash(result)
    misses: list[dict[str, Any]] = result.json()["near_misses"]
    return misses


def refused_config(scratch: Scratch, cfg: str, *needles: str) -> Outcome:
    """A config that must be refused at load (exit 2, one line per problem naming renamer.yaml)."""
    root = scratch.repo({"a.txt": "ana-ml2\n"}, config=cfg)
    result = scratch.cli(root, "sweep", "--dry-run")
    no_crash(result)
    if result.exit_code == 0:
        second = _second_sweep_changes(scratch, root)
        return bug(f"accepted (exit 0){second}")
    clear_error(result, 2)
    require(all(line.startswith("renamer: error: renamer.yaml:") for line in result.stderr.splitlines()),
            f"the error does not name renamer.yaml: {first_line(result.stderr)}")
    missing = [n for n in needles if n not in result.stderr]
    require_none([f"{n!r} ({first_line(result.stderr)})" for n in missing], "refused, but the message lacks")
    return ok(f"refused: {first_line(result.stderr)}")


def _second_sweep_changes(scratch: Scratch, root: Path) -> str:
    first = scratch.cli(root, "sweep", "--commit")
    if first.exit_code != 0:
        return ""
    again = scratch.cli(root, "sweep", "--dry-run", "--format", "json")
    if again.exit_code != 0:
        return ""
    edits = again.json()["edits"]
    return f"; a second sweep rewrites {len(edits)} more" if edits else ""


def same_address(text: str, wanted: str) -> bool:
    """Whether `text` spells the address `wanted` (any IPv6 spelling)."""
    try:
        return ipaddress.ip_address(text) == ipaddress.ip_address(wanted)
    except ValueError:
        return False


# -- the docs, for doubtful rows --------------------------------------------------------------


def documented(*phrases: str) -> str:
    """Where the docs say so: 'documented in docs/x.md' for the first phrase found, else
    'not documented' (docs/*.md and README.md searched, spaces folded)."""
    for path in DOC_FILES:
        text = _folded(path.read_text())
        if any(_folded(p) in text for p in phrases):
            return f"documented in {path.relative_to(PROJECT).as_posix()}"
    return "not documented in docs/ or README.md"


def _folded(text: str) -> str:
    return re.sub(r"\s+", " ", text)
