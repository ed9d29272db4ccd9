"""The terminal conventions people expect: -q, colour's order of precedence, the nearest command,
tables that fit, JSON with a schema, verify PATH..."""

from __future__ import annotations

import io
import json
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from renamer.cli.output import Output
from renamer.documents import SCHEMA
from renamer.table import table
from tests.conftest import Result

FILES = {"runbook.md": "ssh ana-ml2\n", "stacks/app.env": "HOST=ANA-ML2\n", "stacks/ok.env": "HOST=fv-ml1\n"}


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("flag", "env", "tty", "expected"), (
    pytest.param("always", {"NO_COLOR": "1"}, False, True, id="flag-beats-no-color"),
    pytest.param("never", {"FORCE_COLOR": "1"}, True, False, id="flag-beats-force-color"),
    pytest.param("auto", {"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False, id="no-color-beats-force-color"),
    pytest.param("auto", {"FORCE_COLOR": "1"}, False, True, id="force-color-on-a-pipe"),
    pytest.param("auto", {"CLICOLOR_FORCE": "1"}, False, True, id="clicolor-force-on-a-pipe"),
    pytest.param("auto", {"CLICOLOR_FORCE": "0"}, False, False, id="clicolor-force-zero-is-off"),
    pytest.param("auto", {"FORCE_COLOR": "1", "TERM": "dumb"}, False, True, id="force-color-beats-term-dumb"),
    pytest.param("auto", {"TERM": "dumb"}, True, False, id="term-dumb-beats-a-terminal"),
    pytest.param("auto", {}, True, True, id="a-terminal"),
    pytest.param("auto", {}, False, False, id="a-pipe"),
))
def test_colour_precedence(monkeypatch: pytest.MonkeyPatch, flag: str, env: dict[str, str], tty: bool,
                           expected: bool) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "stdout", Tty() if tty else io.StringIO())
    assert Output(flag).use_color() is expected  # type: ignore[arg-type]


def test_force_color_through_the_cli(repo: Callable[..., Path], run: Callable[..., Result],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    root = repo(FILES)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    from click.testing import CliRunner

    from renamer.cli import cli

    monkeypatch.chdir(root)
    piped = CliRunner().invoke(cli, ["verify"], env={"FORCE_COLOR": "1", "NO_COLOR": None})
    assert "\x1b[" in piped.stdout
    plain = CliRunner().invoke(cli, ["verify"], env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in plain.stdout


def test_quiet_verify_prints_its_findings_alone(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(FILES)
    loud, quiet = run(root, "verify"), run(root, "-q", "verify")
    assert loud.exit_code == quiet.exit_code == 1
    assert "verify: FAILED" in loud.stdout and "near-miss" in loud.stdout
    assert quiet.stdout == "runbook.md:1:5: residual: ana-ml2 -> fv-ml1: current-state file: `renamer sweep` rewrites it\n    ssh ana-ml2\n"
    assert quiet.stderr == ""
    strict = run(root, "verify", "--strict", "-q")  # near-misses are findings with --strict
    assert "error: near-miss" in strict.stdout and "verify:" not in strict.stdout


def test_quiet_sweep_prints_the_diff_alone(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(FILES)
    quiet = run(root, "-q", "sweep", "--dry-run")
    assert quiet.stdout.startswith("diff --git a/runbook.md b/runbook.md")
    assert "Summary" not in quiet.stdout and "would change" not in quiet.stdout
    assert run(root, "sweep", "--commit", "-q").stdout == ""


@pytest.mark.parametrize(("argv", "suggestion"), (
    pytest.param(["swep"], "'sweep'", id="sweep"),
    pytest.param(["verfy"], "'verify'", id="verify"),
    pytest.param(["dns", "aply"], "'apply'", id="a-sub-command"),
))
def test_a_mistyped_command_gets_the_nearest(run: Callable[..., Result], tmp_path: Path, argv: list[str],
                                             suggestion: str) -> None:
    done = run(tmp_path, *argv)
    assert done.exit_code == 2
    assert f"Did you mean {suggestion}?" in done.stderr


def test_no_suggestion_for_nothing_like_a_command(run: Callable[..., Result], tmp_path: Path) -> None:
    done = run(tmp_path, "frobnicate")
    assert done.exit_code == 2 and "Did you mean" not in done.stderr


@pytest.mark.parametrize("width", (100, 40, 20))
def test_tables_fit_the_terminal(width: int) -> None:
    rows = [["check", "ns-ana", "ns-fv"], ["A fv-ml1.fv.lan -> 10.251.50.54, a long label", "ok", "FAIL"]]
    lines = table(rows, width=width).splitlines()
    assert all(len(line) <= max(width, 8 + 2 + 6 + 2 + 5) for line in lines)
    assert lines[1].split()[-2:] == ["ok", "FAIL"]  # the short columns keep their cells whole
    if width < 60:
        assert "…" in lines[1]
    assert table(rows).splitlines()[1].startswith(rows[1][0])  # piped: every cell whole


@pytest.mark.parametrize("argv", (
    pytest.param(["verify", "--format", "json"], id="verify"),
    pytest.param(["audit", "--format", "json"], id="audit"),
    pytest.param(["sweep", "--dry-run", "--format", "json"], id="sweep"),
    pytest.param(["explain", "runbook.md", "--format", "json"], id="explain"),
    pytest.param(["log", "--format", "json"], id="log"),
    pytest.param(["verify", "--staged", "--format", "json"], id="tombstones"),
    pytest.param(["audit", "--prune", "--format", "json"], id="prune"),
))
def test_every_json_document_carries_its_schema(repo: Callable[..., Path], run: Callable[..., Result],
                                                argv: list[str]) -> None:
    root = repo(FILES)
    document = json.loads(run(root, *argv).stdout)
    assert document["schema"] == SCHEMA and next(iter(document)) == "schema"


def test_the_api_data_carries_the_schema_too(repo: Callable[..., Path]) -> None:
    import renamer

    project = renamer.open_project(repo(FILES))
    assert project.verify().data()["schema"] == SCHEMA
    assert project.plan().data()["schema"] == SCHEMA


def test_verify_paths_checks_only_those(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(FILES)
    assert run(root, "verify", "stacks/ok.env").exit_code == 0
    only = json.loads(run(root, "verify", "stacks", "--format", "json").stdout)
    assert {f["path"] for f in only["findings"]} <= {"stacks/app.env"}
    assert {m["path"] for m in only["near_misses"]} == {"stacks/app.env"}
    assert run(root, "verify", "runbook.md").exit_code == 1
    refused = run(root, "verify", "--staged", "runbook.md")
    assert refused.exit_code == 2 and "PATH" in refused.stderr


def test_query_ids_are_random() -> None:
    """`dns verify`'s pipelined queries draw their message ids at random, as dnspython does."""
    from renamer.dns.query import DnsPythonQuerier

    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind(("127.0.0.1", 0))
    seen: list[int] = []

    def answer() -> None:
        import dns.message

        for _ in range(40):
            wire, peer = server.recvfrom(65535)
            seen.append(int.from_bytes(wire[:2], "big"))
            server.sendto(dns.message.make_response(dns.message.from_wire(wire)).to_wire(), peer)

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    import ipaddress

    querier = DnsPythonQuerier(SimpleNamespace(address=ipaddress.ip_address("127.0.0.1"),  # type: ignore[arg-type]
                                               port=server.getsockname()[1], timeout=2.0))
    questions = [(f"h{i}.example.invalid", "A") for i in range(20)]
    assert all(a is not None for a in querier.many(questions))
    assert all(a is not None for a in querier.many(questions))
    thread.join(5)
    server.close()
    assert len(seen) == 40 and len(set(seen)) > 30  # not one formula of the question's index
    assert seen[:20] != seen[20:]


def test_quiet_init_prints_nothing(tmp_path: Path, run: Callable[..., Result]) -> None:
    from tests.testing.repos import make_repo

    root = make_repo(tmp_path / "r", {"stacks/app.env": "HOST=ana-ml2\n"}, config=None, allowlist=None)
    done = run(root, "-q", "init", "--from", "ana-ml2=fv-ml1")
    assert done.exit_code == 0 and done.stdout == "" and done.stderr == ""
    assert (root / "renamer.yaml").is_file()


def test_narrow_tables_keep_the_column_that_names_each_row() -> None:
    rows = [["check", "ns-ana", "ns-fv"], ["ana-nas.ana.lan A", "ok", "FAIL"], ["ana-nas.ana.lan AAAA", "ok", "ok"]]
    lines = table(rows, width=40).splitlines()
    assert lines[1].startswith("ana-nas.ana.lan A ") and lines[2].startswith("ana-nas.ana.lan AAAA")
    probe = [["endpoint", "where", "result"],
             ["http://fv-ml1:8001/v1", "stacks/litellm/config.yaml:12 [model_list[0].api_base]", "ok"],
             ["http://fv-ml1:8002/v1", "stacks/litellm/config.yaml:19 [model_list[1].api_base]", "FAIL"]]
    cut = table(probe, width=50).splitlines()
    assert [line.split()[0] for line in cut[1:]] == ["http://fv-ml1:8001/v1", "http://fv-ml1:8002/v1"]
    assert all(len(line) <= 50 for line in cut)


def test_wide_characters_keep_the_columns_aligned() -> None:
    from renamer.table import shown_width

    rows = [["", ""], ["notes/日本語のメモ", "3"], ["notes/plain", "12"], ["notes/e\u0301", "1"]]
    lines = table(rows).splitlines()[1:]
    starts = {shown_width(line[:len(line) - len(line.lstrip(" ").split()[-1])]) for line in lines}
    assert len(starts) == 1, lines  # the counts start in one column


def test_verify_warns_of_a_path_it_does_not_check(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**FILES, ".gitignore": "ign.txt\n", "ign.txt": "ana-ml2\n"})
    done = run(root, "verify", "ign.txt")
    assert "renamer: warning: ign.txt: no file here is checked" in done.stderr
    assert "warning" not in run(root, "verify", "stacks").stderr


def test_diff_colour_never_takes_a_body_line_for_a_header() -> None:
    diff = b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n--- ana-ml2 note\n+++ fv-ml1 plus\n"
    coloured = Output("always").color_diff(diff).splitlines()
    assert coloured[1:3] == [b"--- a/x", b"+++ b/x"]
    assert coloured[4] == b"\x1b[31m--- ana-ml2 note\x1b[0m" and coloured[5] == b"\x1b[32m+++ fv-ml1 plus\x1b[0m"
