"""Run renamer as an unprivileged user, even when the tests run as root (as CI does).

Root reads unreadable files and writes read-only ones, so those faults are
only real for another user. As root, the CLI runs as uid 65534 on Debian's
own python3 (the same minor version) with a world-readable copy of the
package and its dependencies; as any other user, it simply runs as that user.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

NOBODY = 65534
MODULES = ["renamer", "click", "ruamel", "_ruamel_yaml", "git", "gitdb", "smmap", "libcst", "dns",
           "pathspec", "yaml", "typing_extensions"]
Runner = Callable[..., subprocess.CompletedProcess[str]]


def shared_folder(prefix: str) -> Path:
    """A folder the unprivileged user can reach and own."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    folder.chmod(0o755)
    return folder


def give_away(path: Path) -> None:
    if os.geteuid() != 0:
        return
    for folder, dirs, files in os.walk(path):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(folder, name), NOBODY, NOBODY)
    os.lchown(path, NOBODY, NOBODY)


def _system_python() -> str:
    wanted = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (f"/usr/bin/{wanted}", "/usr/bin/python3"):
        if os.path.exists(candidate):
            done = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2])"],
                                  capture_output=True, text=True, check=False)
            if done.stdout.strip() == str(tuple(sys.version_info[:2])):
                return candidate
    raise RuntimeError(f"the unprivileged tests need Debian's {wanted} (apt-get install {wanted})")


def make_runner() -> Runner:
    if os.geteuid() != 0:
        def run_as_me(args: list[str], cwd: Path, **kw: object) -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-m", "renamer", *args], cwd=cwd, capture_output=True,
                                  text=True, errors="replace", check=False, **kw)  # type: ignore[call-overload]
        return run_as_me
    python = _system_python()
    deps = shared_folder("renamer-unprivileged-")
    for name in MODULES:
        module = importlib.import_module(name)
        package = getattr(module, "__path__", None)  # packages, namespace packages (ruamel) too
        if package:
            folder = Path(next(iter(package)))
            shutil.copytree(folder, deps / folder.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(Path(module.__file__ or ""), deps)
    for data in ("allowlists", "dns", "examples"):  # as the wheel ships them
        from renamer.shipped import shipped

        shutil.copytree(shipped(data), deps / "renamer" / "_shipped" / data)
    for path in deps.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    home = shared_folder("renamer-unprivileged-home-")
    give_away(home)

    def drop() -> None:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)

    def run_as_nobody(args: list[str], cwd: Path, **kw: object) -> subprocess.CompletedProcess[str]:
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "PYTHONPATH": str(deps), "HOME": str(home),
               "TMPDIR": "/tmp", "NO_COLOR": "1", "GIT_CONFIG_NOSYSTEM": "1"}
        # `python3 -m renamer` in the sandbox: the entry point is the module, PATH has no renamer
        return subprocess.run([python, "-m", "renamer", *args], cwd=cwd, env=env, capture_output=True,
                              text=True, errors="replace", check=False, preexec_fn=drop, **kw)  # type: ignore[call-overload]

    return run_as_nobody
