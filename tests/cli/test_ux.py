"""Users' habits: colour only where it helps, progress only on a terminal, completion, entry points."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from renamer.cli.output import Output
from tests.testing.story import STORY


def test_colour_only_when_asked_or_on_a_terminal(repo, run) -> None:
    root = repo(STORY)
    plain = run(root, "sweep", "--dry-run").stdout_bytes
    assert b"\x1b[" not in plain
    coloured = run(root, "--color", "always", "sweep", "--dry-run").stdout_bytes
    assert b"\x1b[31m-    hostname: ana-ml2" in coloured and b"\x1b[32m+" in coloured
    assert b"\x1b[" not in run(root, "sweep", "--dry-run", "--color", "never").stdout_bytes


def test_no_color_and_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Tty())
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert Output("auto").use_color()
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Output("auto").use_color()
    assert Output("always").use_color()


def test_progress_draws_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert Output().progress("scanning") is None
    terminal = Tty()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert Output(verbosity=-1).progress("scanning") is None  # -q
    quick = Output().progress("scanning")  # work done within half a second draws nothing at all
    assert quick is not None
    quick(5, 10)
    quick(10, 10)
    assert terminal.getvalue() == ""
    report = Output().progress("scanning", after=0.0)
    assert report is not None
    report(10, 10)
    assert terminal.getvalue() == "\rscanning 10/10 files\n"


def test_shell_completion() -> None:
    env = {**os.environ, "_RENAMER_COMPLETE": "bash_complete", "COMP_WORDS": "renamer dns a",
           "COMP_CWORD": "2"}
    done = subprocess.run([sys.executable, "-m", "renamer"], env=env, capture_output=True, text=True)
    assert done.stdout.strip() == "plain,apply"


def test_entry_points_smoke() -> None:
    from renamer import __version__

    version = subprocess.run([sys.executable, "-m", "renamer", "--version"], capture_output=True, text=True)
    assert version.stdout == f"renamer, version {__version__}\n"
    helped = subprocess.run([sys.executable, "-m", "renamer", "sweep", "--help"], capture_output=True,
                            text=True)
    assert helped.returncode == 0 and "Examples:" in helped.stdout
    bad = subprocess.run([sys.executable, "-m", "renamer", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr.startswith("renamer: error: No such command 'nope'")
    assert "Traceback" not in bad.stderr


def test_verbose_says_what_it_loaded(repo, run) -> None:
    root = repo(STORY)
    result = run(root, "-v", "sweep", "--dry-run", "--format", "summary")
    assert f"renamer: repo {root} (git); config renamer.yaml; allowlists allow.yaml; 4 renames" in result.stderr
    assert "renamer: scanned 11 files in " in result.stderr
    assert "renamer: repo" not in run(root, "sweep", "--dry-run").stderr


def test_dns_apply_shows_progress_on_a_terminal_only(lab, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pty

    argv = [sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all",
            "--inventory", str(lab.inventory)]
    piped = subprocess.run(argv, cwd=lab.root, capture_output=True, text=True)
    assert piped.returncode == 0 and piped.stderr == ""
    for instance in lab.instances.values():  # so that the second apply has work to do
        for snippet in instance.snippet_dir.iterdir():
            snippet.unlink()
    leader, follower = pty.openpty()
    done = subprocess.run(argv, cwd=lab.root, stdout=subprocess.PIPE, stderr=follower, text=True)
    os.close(follower)
    drawn = os.read(leader, 65536).decode()
    os.close(leader)
    assert done.returncode == 0
    assert "\rdns apply 0/3 resolvers" in drawn and "\rdns apply 3/3 resolvers" in drawn


def test_unwritable_output_is_a_one_line_error(repo, run, tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = repo(STORY)
    result = run(root, "audit", "--output", str(tmp_path / "missing" / "audit.json"))
    assert result.exit_code == 2
    assert result.stderr == f"renamer: error: {tmp_path / 'missing' / 'audit.json'}: cannot write: No such file or directory\n"
    (tmp_path / "file").write_text("")
    shown = run(root, "dns", "render", "--inventory", str(Path(__file__).parent.parent.parent / "dns"),
                "--out", str(tmp_path / "file" / "snippets"))
    assert shown.exit_code == 2 and shown.stderr.startswith("renamer: error: ") and "cannot write" in shown.stderr


def test_dry_run_and_commit_together_is_a_usage_error(repo, run) -> None:  # type: ignore[no-untyped-def]
    from tests.testing.story import STORY

    root = repo(STORY)
    result = run(root, "sweep", "--dry-run", "--commit")
    assert result.exit_code == 2
    assert "--dry-run and --commit exclude each other" in result.stderr


def test_the_demo_copies_only_what_the_repository_tracks(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A wheel built where the example's script once ran holds its __pycache__: never copied."""
    import shutil

    from renamer import shipped as shipped_module

    source = tmp_path / "shipped"
    shutil.copytree(shipped_module.shipped("examples"), source / "examples")
    shutil.copytree(shipped_module.shipped("allowlists"), source / "allowlists")
    shutil.copytree(shipped_module.shipped("dns"), source / "dns")
    cache = source / "examples" / "fv-ml1" / "scripts" / "__pycache__"
    cache.mkdir()
    (cache / "healthcheck.cpython-311.pyc").write_bytes(b"\x00compiled")
    (source / "dns" / "sites" / "fv.yaml~").write_text("an editor's backup\n")
    monkeypatch.setattr(shipped_module, "shipped", lambda name: source / name)
    built = shipped_module.build_example(tmp_path / "demo")
    files = {p.relative_to(built).as_posix() for p in built.rglob("*") if ".git" not in p.parts}
    assert not any("__pycache__" in f or f.endswith((".pyc", "~")) for f in files), files
    assert "scripts/healthcheck.py" in files


def test_demo_keep_leaves_a_working_repo_with_its_inventory_as_shipped(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    from renamer.shipped import shipped

    kept = tmp_path / "kept"
    done = subprocess.run([sys.executable, "-m", "renamer", "demo", "--keep", str(kept)], capture_output=True,
                          text=True, errors="replace", timeout=300)  # the diff holds Latin-1 bytes
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert (kept / "dns" / "resolvers.yaml").read_bytes() == (shipped("dns") / "resolvers.yaml").read_bytes()
    status = subprocess.run(["git", "-C", str(kept), "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout == ""  # nothing left modified: a repo to look around in
    again = subprocess.run([sys.executable, "-m", "renamer", "verify"], cwd=kept, capture_output=True, text=True)
    assert again.returncode == 0, again.stdout
    readme = (kept / "DEMO.md").read_text()
    assert f"renamer demo --resolvers-only {kept}" in readme
    # What DEMO.md says works: the resolvers again, the DNS commands against them, Ctrl-C.
    lab = kept / ".git" / "renamer-demo"
    with subprocess.Popen([sys.executable, "-m", "renamer", "demo", "--resolvers-only", str(kept)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as serving:
        try:
            assert serving.stdout is not None and serving.stderr is not None
            said = [serving.stdout.readline() for _ in range(5)]
            assert said[-1] == "Press Ctrl-C to stop them.\n", said
            # A mixed fleet (Unbound is installed wherever the suite runs): ns-ana3 is an Unbound.
            assert (lab / "ns-ana3" / "unbound.conf").exists() and "ns-ana3: Unbound" in said[0], said
            pids = [int((lab / name / pid).read_text())
                    for name, pid in (("ns-ana", "dnsmasq.pid"), ("ns-ana2", "dnsmasq.pid"), ("ns-ana3", "unbound.pid"),
                                      ("fv-gw", "dnsmasq.pid"))]
            again_refused = subprocess.run([sys.executable, "-m", "renamer", "demo", "--resolvers-only", str(kept)],
                                           capture_output=True, text=True)
            assert again_refused.returncode == 3
            assert "the demo's resolvers already run from this folder" in again_refused.stderr
            for line in readme.splitlines():
                if line.strip().startswith("renamer dns "):
                    done_dns = subprocess.run([sys.executable, "-m", *line.split()], cwd=kept,
                                              capture_output=True, text=True)
                    assert done_dns.returncode == 0, line + done_dns.stdout + done_dns.stderr
            assert "dns verify: OK: 165 checks on 4 resolvers" in done_dns.stdout
            serving.send_signal(signal.SIGINT)
            assert serving.wait(timeout=30) == 0
            assert serving.stdout.read() == "Stopped the 4 resolvers.\n"
            assert serving.stderr.read() == ""
        except BaseException:
            serving.kill()  # it serves until Ctrl-C: a failed assertion must not leave the suite waiting on it
            raise
    assert not lab.exists()
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split(")")[1][:3]
    assert (kept / "dns" / "resolvers.yaml").read_bytes() == (shipped("dns") / "resolvers.yaml").read_bytes()
    not_a_demo = subprocess.run([sys.executable, "-m", "renamer", "demo", "--resolvers-only", str(tmp_path)],
                                capture_output=True, text=True)
    assert not_a_demo.returncode == 2 and "not a demo repo" in not_a_demo.stderr


def _many_files(root: Path, count: int, refs: int) -> None:
    """`count` tracked files of `refs` old references each: a scan that forks workers."""
    line = "ana-ml2 at 10.250.50.54 serves the gateway\n" * refs
    for number in range(count):
        folder = root / "stacks" / f"s{number % 50:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{number}.env").write_text(line)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-qm", "many"], check=True)


def test_ctrl_c_is_one_line_and_no_worker_traceback(repo) -> None:
    root = repo(STORY)
    _many_files(root, 4000, 60)
    # As a terminal's Ctrl-C does: SIGINT to the whole foreground process group, workers too.
    with subprocess.Popen([sys.executable, "-m", "renamer", "-vv", "verify"], cwd=root,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as process:
        assert process.stderr is not None
        seen = []
        for line in process.stderr:
            seen.append(line)
            if "workers forked" in line:
                os.killpg(process.pid, signal.SIGINT)
                break
        rest = process.stderr.read()
        assert process.wait(timeout=30) == 130, "".join(seen) + rest
    assert rest == "renamer: aborted\n"
    assert "Traceback" not in "".join(seen) + rest


def test_debug_logs_phases_workers_and_git_commands(repo, run) -> None:
    root = repo(STORY)
    _many_files(root, 3100, 1)
    verify = run(root, "-vv", "verify")
    logs = [line for line in verify.stderr.splitlines() if line.startswith("renamer: debug: ")]
    assert any(re.fullmatch(r"renamer: debug: load config and allowlists: [\d.]+ ms", line) for line in logs)
    assert any(re.fullmatch(r"renamer: debug: run: git -C \S+ ls-files -z --cached", line) for line in logs)
    per_worker = [line for line in logs if "files per worker" in line]
    assert len(per_worker) == 1
    found = re.fullmatch(r"renamer: debug: scan: (\d+) files in [\d.]+ ms, (\d+) forked workers; "
                         r"files per worker: ([\d, ]+)", per_worker[0])
    assert found, per_worker
    counts = [int(n) for n in found[3].split(", ")]
    assert sum(counts) == int(found[1]) and len(counts) == int(found[2]) >= 1
    assert any(re.fullmatch(r"renamer: debug: anchors: [\d.]+ ms", line) for line in logs)
    committed = run(root, "-vv", "sweep", "--commit")
    assert committed.exit_code == 1, committed.stderr  # issue 27 item 18: an unclassified file is left
    assert re.search(r"renamer: debug: run: git -C \S+ commit -q -m 'fv-ml1-move: ana-ml2 -> fv-ml1",
                     committed.stderr), committed.stderr
    assert re.search(r"renamer: debug: write and commit: [\d.]+ ms", committed.stderr)
    # Without -vv: no debug line, in the same process (the logs are switched off again).
    assert "debug:" not in run(root, "verify").stderr
