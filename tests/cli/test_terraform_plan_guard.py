"""The plan guard (issue 32, item 3): `verify --terraform DIR` asks terraform itself what the swept
tree would do to the objects its state holds, and fails on a delete or replace nobody accepted.
The real terraform binary, the builtin `terraform_data` resource (no provider download): each
test applies the old tree into a local state, sweeps, then verifies; the state's bytes never
change (renamer/terraform_plan.py, cli/plan_guard.py)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.said import once

TERRAFORM = "/usr/local/bin/terraform"
CONFIG = ("version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\nallowlist: allow.yaml\n")
ALLOW = "version: 1\ncurrent: ['**']\n"
IGNORE = ".terraform/\n*.tfstate\n*.tfstate.*\n"
LABEL = ('resource "terraform_data" "pug" {\n  input = "pug.ana.lan"\n}\n'
         'output "o" {\n  value = terraform_data.pug.output\n}\n')
TRIGGER = 'resource "terraform_data" "web" {\n  triggers_replace = ["pug.ana.lan"]\n  input = "x"\n}\n'


def _terraform(root: Path, *args: str) -> None:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1"}
    done = subprocess.run([TERRAFORM, *args, "-input=false", "-no-color"], cwd=root, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def _applied(repo: Callable[..., Path], files: dict[str, str], *, config: str = CONFIG,
             allow: str = ALLOW) -> Path:
    """The old tree, committed, initialised and applied into ./terraform.tfstate (git-ignored)."""
    root = repo({**files, ".gitignore": IGNORE}, config=config, allowlist=allow)
    _terraform(root, "init")
    _terraform(root, "apply", "-auto-approve")
    assert (root / "terraform.tfstate").is_file()
    return root


def _swept(root: Path, run: Callable[..., Result]) -> None:
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr


def test_a_label_rename_plans_a_move_and_passes(repo: Callable[..., Path], run: Callable[..., Result],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    root = _applied(repo, {"main.tf": LABEL})
    state = (root / "terraform.tfstate").read_bytes()
    _swept(root, run)
    # the user's extra flags for every plan are not added to renamer's (here one would plan a replace)
    monkeypatch.setenv("TF_CLI_ARGS_plan", "-replace=terraform_data.wolf")
    assert 'resource "terraform_data" "wolf"' in (root / "main.tf").read_text()
    done = run(root, "verify", "--terraform", ".")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert ".: terraform plan: ok: terraform_data.wolf (was terraform_data.pug): update" in done.stdout, done.stdout
    assert done.stdout.rstrip().endswith("; terraform plan -refresh=false: 1 move, 0 deletes or replaces not accepted (.)")
    data = json.loads(run(root, "verify", "--terraform", ".", "--format", "json").stdout)
    assert data["ok"] is True
    assert [(c["address"], c["previous"], c["fails"]) for c in data["terraform"][0]["changes"]] == [
        ("terraform_data.wolf", "terraform_data.pug", False)]
    assert (root / "terraform.tfstate").read_bytes() == state  # read-only: no state written
    assert not list(root.glob("*.tfplan")) and not (root / "terraform.tfstate.backup").exists()
    done = run(root, "verify", "--staged", "--terraform", ".")
    assert done.exit_code == 2 and "--terraform plans the work tree" in done.stderr, done.stderr


def test_a_trigger_holding_the_old_name_fails_naming_the_address_and_the_attribute(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = _applied(repo, {"main.tf": TRIGGER})
    state = (root / "terraform.tfstate").read_bytes()
    _swept(root, run)
    assert '["wolf.fv.lan"]' in (root / "main.tf").read_text()
    assert run(root, "verify").exit_code == 0  # the text alone is clean
    done = run(root, "verify", "--terraform", ".")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (".: terraform plan: error: terraform_data.web: replace, forced by triggers_replace; a value it "
            "cannot update changed: keep it, or --allow-replace terraform_data.web") in done.stdout, done.stdout
    assert "verify: FAILED: 0 residual" in done.stdout
    found = json.loads(run(root, "verify", "--terraform", ".", "--format", "json").stdout)
    assert found["ok"] is False
    assert [(c["address"], c["action"], c["forced_by"]) for c in found["terraform"][0]["changes"]] == [
        ("terraform_data.web", "replace", ["triggers_replace"])]
    # accepted by the flag
    done = run(root, "verify", "--terraform", ".", "--allow-replace", "terraform_data.web")
    assert done.exit_code == 0, done.stdout
    assert "ok: terraform_data.web: replace, forced by triggers_replace; accepted by --allow-replace" in done.stdout
    # a flag naming nothing planned accepts nothing and says so
    done = run(root, "verify", "--terraform", ".", "--allow-replace", "terraform_data.wbe")
    assert done.exit_code == 1
    assert "--allow-replace terraform_data.wbe: no planned delete or replace has this address" in done.stderr
    assert (root / "terraform.tfstate").read_bytes() == state


def test_a_keep_rule_with_a_reason_accepts_a_replace_and_the_config_lists_the_folder(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    allow = ALLOW + ("keep:\n  - name: web-rebuilt\n    path: infra/main.tf\n    line_contains: terraform_data.web\n"
                     "    reason: the web box is rebuilt at the cutover anyway\n")
    root = repo({"infra/main.tf": TRIGGER, ".gitignore": IGNORE}, config=CONFIG + "terraform: [infra]\n",
                allowlist=allow)
    _terraform(root / "infra", "init")
    _terraform(root / "infra", "apply", "-auto-approve")
    _swept(root, run)
    done = run(root, "verify")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert ("infra: terraform plan: ok: terraform_data.web: replace, forced by triggers_replace; accepted by keep "
            "rule web-rebuilt (the web box is rebuilt at the cutover anyway)") in done.stdout, done.stdout
    # the rule keeps no line (the plan is what it accepts): never stale, never pruned
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert audit["stale_exemptions"] == [], audit["stale_exemptions"]
    assert "nothing to prune" in run(root, "audit", "--prune").stdout
    # without the rule, the configured folder fails verify on its own
    (root / "allow.yaml").write_text(ALLOW)
    assert run(root, "verify").exit_code == 1


def test_a_removed_resource_plans_a_delete_that_fails_until_accepted(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = _applied(repo, {"main.tf": LABEL + 'resource "terraform_data" "gone" {}\n'})
    (root / "main.tf").write_text(LABEL)  # removed by hand, beside the sweep
    subprocess.run(["git", "-C", str(root), "commit", "-qam", "gone"], check=True, capture_output=True)
    _swept(root, run)
    done = run(root, "verify", "--terraform", ".")
    assert done.exit_code == 1
    assert "error: terraform_data.gone: delete (delete_because_no_resource_config)" in done.stdout, done.stdout
    assert "ok: terraform_data.wolf (was terraform_data.pug): update" in done.stdout
    assert run(root, "verify", "--terraform", ".", "--allow-replace", "terraform_data.gone").exit_code == 0


def test_a_folder_never_initialised_is_refused_with_the_init_command(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"infra/main.tf": 'module "web" {\n  source = "./mod"\n}\n', "infra/mod/main.tf": TRIGGER}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "verify", "--terraform", "infra")
    assert done.exit_code == 2
    assert done.stderr == ("renamer: error: infra: not initialised (main.tf calls a module, and there is no "
                           ".terraform/ or .terraform.lock.hcl): run `terraform -chdir=infra init` first; renamer "
                           "never runs init\n"), done.stderr
    assert not (root / "infra" / ".terraform").exists()  # renamer ran no init
    # a folder whose module was renamed since init: terraform's own "init" diagnostic, one line, exit 2
    _terraform(root / "infra", "init")
    (root / "infra" / "main.tf").write_text('module "web2" {\n  source = "./mod"\n}\n')
    done = run(root, "verify", "--terraform", "infra")
    assert done.exit_code == 2
    assert done.stderr.startswith("renamer: error: infra: `terraform plan` failed (exit 1): main.tf:1: Module not "
                                  "installed: ") and done.stderr.count("\n") == 1, done.stderr
    assert "run `terraform -chdir=infra init` first" in done.stderr
    done = run(root, "verify", "--terraform", "nowhere")
    assert (done.exit_code, done.stderr) == (2, "renamer: error: nowhere: folder not found: --terraform and "
                                                "renamer.yaml's `terraform:` name the folders terraform plans\n")


def test_terraform_failing_or_running_too_long_is_one_line_exit_2(
        repo: Callable[..., Path], run: Callable[..., Result], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = repo({"main.tf": 'output "o" {\n  value = terraform_data.nothing.id\n}\n', ".gitignore": IGNORE},
                config=CONFIG, allowlist=ALLOW)
    done = run(root, "verify", "--terraform", ".")
    assert done.exit_code == 2
    assert done.stderr.startswith("renamer: error: .: `terraform plan` failed (exit 1): main.tf:2: Reference to "
                                  "undeclared resource: ") and done.stderr.count("\n") == 1, done.stderr
    # options.terraform_binary: tofu, found on PATH: here one that never answers
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "tofu").write_text("#!/bin/sh\nexec sleep 30\n")
    (bin_dir / "tofu").chmod(0o755 | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    (root / "renamer.yaml").write_text(CONFIG + "options:\n  terraform_binary: tofu\n")
    done = run(root, "verify", "--terraform", ".", "--terraform-timeout", "1")
    assert (done.exit_code, done.stderr) == (2, "renamer: error: .: `tofu plan` ran past 1s and was stopped; "
                                                "nothing was written (--terraform-timeout gives it longer)\n")
    # a remote backend's run saves no plan file: planned again without `-out`, the plan read all the same
    (bin_dir / "tofu").write_text(
        "#!/bin/sh\ncase \"$*\" in *-out=*) echo '" + json.dumps({"type": "diagnostic", "diagnostic": {
            "severity": "error", "summary": "Saving a generated plan is currently not supported"}}) + "'; exit 1;;\n"
        "esac\necho '" + json.dumps({"type": "planned_change", "change": {
            "resource": {"addr": "terraform_data.web"}, "action": "delete"}}) + "'\n")
    done = run(root, "verify", "--terraform", ".")
    assert done.exit_code == 1 and ".: tofu plan: error: terraform_data.web: delete;" in done.stdout, done.stdout
    (bin_dir / "tofu").unlink()  # no tofu on this machine's PATH otherwise
    done = run(root, "verify", "--terraform", ".")
    assert done.exit_code == 2 and done.stderr.startswith("renamer: error: tofu: not found on PATH"), done.stderr


@pytest.mark.parametrize(("text", "error"), [
    ("terraform: 5\n", "renamer.yaml:5: terraform: expected a folder or a list of folders, got a number"),
    # break-it round 20k, finding 19: each a folder of the repository, said where renamer.yaml says it
    ("terraform: nope\n", "renamer.yaml:5: terraform: 'nope' is not found (where a sweep renamed the folder, "
                          "name its new path)"),
    ("terraform: [., main.tf]\n", "renamer.yaml:5: terraform: 'main.tf' is not a folder"),
    ("terraform: ../\n", "renamer.yaml:5: terraform: '../' is outside the repository: terraform plans a folder of it"),
    ("terraform: [infra, '']\n", "renamer.yaml:5: terraform: expected a folder or a list of folders, got a list"),
    ("options:\n  terraform_binary: terraformx\n",
     "renamer.yaml:6: options.terraform_binary: expected terraform or tofu, got 'terraformx'"),
    ("options:\n  moved_expiry: -3\n",
     "renamer.yaml:6: options.moved_expiry: expected a number of days from 1 to 36500, got -3"),
])
def test_a_bad_terraform_setting_is_one_line(text: str, error: str, repo: Callable[..., Path],
                                             run: Callable[..., Result]) -> None:
    root = repo({"main.tf": TRIGGER}, config=CONFIG + text, allowlist=ALLOW)
    done = run(root, "verify")
    assert (done.exit_code, done.stderr) == (2, f"renamer: error: {error}\n"), done.stderr


def test_a_module_instance_is_accepted_by_its_address_without_instance_keys(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    allow = ALLOW + ("keep:\n  - name: web-rebuilt\n    path: mod/main.tf\n"
                     "    line_contains: module.m.terraform_data.web\n    reason: rebuilt anyway\n")
    files = {"main.tf": 'module "m" {\n  source = "./mod"\n  count  = 1\n}\n',
             "mod/main.tf": TRIGGER.replace("{\n", "{\n  count = 2\n", 1)}
    root = _applied(repo, files, allow=ALLOW)
    _swept(root, run)
    done = run(root, "verify", "--terraform", ".")
    assert done.exit_code == 1
    assert done.stdout.count("error: module.m[0].terraform_data.web[") == 2, done.stdout
    done = run(root, "verify", "--terraform", ".", "--allow-replace", "module.m.terraform_data.web")
    assert done.exit_code == 0, done.stdout
    (root / "allow.yaml").write_text(allow)  # the keep rule of the module's file, with its reason
    done = run(root, "verify", "--terraform", ".")
    assert done.exit_code == 0, done.stdout
    assert "module.m[0].terraform_data.web[1]: replace, forced by triggers_replace; accepted by keep rule " \
           "web-rebuilt (rebuilt anyway)" in done.stdout, done.stdout


def test_a_state_file_is_never_rewritten(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # break-it round 20, finding 9: a committed state and an ignored one (--include-ignored), a
    # backup and a workspace's: rewritten, each agreed with the swept config and blinded the guard
    root = _applied(repo, {"main.tf": TRIGGER})
    state = (root / "terraform.tfstate").read_bytes()
    assert b"pug.ana.lan" in state
    (root / "committed").mkdir()
    (root / "committed/terraform.tfstate").write_bytes(state)
    (root / "committed/old.tfstate.backup").write_bytes(state)
    (root / "committed/terraform.tfstate.d/prod").mkdir(parents=True)
    (root / "committed/terraform.tfstate.d/prod/terraform.tfstate").write_bytes(state)
    subprocess.run(["git", "-C", str(root), "add", "-f", "committed"], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-qm", "state"], check=True)
    done = run(root, "sweep", "--include-ignored", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # residuals: written, and said
    assert (root / "terraform.tfstate").read_bytes() == state
    for rel in ("committed/terraform.tfstate", "committed/old.tfstate.backup",
                "committed/terraform.tfstate.d/prod/terraform.tfstate"):
        assert (root / rel).read_bytes() == state, rel
    assert '"wolf.fv.lan"' in (root / "main.tf").read_text()
    found = json.loads(run(root, "verify", "--include-ignored", "--format", "json").stdout)["findings"]
    held = sorted({(f["path"], f["reason"]) for f in found})
    assert held == [("committed/old.tfstate.backup", "terraform-state"), ("committed/terraform.tfstate", "terraform-state"),
                    ("committed/terraform.tfstate.d/prod/terraform.tfstate", "terraform-state"),
                    ("terraform.tfstate", "terraform-state")], found
    done = run(root, "verify", "--terraform", ".")
    assert done.exit_code == 1, done.stdout
    assert "committed/terraform.tfstate:" in done.stdout and "terraform plan -refresh=false: " in done.stdout, done.stdout
    once(done.stdout, "committed/terraform.tfstate:28:18: residual (terraform-state): pug.ana.lan -> wolf.fv.lan",
         "a Terraform state file: terraform writes it, renamer never does")
    assert "replace, forced by triggers_replace" in done.stdout  # the guard not blinded


def test_the_plan_guard_plans_every_local_workspace(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # break-it round 20, finding 17: the replace exists only in workspace prod; the selected one
    # (default) plans nothing: verify said OK
    main = ('resource "terraform_data" "web" {\n  count = terraform.workspace == "prod" ? 1 : 0\n'
            '  triggers_replace = ["pug.ana.lan"]\n  input = "x"\n}\n')
    root = _applied(repo, {"main.tf": main})
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1"}
    subprocess.run([TERRAFORM, "workspace", "new", "prod"], cwd=root, env=env, capture_output=True, check=True)
    _terraform(root, "apply", "-auto-approve")
    subprocess.run([TERRAFORM, "workspace", "select", "default"], cwd=root, env=env, capture_output=True, check=True)
    _swept(root, run)
    done = run(root, "verify", "--terraform", ".")
    assert done.exit_code == 1, done.stdout
    assert (". (workspace prod): terraform plan: error: terraform_data.web[0]: replace, forced by triggers_replace"
            ) in done.stdout, done.stdout
    assert "not accepted (. (workspace default), . (workspace prod))" in done.stdout, done.stdout


@pytest.mark.parametrize(("named", "files"), [
    ("infra/pug", {"infra/pug/main.tf": TRIGGER, "infra/pug/notes.txt": "pug.ana.lan\n"}),
    ("infra/pug/live", {"infra/pug/live/main.tf": TRIGGER, "infra/pug/live/notes.txt": "pug.ana.lan\n"}),
], ids=["the-folder", "one-above"])
def test_a_sweep_never_moves_a_folder_terraform_names(named: str, files: dict[str, str], repo: Callable[..., Path],
                                                      run: Callable[..., Result]) -> None:
    """Break-it round 20k, finding 14: renamer.yaml's `terraform: infra/pug` and the sweep moved
    infra/pug/ to infra/wolf/ (renamer never edits renamer.yaml): every verify then failed on a
    folder that was gone. The folder (or one above it) keeps its path now, a `state-name` residual
    saying why; its files' contents are swept; a folder beside it moves."""
    root = repo({**files, "app/pug/run.sh": "echo pug\n", ".gitignore": IGNORE},
                config=CONFIG + f"terraform: [{named}]\n", allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout
    assert (root / named / "notes.txt").read_text() == "wolf.fv.lan\n"
    assert (root / "app/wolf/run.sh").read_text() == "echo wolf\n"
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    held = [f for f in found if f["reason"] == "state-name"]
    assert {f["path"] for f in held} == set(files), found
    assert f"renamer.yaml's `terraform:` names {named}" in held[0]["note"], held[0]
