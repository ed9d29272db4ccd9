"""Bad input and faults, through the CLI: a clear one-line error, the documented exit, nothing written."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.testing.repos import ALLOWLIST, CONFIG, git, make_repo, snapshot
from tests.testing.unprivileged import give_away, make_runner, shared_folder

LAUGHS = "version: 1\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
) + "renames: {hosts: {ana-ml2: fv-ml1}}\nname: *i\n"


def _one_line(result) -> None:  # type: ignore[no-untyped-def]
    assert "Traceback" not in result.stderr
    for line in result.stderr.splitlines():
        assert line.startswith(("renamer: error: ", "renamer: ")), line


@pytest.mark.parametrize("config, message", [
    pytest.param(LAUGHS, "renamer.yaml:2: a: unknown key", id="billion-laughs"),
    pytest.param("version: 1\nname: " + "[" * 20000 + "\n", "renamer.yaml", id="deep-nesting"),
    pytest.param("version: 1\n# " + "x" * (2 * 1024 * 1024) + "\n",
                 "bytes is too large for a configuration file", id="huge"),
    pytest.param("version: 1\nrenames: {hosts: {ana-ml2: fv-ml1}}\nname: \"\\xff\"\n\xff\n",
                 "not valid UTF-8", id="invalid-utf8"),
])
def test_hostile_configs_are_refused_quickly(repo, run, config: str, message: str) -> None:
    root = repo({"stacks/a.env": "HOST=ana-ml2\n"}, config=None)
    data = config.encode("utf-8", "surrogateescape") if "\xff" not in config else config.encode("latin-1")
    (root / "renamer.yaml").write_bytes(data)
    before = snapshot(root)
    start = time.monotonic()
    result = run(root, "sweep")
    assert time.monotonic() - start < 10
    assert result.exit_code == 2
    assert message in result.stderr
    _one_line(result)
    assert snapshot(root) == before


def test_hostile_yaml_in_a_swept_file(repo, run) -> None:
    bomb = LAUGHS.replace("version: 1\n", "").replace("renames: {hosts: {ana-ml2: fv-ml1}}\n", "")
    deep = "k: " + "[" * 5000 + "ana-ml2" + "]" * 5000 + "\n"
    root = repo({"stacks/bomb.yaml": bomb + "host: ana-ml2  # fv-ml1 already here\n", "stacks/deep.yaml": deep})
    start = time.monotonic()
    result = run(root, "sweep")
    assert time.monotonic() - start < 20 and result.exit_code == 0, result.stderr
    assert b"host: fv-ml1" in (root / "stacks/bomb.yaml").read_bytes()
    assert run(root, "verify").exit_code in (0, 1)  # it answers, whatever it finds


def test_allowlist_with_invalid_utf8(repo, run) -> None:
    root = repo({}, allowlist=None)
    (root / "allow.yaml").write_bytes(b"version: 1\ncurrent: [caf\xe9/**]\n")
    result = run(root, "verify")
    assert (result.exit_code, result.stderr) == (2, "renamer: error: allow.yaml:2: not valid UTF-8\n")


@pytest.fixture(scope="module")
def as_nobody():  # type: ignore[no-untyped-def]
    return make_runner()


def _shared_repo(files: dict[str, str]) -> Path:
    root = make_repo(shared_folder("renamer-hostile-") / "repo", files)
    give_away(root.parent)
    return root


def test_unreadable_file_refuses_the_sweep_and_fails_verify(as_nobody) -> None:  # type: ignore[no-untyped-def]
    root = _shared_repo({"stacks/a.env": "HOST=ana-ml2\n", "stacks/secret.env": "HOST=ana-ml2\n"})
    try:
        os.chmod(root / "stacks/secret.env", 0)
        result = as_nobody(["sweep"], root)
        assert result.returncode == 3, result.stderr
        assert result.stderr.startswith("renamer: error: stacks/secret.env: cannot read (Permission denied)")
        assert (root / "stacks/a.env").read_text() == "HOST=ana-ml2\n"
        checked = as_nobody(["verify"], root)
        assert checked.returncode == 1
        assert "Unreadable (1 file):\n  stacks/secret.env: Permission denied" in checked.stdout
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)


@pytest.mark.parametrize("what", ["file", "folder"])
def test_read_only_file_or_folder_refuses_and_writes_nothing(as_nobody, what: str) -> None:  # type: ignore[no-untyped-def]
    root = _shared_repo({"stacks/a.env": "HOST=ana-ml2\n", "stacks/ro/b.env": "HOST=ana-ml2\n"})
    locked = root / "stacks/ro" / ("b.env" if what == "file" else "")
    try:
        os.chmod(locked, 0o444 if what == "file" else 0o555)
        before = snapshot(root)
        result = as_nobody(["sweep"], root)
        assert result.returncode == 3, result.stderr
        assert result.stderr == "renamer: error: stacks/ro/b.env: not writable; nothing written\n"
        assert snapshot(root) == before
    finally:
        os.chmod(locked, 0o755)
        shutil.rmtree(root.parent, ignore_errors=True)


def test_full_disk_changes_nothing(tmp_path: Path, run) -> None:
    if os.geteuid() != 0:
        pytest.fail("this test mounts a small tmpfs: run it as root, as CI does")
    mount = tmp_path / "small"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], check=True)
    try:
        files = {f"stacks/f{i:02d}.env": "HOST=ana-ml2\n" + "x" * 20000 + "\n" for i in range(40)}
        root = make_repo(mount / "repo", files)
        filler = mount / "filler"
        with open(filler, "wb") as handle:  # leave about 100 kB: far less than the sweep needs
            try:
                while True:
                    handle.write(b"\0" * 65536)
                    handle.flush()
            except OSError:
                pass
        os.truncate(filler, max(0, filler.stat().st_size - 100_000))
        before = snapshot(root)
        result = run(root, "sweep")
        assert result.exit_code == 3, result.stderr
        assert result.stderr.startswith("renamer: error: cannot write stacks/f")
        assert "No space left on device; nothing changed" in result.stderr
        _one_line(result)
        assert snapshot(root) == before
        assert not (root / ".git/renamer-journal.json").exists()
        filler.unlink()
        assert run(root, "sweep").exit_code == 0
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_symlink_loops_and_links_out_of_the_repo(repo, run, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.env").write_text("HOST=ana-ml2\n")
    root = repo({"stacks/a.env": "HOST=ana-ml2\n"})
    os.symlink("loop2", root / "stacks/loop1")
    os.symlink("loop1", root / "stacks/loop2")
    os.symlink("self", root / "stacks/self")
    os.symlink("..", root / "stacks/up")
    os.symlink(str(outside), root / "stacks/out")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "links")
    assert run(root, "sweep").exit_code == 0
    assert (root / "stacks/a.env").read_text() == "HOST=fv-ml1\n"
    assert (outside / "x.env").read_text() == "HOST=ana-ml2\n"
    assert os.readlink(root / "stacks/loop1") == "loop2"
    assert run(root, "verify").exit_code == 0


def test_file_changed_during_the_sweep(repo) -> None:
    from renamer.errors import UnsafeError
    from renamer.project import load_project
    from renamer.sweep.apply import apply_plan
    from renamer.sweep.plan import plan_sweep

    root = repo({"stacks/a.env": "HOST=ana-ml2\n", "stacks/b.env": "HOST=ana-ml2\n"})
    plan = plan_sweep(load_project(root, None, root))
    (root / "stacks/b.env").write_text("HOST=ana-ml2\nedited meanwhile\n")
    with pytest.raises(UnsafeError, match=re.escape("stacks/b.env: changed during the sweep; nothing written")):
        apply_plan(plan)
    assert (root / "stacks/a.env").read_text() == "HOST=ana-ml2\n"


def test_detached_head_commits(repo, run) -> None:
    root = repo({"stacks/a.env": "HOST=ana-ml2\n"})
    git(root, "checkout", "-q", "--detach")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert git(root, "log", "-1", "--format=%s").startswith("fv-ml1-move:")
    assert git(root, "status", "--porcelain") == ""


def test_submodules_are_never_entered(repo, run, tmp_path: Path) -> None:
    inner = make_repo(tmp_path / "inner", {"stacks/in.env": "HOST=ana-ml2\n"}, config=None, allowlist=None)
    root = repo({"stacks/a.env": "HOST=ana-ml2\n"})
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "stacks/sub")
    git(root, "commit", "-q", "-m", "submodule")
    assert run(root, "sweep").exit_code == 0
    assert (root / "stacks/sub/stacks/in.env").read_text() == "HOST=ana-ml2\n"
    assert (root / "stacks/a.env").read_text() == "HOST=fv-ml1\n"


def test_nothing_needs_root(as_nobody) -> None:  # type: ignore[no-untyped-def]
    folder = shared_folder("renamer-demo-nobody-")
    give_away(folder)
    try:
        result = as_nobody(["demo"], folder)
        assert result.returncode == 0, result.stderr[-2000:]
        assert "dns verify: OK: 165 checks on 4 resolvers" in result.stdout
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_config_and_allowlist_paths_are_only_read(repo, run) -> None:
    root = repo({"stacks/a.env": "HOST=ana-ml2\n"}, config=CONFIG.replace("allowlist: allow.yaml",
                                                                          "allowlist: ../allow.yaml"))
    (root.parent / "allow.yaml").write_text(ALLOWLIST)
    assert run(root, "sweep").exit_code == 0
    assert (root.parent / "allow.yaml").read_text() == ALLOWLIST
