"""The plan guard's pure parts (renamer/terraform_plan.py): terraform's JSON lines, replace paths,
and when a folder needs `terraform init` first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from renamer.sweep.stale import accepts_a_plan
from renamer.terraform_plan import Change, attribute_path, init_needed, parse_stream, replace_paths


def _line(kind: str, action: str, addr: str, previous: str | None = None, reason: str | None = None) -> str:
    change: dict[str, object] = {"resource": {"addr": addr}, "action": action}
    if previous:
        change["previous_resource"] = {"addr": previous}
    if reason:
        change["reason"] = reason
    return json.dumps({"type": kind, "change": change})


def test_the_stream_gives_changes_drift_and_error_diagnostics() -> None:
    text = "\n".join([
        json.dumps({"type": "version", "terraform": "1.11.4"}),
        _line("planned_change", "move", "terraform_data.wolf", "terraform_data.pug"),
        _line("planned_change", "replace", "module.m.terraform_data.web[0]", reason="cannot_update"),
        _line("resource_drift", "delete", "terraform_data.gone"),
        "not json", "[1, 2]", json.dumps({"type": "planned_change", "change": {"resource": {}}}),
        json.dumps({"type": "diagnostic", "diagnostic": {"severity": "warning", "summary": "w"}}),
        json.dumps({"type": "diagnostic", "diagnostic": {
            "severity": "error", "summary": "Module not installed", "detail": "Run \"terraform\ninit\".",
            "range": {"filename": "main.tf", "start": {"line": 3}}}}),
    ])
    changes, errors = parse_stream(text, "infra")
    assert changes == [Change("infra", "terraform_data.wolf", "move", "terraform_data.pug"),
                       Change("infra", "module.m.terraform_data.web[0]", "replace", reason="cannot_update"),
                       Change("infra", "terraform_data.gone", "delete", drift=True)]
    assert errors == ['main.tf:3: Module not installed: Run "terraform init".']
    assert [c.fails for c in changes] == [False, True, True]
    assert changes[2].message().startswith("terraform_data.gone: drift: delete; a renamed label needs")


@pytest.mark.parametrize(("steps", "shown"), [
    (["triggers_replace"], "triggers_replace"), (["tags", "Name"], "tags.Name"),
    (["tags", "kubernetes.io/role"], 'tags["kubernetes.io/role"]'), (["disk", 0, "size"], "disk[0].size"),
])
def test_an_attribute_path_reads_as_hcl(steps: list[object], shown: str) -> None:
    assert attribute_path(steps) == shown


def test_replace_paths_per_address() -> None:
    plan = {"resource_changes": [
        {"address": "a.b", "change": {"replace_paths": [["triggers_replace"], ["tags", "Name"]]}},
        {"address": "c.d", "change": {"actions": ["update"]}}, "junk"]}
    assert replace_paths(json.dumps(plan)) == {"a.b": ("triggers_replace", "tags.Name")}
    assert replace_paths("{") == {}


@pytest.mark.parametrize(("text", "why"), [
    ('resource "terraform_data" "a" {}\ndata "terraform_remote_state" "s" {}\n', None),
    ('module "m" {\n  source = "./m"\n}\n', "main.tf calls a module"),
    ('terraform {\n  backend "local" {}\n}\n', "main.tf configures a backend"),
    ('terraform {\n  cloud {\n  }\n}\n', "main.tf configures a backend"),
    ('resource "aws_instance" "a" {}\n', "main.tf uses the provider aws"),
    ('resource "random" "a" {}\n', "main.tf uses the provider random"),
    ('provider "docker" {}\n', "main.tf uses the provider docker"),
])
def test_what_needs_init(text: str, why: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "main.tf").write_text(text)
    assert init_needed(tmp_path) == why
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.setenv("TF_DATA_DIR", str(tmp_path / "elsewhere"))  # init wrote there
    assert init_needed(tmp_path) is None
    monkeypatch.delenv("TF_DATA_DIR")
    (tmp_path / ".terraform.lock.hcl").write_text("")
    assert init_needed(tmp_path) is None


@pytest.mark.parametrize(("contains", "patterns", "accepts"), [
    ("terraform_data.web", ["infra/main.tf"], True),
    ("module.m.aws_instance.x", ["infra/**"], True),
    ("data.aws_ami.x", ["**/*.tf"], True),
    ("terraform_data.web", ["notes.md"], False),  # no .tf file: a keep rule like any other
    ("pug.lan", ["infra/main.tf"], False),  # a host name: no provider prefix
    ("terraform_data.web # x", ["infra/main.tf"], False),
    (None, ["infra/main.tf"], False),
])
def test_a_keep_rule_naming_an_address_of_a_tf_file_accepts_a_plan(contains: str | None, patterns: list[str],
                                                                   accepts: bool) -> None:
    assert accepts_a_plan(contains, patterns, ["infra/main.tf", "notes.md"]) is accepts
