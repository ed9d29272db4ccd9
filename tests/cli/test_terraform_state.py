"""Names where Terraform keeps a configuration's state are kept by the sweep, each reported
(renamer/terraform_state.py): renamed, they point Terraform at a new, empty state."""

from __future__ import annotations

import json
from pathlib import Path

from tests.testing.repos import git, make_repo

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}
  addresses: {10.0.0.5: 10.1.0.5}
allowlist: allow.yaml
"""
CURRENT = "version: 1\ncurrent: ['**']\n"

# Each file: its text, then what the sweep leaves (only the server names and the resource's follow).
FILES = {
    "tf/cloud.tf": (
        'terraform {\n  cloud {\n    organization = "pug"\n    hostname     = "pug.ana.lan" # our TFE\n'
        '    workspaces {\n      name = "pug"\n    }\n  }\n}\n',
        'terraform {\n  cloud {\n    organization = "pug"\n    hostname     = "wolf.fv.lan" # our TFE\n'
        '    workspaces {\n      name = "pug"\n    }\n  }\n}\n'),
    "tf/tags/main.tf": (
        'terraform {\n  cloud {\n    workspaces {\n      tags = ["pug", "web"]\n    }\n  }\n}\n'
        'resource "terraform_data" "x" {\n  input = "pug.ana.lan"\n}\n',
        'terraform {\n  cloud {\n    workspaces {\n      tags = ["pug", "web"]\n    }\n  }\n}\n'
        'resource "terraform_data" "x" {\n  input = "wolf.fv.lan"\n}\n'),
    "tf/remote.tf": (
        'terraform {\n  backend "remote" {\n    workspaces { prefix = "pug-" }\n  }\n}\n'
        'terraform {\n  backend "remote" {\n    workspaces { name = "pug" }\n  }\n}\n',
        None),
    "tf/s3/backend.tf": (  # CRLF, a comment holding braces, an interpolated key
        'terraform {\r\n  # } not the end {\r\n  backend "s3" {\r\n'
        '    key      = "${local.env}/pug/terraform.tfstate"\r\n    workspace_key_prefix = "pug"\r\n'
        '    endpoint = "http://pug.ana.lan:9000"\r\n  }\r\n}\r\n',
        'terraform {\r\n  # } not the end {\r\n  backend "s3" {\r\n'
        '    key      = "${local.env}/pug/terraform.tfstate"\r\n    workspace_key_prefix = "pug"\r\n'
        '    endpoint = "http://wolf.fv.lan:9000"\r\n  }\r\n}\r\n'),
    "tf/local.tf": ('terraform {\n  backend "local" { path = "pug.tfstate" }\n}\n', None),
    "tf/remote_state.tf": (
        'data "terraform_remote_state" "net" {\n  backend   = "s3"\n  workspace = "pug"\n'
        '  config = {\n    key    = "pug/terraform.tfstate"\n    region = "us-east-1"\n  }\n}\n'
        'resource "tfe_workspace" "w" {\n  name = "pug"\n}\n',
        'data "terraform_remote_state" "net" {\n  backend   = "s3"\n  workspace = "pug"\n'
        '  config = {\n    key    = "pug/terraform.tfstate"\n    region = "us-east-1"\n  }\n}\n'
        'resource "tfe_workspace" "w" {\n  name = "wolf"\n}\n'),
    "tf/prod.s3.tfbackend": ('key = "pug/terraform.tfstate"\naddress = "https://pug.ana.lan/state"\n',
                             'key = "pug/terraform.tfstate"\naddress = "https://wolf.fv.lan/state"\n'),
    "tf/backend.hcl": ('key = "pug/terraform.tfstate"\n', None),
    "live/terragrunt.hcl": (
        'remote_state {\n  backend = "s3"\n  config = {\n    bucket = "pug"\n'
        '    key    = "${path_relative_to_include()}/pug.tfstate"\n  }\n}\n'
        'inputs = {\n  host = "pug.ana.lan"\n}\n',
        'remote_state {\n  backend = "s3"\n  config = {\n    bucket = "pug"\n'
        '    key    = "${path_relative_to_include()}/pug.tfstate"\n  }\n}\n'
        'inputs = {\n  host = "wolf.fv.lan"\n}\n'),
}
KEPT_PLACES = [
    "tf/backend.hcl:1", "tf/cloud.tf:3", "tf/cloud.tf:6", "tf/local.tf:2", "tf/prod.s3.tfbackend:1",
    "tf/remote.tf:3", "tf/remote.tf:8", "tf/remote_state.tf:3", "tf/remote_state.tf:5",
    "tf/s3/backend.tf:4", "tf/s3/backend.tf:5", "tf/tags/main.tf:4", "live/terragrunt.hcl:4",
    "live/terragrunt.hcl:5"]


def _repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", {rel: text for rel, (text, _) in FILES.items()},
                     config=CONFIG, allowlist=CURRENT)


def test_state_names_are_kept_by_the_sweep_and_everything_else_follows(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = _repo(tmp_path)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stderr
    for rel, (before, after) in FILES.items():
        assert (root / rel).read_bytes() == (after or before).encode(), rel
    assert f"Kept on purpose: terraform-state {len(KEPT_PLACES)}" in result.stdout
    assert ("Terraform state names, kept (14; move the state first (terraform state / workspace rename), "
            "then edit them by hand):") in result.stdout
    assert "  tf/s3/backend.tf:5:29: pug" in result.stdout
    assert git(root, "status", "--porcelain") == ""
    verify = run(root, "verify")
    assert verify.exit_code == 0, verify.stdout


def test_audit_lists_each_under_its_own_reason_and_explain_says_why(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = _repo(tmp_path)
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = [r for r in audit["references"] if r["reason"] == "terraform-state"]
    assert sorted(f"{r['path']}:{r['line']}" for r in kept) == sorted(KEPT_PLACES)
    assert all(r["status"] == "kept" for r in kept)
    text = run(root, "audit").stdout
    assert ("terraform-state (14): names where Terraform keeps this configuration's state; renaming it "
            "starts an empty state: move the state first (terraform state / workspace rename), then "
            "edit it by hand") in text
    explained = run(root, "explain", "tf/cloud.tf")
    assert explained.exit_code == 0
    assert "6:15  pug: kept: terraform-state: names where Terraform keeps" in explained.stdout
    assert "4:21  pug.ana.lan -> wolf.fv.lan: rewritten" in explained.stdout
    assert run(root, "verify").exit_code == 1  # the servers' names are still to sweep
    assert {r["path"] for r in json.loads(run(root, "verify", "--format", "json").stdout)["findings"]} == {
        "tf/cloud.tf", "tf/tags/main.tf", "tf/s3/backend.tf", "tf/remote_state.tf", "tf/prod.s3.tfbackend",
        "live/terragrunt.hcl"}


# Break-it round 16, finding 12: a workspace selected by the host's name, a state file whose own name
# a kept backend path reads, a local workspace's state folder.
WORKSPACES = {
    "ci/apply.sh": "#!/bin/sh\nterraform workspace select -or-create pug\nterraform apply -auto-approve\n"
                   "tofu workspace new pug\nterraform -chdir=tf workspace select pug\n"
                   "export TF_WORKSPACE=pug\nterraform workspace select \"$WS\"\nssh pug true\n",
    "atlantis.yaml": "version: 3\nprojects:\n  - dir: tf\n    workspace: pug\n",
    "tf/remote.tf": 'data "terraform_remote_state" "x" {\n  backend = "local"\n  config = {\n'
                    '    path = "../state/pug.tfstate"\n  }\n}\n',
    "state/pug.tfstate": "{}\n",
    "tf/terraform.tfstate.d/pug/terraform.tfstate": "{}\n",
    "hosts/pug/terraform.tfstate": "{}\n",  # the configuration's own state, moving with its folder
    "hosts/pug/main.tf": 'resource "terraform_data" "x" {\n  input = "pug.ana.lan"\n}\n',
}


def test_round16_workspaces_and_state_files_named_by_the_host_are_held(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = make_repo(tmp_path / "r", WORKSPACES, config=CONFIG, allowlist=CURRENT)
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    held = {(f["path"], f["line"]) for f in findings if f.get("reason") == "state-name"}
    # the advice speaks of the workspace, not of compose volumes (the note of every state name did)
    assert all("compose" not in f["note"] for f in findings if f.get("reason") == "state-name")
    assert held == {("ci/apply.sh", 2), ("ci/apply.sh", 4), ("ci/apply.sh", 5), ("ci/apply.sh", 6),
                    ("atlantis.yaml", 4), ("state/pug.tfstate", 0), ("tf/terraform.tfstate.d/pug/terraform.tfstate", 0)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "state/pug.tfstate").exists() and not (root / "state/wolf.tfstate").exists()
    assert (root / "tf/terraform.tfstate.d/pug/terraform.tfstate").exists()
    assert (root / "hosts/wolf/terraform.tfstate").exists()  # moved with its configuration
    apply = (root / "ci/apply.sh").read_text()
    assert apply == WORKSPACES["ci/apply.sh"].replace("ssh pug", "ssh wolf")
    assert (root / "atlantis.yaml").read_text() == WORKSPACES["atlantis.yaml"]
    assert '"../state/pug.tfstate"' in (root / "tf/remote.tf").read_text()  # kept, and it still names a file


# Break-it round 17, finding 7: the state's key on a command line, a Terragrunt unit whose key is its
# folder, a Pulumi stack, and a condition on the workspace's name; beside them what follows.
STATE_17 = {
    ".github/workflows/apply.yml":
        "jobs:\n  apply:\n    steps:\n"
        "      - run: terraform init -backend-config=\"key=hosts/pug.tfstate\" && terraform apply\n"
        "      - run: tofu init -backend-config key=pug/tf.tfstate -backend-config='bucket=pug'\n"
        "      - run: terraform init -backend-config=\"address=https://pug.ana.lan/state\"\n"
        "      - run: cd pulumi && pulumi stack select pug && pulumi up --yes --stack pug\n"
        "      - run: pulumi preview -s pug\n"
        "      - run: cd live/pug && terragrunt apply\n"
        "      - run: ssh pug true\n",
    "Makefile": "init:\n\tterraform init -backend-config=\"path=state/pug.tfstate\"\n",
    "live/root.hcl": 'remote_state {\n  backend = "s3"\n  config = { bucket = "tf", '
                     'key = "${path_relative_to_include()}/terraform.tfstate" }\n}\n',
    "live/pug/terragrunt.hcl": 'include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n'
                               'inputs = { fqdn = "pug.ana.lan" }\n',
    "units/pug/app/terragrunt.hcl": 'remote_state {\n  backend = "local"\n  config = {\n'
                                    '    path = "${get_terragrunt_dir()}/terraform.tfstate"\n  }\n}\n',
    "plain/pug/terragrunt.hcl": 'inputs = { fqdn = "pug.ana.lan" }\n',  # no state key from its path: moves
    "pulumi/Pulumi.yaml": "name: lab\nruntime: yaml\n",
    "pulumi/Pulumi.pug.yaml": "config:\n  lab:host: pug.ana.lan\n",
    "infra/main.tf": 'locals {\n  is_pug  = terraform.workspace == "pug"\n  not_pug = "pug" != terraform.workspace\n'
                     '  host    = "pug.ana.lan"\n}\n',
}


def test_round17_state_keys_on_command_lines_terragrunt_folders_and_pulumi_stacks_are_held(tmp_path: Path,
                                                                                        run) -> None:  # type: ignore[no-untyped-def]
    root = make_repo(tmp_path / "r", STATE_17, config=CONFIG, allowlist=CURRENT)
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = {(r["path"], r["line"]) for r in audit["references"] if r["reason"] == "terraform-state"}
    assert kept == {(".github/workflows/apply.yml", 4), (".github/workflows/apply.yml", 5), ("Makefile", 2)}
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    held = {(f["path"], f["line"]) for f in findings if f.get("reason") == "state-name"}
    assert held == {(".github/workflows/apply.yml", 7), (".github/workflows/apply.yml", 8),
                    ("live/pug/terragrunt.hcl", 0), ("units/pug/app/terragrunt.hcl", 0),
                    ("infra/main.tf", 2), ("infra/main.tf", 3)}
    notes = {f["path"]: f.get("note", "") for f in findings if f.get("reason") == "state-name"}
    assert "Terragrunt unit" in notes["live/pug/terragrunt.hcl"] and "live/root.hcl" in notes["live/pug/terragrunt.hcl"]
    assert "get_terragrunt_dir" not in notes["units/pug/app/terragrunt.hcl"]  # named by the file holding it
    assert "units/pug/app/terragrunt.hcl" in notes["units/pug/app/terragrunt.hcl"]
    assert "Pulumi stack" in notes[".github/workflows/apply.yml"]
    assert run(root, "sweep", "--commit").exit_code == 1
    workflow = (root / ".github/workflows/apply.yml").read_text()
    assert "key=hosts/pug.tfstate" in workflow and "key=pug/tf.tfstate" in workflow and "bucket=pug" in workflow
    assert "address=https://wolf.fv.lan/state" in workflow  # a server, not the state: follows
    assert "stack select pug" in workflow and "--stack pug" in workflow and "-s pug" in workflow
    assert "cd live/pug &&" in workflow and "ssh wolf true" in workflow  # the held folder's path kept
    assert (root / "live/pug/terragrunt.hcl").read_text().endswith('inputs = { fqdn = "wolf.fv.lan" }\n')
    assert (root / "units/pug/app/terragrunt.hcl").exists()
    assert (root / "plain/wolf/terragrunt.hcl").exists()  # its state key is not its folder
    assert 'terraform.workspace == "pug"' in (root / "infra/main.tf").read_text()
    assert 'host    = "wolf.fv.lan"' in (root / "infra/main.tf").read_text()
    assert (root / "Makefile").read_text() == STATE_17["Makefile"]


# Break-it round 18 (#2-#7): the same classes one spelling away.
STATE_18 = {
    ".github/workflows/tf.yml":
        "jobs:\n  plan:\n    steps:\n      - uses: dflook/terraform-apply@v1\n        with:\n"
        "          backend_config: key=hosts/pug.tfstate\n"
        "      - uses: dflook/terraform-plan@v1\n        with:\n          backend_config: |\n"
        "            bucket=pug\n            key=pug/x.tfstate\n"
        "      - run: |\n          terraform init \\\n            -backend-config \\\n"
        "            \"key=hosts/pug/a.tfstate\"\n"
        "      - run: terraform init -backend-config \"path = state/pug.tfstate\"\n"
        "      - uses: pulumi/actions@v5\n        with:\n          stack-name: lab/pug\n"
        "      - run: pulumi stack select --secrets-provider passphrase pug\n"
        "      - run: curl -s https://pug.ana.lan/pulumi.tgz\n",
    "ci/init.json": '{"args": ["init", "-backend-config", "key=hosts/pug/b.tfstate"]}\n',
    "infra/deploy.py": 'stack = auto.select_stack(stack_name="pug", work_dir=".")\n',
    "tf/ws.tf": 'locals {\n  a = "${terraform.workspace}" == "pug"\n  b = startswith(terraform.workspace, "pug")\n'
                '  c = contains(["pug", "rex"], terraform.workspace)\n}\n',
    "a/root.hcl": 'generate "backend" {\n  path     = "backend.tf"\n  contents = <<EOF\nterraform {\n'
                  '  backend "s3" {\n    key = "${path_relative_to_include()}/terraform.tfstate"\n  }\n}\nEOF\n}\n',
    "a/pug/terragrunt.hcl": 'include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n',
    "b/backend.hcl": 'remote_state {\n  backend = "s3"\n  config = { key = "${path_relative_to_include()}/tf.tfstate" }\n}\n',
    "b/env/pug/terragrunt.hcl": 'include "root" {\n  path = find_in_parent_folders("backend.hcl")\n}\n',
    "d/root.hcl": 'remote_state {\n  backend = "s3"\n'
                  '  config = { key = "${basename(get_original_terragrunt_dir())}/tf.tfstate" }\n}\n',
    "d/pug/terragrunt.hcl": 'include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n',
    # a path function used for something else than the state's key: the folder moves
    "e/root.hcl": 'remote_state {\n  backend = "s3"\n  config = { key = "shared/tf.tfstate" }\n}\n'
                  'terraform {\n  source = "${get_terragrunt_dir()}/../modules//app"\n}\n',
    "e/pug/terragrunt.hcl": 'include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n',
}


def test_round18_state_names_one_spelling_away_are_held_and_what_names_no_state_follows(tmp_path: Path,
                                                                                      run) -> None:  # type: ignore[no-untyped-def]
    root = make_repo(tmp_path / "r", STATE_18, config=CONFIG, allowlist=CURRENT)
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = {(r["path"], r["line"]) for r in audit["references"] if r["reason"] == "terraform-state"}
    assert kept == {(".github/workflows/tf.yml", 6), (".github/workflows/tf.yml", 10),
                    (".github/workflows/tf.yml", 11), (".github/workflows/tf.yml", 15),
                    (".github/workflows/tf.yml", 16), ("ci/init.json", 1)}, kept
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    held = {(f["path"], f["line"]) for f in findings if f.get("reason") == "state-name"}
    assert held == {(".github/workflows/tf.yml", 19), (".github/workflows/tf.yml", 20), ("infra/deploy.py", 1),
                    ("tf/ws.tf", 2), ("tf/ws.tf", 3), ("tf/ws.tf", 4), ("a/pug/terragrunt.hcl", 0),
                    ("b/env/pug/terragrunt.hcl", 0), ("d/pug/terragrunt.hcl", 0)}, held
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "e/wolf/terragrunt.hcl").exists()  # its state key is no path: it moves
    assert "curl -s https://wolf.fv.lan/pulumi.tgz" in (root / ".github/workflows/tf.yml").read_text()
    assert '"rex"' in (root / "tf/ws.tf").read_text() and '"pug"' in (root / "tf/ws.tf").read_text()
