"""A `moved` block the sweep writes carries a tag naming the move and its expiry (issue 32, item 2):
`# renamer: move NAME expires YYYY-MM-DD`, the config's cutover plus `options.moved_expiry` days;
`renamer audit` lists the blocks past expiry and `audit --prune --write` removes one only past
expiry and, where `terraform:` folders are configured, only once no plan of them still moves from
it (renamer/moved_tags.py, cli/check.py)."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.cli.test_terraform_plan_guard import IGNORE, TERRAFORM, _terraform
from tests.conftest import Result
from tests.testing.repos import snapshot

# the move's name holds the old host: its tag line is the block's history, kept, never a residual
CONFIG = ("version: 1\nname: pug move\ncutover: 2026-10-05\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\n"
          "options:\n  moved_expiry: 30\nallowlist: allow.yaml\n")
ALLOW = "version: 1\ncurrent: ['**']\n"
MAIN = ('resource "terraform_data" "pug" {\n  input = "pug.ana.lan"\n}\n'
        'output "o" {\n  value = terraform_data.pug.output\n}\n')
SWEPT = ('resource "terraform_data" "wolf" {\n  input = "wolf.fv.lan"\n}\n'
         'output "o" {\n  value = terraform_data.wolf.output\n}\n')
# the block goes to the module's moved.tf (issue 32, item 2: renamer/sweep/moved_files.py)
MOVED = ("# renamer: move pug move expires 2026-11-04\n"
         'moved {\n  from = terraform_data.pug\n  to   = terraform_data.wolf\n}\n')


def _sweep(root: Path, run: Callable[..., Result]) -> None:
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr


def test_the_moved_block_is_tagged_with_the_move_and_its_expiry(repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    root = repo({"main.tf": MAIN}, config=CONFIG, allowlist=ALLOW)
    _sweep(root, run)
    assert (root / "main.tf").read_text() == SWEPT and (root / "moved.tf").read_text() == MOVED
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout
    before = snapshot(root)
    _sweep(root, run)
    assert snapshot(root) == before  # a second sweep changes nothing
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = sorted((r["line"], r["reason"]) for r in audit["references"] if r["path"] == "moved.tf")
    assert kept == [(1, "terraform-moved"), (3, "terraform-moved")], audit["references"]
    assert audit["moved_expired"] == [{"path": "moved.tf", "line": 1, "from": "terraform_data.pug",
                                       "to": "terraform_data.wolf", "move": "pug move", "expires": "2026-11-04"}]
    table = run(root, "audit").stdout
    assert ("Moved blocks past expiry: 1 (`audit --prune` removes those no plan still needs)\n"
            "  moved.tf:1  moved terraform_data.pug -> terraform_data.wolf (move pug move, expired 2026-11-04)\n"
            ) in table, table


def test_no_cutover_expires_the_sweeps_day_plus_the_days(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    # a name the exact rules do not match but the looser pass would (`pug-move`): no near-miss either
    config = (CONFIG.replace("cutover: 2026-10-05\n", "").replace("moved_expiry: 30", "moved_expiry: 7")
              .replace("name: pug move", "name: pug-move"))
    root = repo({"main.tf": MAIN, "indexed/main.tf": 'resource "terraform_data" "x" {\n  for_each = toset(["pug"])\n}\n'
                 'output "o" {\n  value = terraform_data.x["pug"].id\n}\n'}, config=config, allowlist=ALLOW)
    _sweep(root, run)
    day = (dt.date.today() + dt.timedelta(days=7)).isoformat()
    assert (root / "moved.tf").read_text().startswith(f"# renamer: move pug-move expires {day}\nmoved {{\n")
    # an instance key's block the same (sweep/terraform_keys.py)
    assert (root / "indexed/moved.tf").read_text().startswith(
        f"# renamer: move pug-move expires {day}\nmoved {{\n  from = terraform_data.x[\"pug\"]\n")
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout
    assert json.loads(run(root, "audit", "--format", "json").stdout)["moved_expired"] == []
    assert "Moved blocks past expiry" not in run(root, "audit").stdout


def test_prune_removes_an_expired_block_and_only_with_write(repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    # both folders planned (nothing applied: no state to move from), so the blocks are proved unneeded
    root = repo({"main.tf": MAIN, "crlf/main.tf": MAIN.replace("\n", "\r\n")},
                config=CONFIG + "terraform: [., crlf]\n", allowlist=ALLOW)
    _sweep(root, run)
    before = snapshot(root)
    done = run(root, "audit", "--prune")
    assert done.exit_code == 0
    assert ("moved.tf:1: would remove moved terraform_data.pug -> terraform_data.wolf (move pug move, expired "
            "2026-11-04)\n") in done.stdout, done.stdout
    assert "audit --prune: dry run, nothing written: 2 moved blocks to remove; --write removes them" in done.stdout
    assert snapshot(root) == before
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 0 and "moved.tf:1: removed moved" in done.stdout, done.stdout
    assert (root / "main.tf").read_text() == SWEPT == MAIN.replace("pug.ana.lan", "wolf.fv.lan").replace("pug", "wolf")
    assert (root / "crlf/main.tf").read_bytes() == SWEPT.replace("\n", "\r\n").encode()
    assert (root / "moved.tf").read_text() == "" and (root / "crlf/moved.tf").read_text() == ""  # the blocks gone
    assert run(root, "verify").exit_code == 0


def test_prune_keeps_a_block_a_plan_still_moves_from(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": MAIN, ".gitignore": IGNORE}, config=CONFIG + "terraform: [.]\n", allowlist=ALLOW)
    _terraform(root, "init")
    _terraform(root, "apply", "-auto-approve")  # the state holds terraform_data.pug
    _sweep(root, run)
    state = (root / "terraform.tfstate").read_bytes()
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 0
    assert ("moved.tf:1: kept moved terraform_data.pug -> terraform_data.wolf (move pug move, expired 2026-11-04): "
            "the plan of . still moves from terraform_data.pug; apply it there first\n") in done.stdout, done.stdout
    assert (root / "main.tf").read_text() == SWEPT and (root / "moved.tf").read_text() == MOVED
    assert (root / "terraform.tfstate").read_bytes() == state  # renamer never applies
    _terraform(root, "apply", "-auto-approve")  # the user applies the move
    subprocess.run(["git", "-C", str(root), "status", "--short"], check=True, capture_output=True)
    done = run(root, "audit", "--prune", "--write")
    assert "moved.tf:1: removed moved terraform_data.pug" in done.stdout, done.stdout
    assert "moved" not in (root / "main.tf").read_text() + (root / "moved.tf").read_text()
    done = run(root, "verify")  # the plan guard of `terraform:`: nothing left to move, nothing destroyed
    assert done.exit_code == 0, done.stdout


def test_a_tag_line_with_no_moved_block_keeps_nothing(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"main.tf": '# renamer: move pug expires 2030-01-01\nlocals {\n  # renamer: move x expires 2030-01-01\n'
                        '  host = "pug.ana.lan"\n}\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "verify", "--format", "json")
    found = json.loads(done.stdout)["findings"]
    assert done.exit_code == 1 and [(f["line"], f["old"]) for f in found] == [(1, "pug"), (4, "pug.ana.lan")], found


MODULES = ('module "m" {\n  source   = "./mod"\n  for_each = toset(["pug", "rex"])\n}\n'
           'module "pug" {\n  source = "./mod"\n}\n')
BOX = 'resource "terraform_data" "h" {\n  input = "x"\n}\n'


def _applied(repo: Callable[..., Path], files: dict[str, str], config: str, *folders: str) -> Path:
    root = repo({**files, ".gitignore": IGNORE}, config=config, allowlist=ALLOW)
    for folder in folders:
        _terraform(root / folder, "init")
        _terraform(root / folder, "apply", "-auto-approve")
    return root


def _moved_blocks(root: Path, *paths: str) -> list[str]:
    return [line for p in paths for line in (root / p).read_text().splitlines() if line.startswith("  from = ")]


def test_prune_with_no_terraform_folder_removes_nothing_and_says_why(repo: Callable[..., Path],
                                                                     run: Callable[..., Result]) -> None:
    # break-it round 20, finding 12: state at terraform_data.pug, no `terraform:` to plan it
    root = _applied(repo, {"main.tf": MAIN}, CONFIG, ".")
    _sweep(root, run)
    for args in (("audit", "--prune", "--write"), ("audit", "--prune")):
        done = run(root, *args)
        assert done.exit_code == 0
        assert ("moved.tf:1: kept moved terraform_data.pug -> terraform_data.wolf (move pug move, expired "
                "2026-11-04): not proven unneeded: no `terraform:` folder is configured") in done.stdout, done.stdout
    assert (root / "main.tf").read_text() == SWEPT and (root / "moved.tf").read_text() == MOVED
    kept = json.loads(run(root, "audit", "--prune", "--format", "json").stdout)["moved_kept"]
    assert [(k["from"], k["planned_in"]) for k in kept] == [("terraform_data.pug", None)], kept
    assert kept[0]["why"].startswith("not proven unneeded"), kept


def test_prune_keeps_a_module_move_a_plan_still_needs(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # finding 10: a module's move (`module.pug`, `module.m["pug"]`) plans as moves of the addresses
    # inside it (`module.pug.terraform_data.h`), and a count/for_each resource's as `X[...]`
    files = {"main.tf": MODULES + 'resource "terraform_data" "k" {\n  for_each = { pug = 1 }\n  input = each.value\n}\n',
             "mod/main.tf": BOX}
    root = _applied(repo, files, CONFIG + "terraform: [.]\n", ".")
    _sweep(root, run)
    _terraform(root, "init")
    moved = _moved_blocks(root, "moved.tf")
    assert sorted(moved) == ['  from = module.m["pug"]', "  from = module.pug", '  from = terraform_data.k["pug"]'], moved
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 0
    assert "removed" not in done.stdout and done.stdout.count(": kept moved ") == 3, done.stdout
    assert "the plan of . still moves from module.pug; apply it there first" in done.stdout, done.stdout
    assert sorted(_moved_blocks(root, "moved.tf")) == sorted(moved)
    _terraform(root, "apply", "-auto-approve")
    done = run(root, "audit", "--prune", "--write")
    assert done.stdout.count(": removed moved ") == 3, done.stdout
    assert _moved_blocks(root, "moved.tf") == [] and run(root, "verify").exit_code == 0


def test_prune_keeps_a_moved_chain_whole(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # finding 11: pug -> wolf (not applied), then wolf -> fox: terraform plans fox (was pug); the
    # second block alone moves from nothing planned, yet removing it strands the state
    main = 'resource "terraform_data" "pug" {\n  input = "x"\n}\n'
    root = _applied(repo, {"main.tf": main}, CONFIG + "terraform: [.]\n", ".")
    _sweep(root, run)
    (root / "renamer.yaml").write_text(CONFIG.replace("cutover: 2026-10-05", "cutover: 2026-10-06").replace(
        "{pug: wolf, pug.ana.lan: wolf.fv.lan}", "{wolf: fox}") + "terraform: [.]\n")
    subprocess.run(["git", "-C", str(root), "commit", "-qam", "move two"], check=True)
    _sweep(root, run)
    assert sorted(_moved_blocks(root, "moved.tf")) == ["  from = terraform_data.pug", "  from = terraform_data.wolf"]
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 0 and "removed" not in done.stdout, done.stdout
    assert ("kept moved terraform_data.wolf -> terraform_data.fox (move pug move, expired 2026-11-05): its chain "
            "(terraform_data.pug -> terraform_data.wolf, moved.tf:") in done.stdout, done.stdout
    assert len(_moved_blocks(root, "moved.tf")) == 2
    _terraform(root, "apply", "-auto-approve")  # state at fox: the chain goes whole
    done = run(root, "audit", "--prune", "--write")
    assert done.stdout.count(": removed moved ") == 2, done.stdout
    assert _moved_blocks(root, "moved.tf") == [] and run(root, "verify").exit_code == 0


def test_prune_needs_every_root_holding_state_listed(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # finding 12, 07.sh: a shared module used by live/a (listed, applied) and live/b (not listed)
    call = 'module "m" {\n  source   = "../../modules/box"\n  for_each = toset(["one"])\n}\n'
    box = 'resource "terraform_data" "pug" {\n  input = "x"\n}\n'
    root = _applied(repo, {"modules/box/main.tf": box, "live/a/main.tf": call, "live/b/main.tf": call},
                    CONFIG + "terraform: [live/a]\n", "live/a", "live/b")
    _sweep(root, run)
    _terraform(root / "live/a", "apply", "-auto-approve")
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 0
    assert ("kept moved terraform_data.pug -> terraform_data.wolf (move pug move, expired 2026-11-04): not proven "
            "unneeded: live/b holds Terraform state or an init but is not in renamer.yaml's `terraform:`"
            ) in done.stdout, done.stdout
    assert len(_moved_blocks(root, "modules/box/moved.tf")) == 1


def _workspace(root: Path, *args: str) -> None:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1"}
    subprocess.run([TERRAFORM, "workspace", *args], cwd=root, env=env, capture_output=True, check=True)


def test_prune_plans_every_workspace(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # finding 17, 20b.sh: the move applied in default only; workspace prod still at pug
    main = 'resource "terraform_data" "pug" {\n  input = "x"\n}\n'
    root = _applied(repo, {"main.tf": main}, CONFIG + "terraform: [.]\n", ".")
    _workspace(root, "new", "prod")
    _terraform(root, "apply", "-auto-approve")
    _workspace(root, "select", "default")
    _sweep(root, run)
    _terraform(root, "apply", "-auto-approve")  # default moved; prod not
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 0
    assert ("the plan of . (workspace prod) still moves from terraform_data.pug; apply it there first"
            ) in done.stdout, done.stdout
    assert len(_moved_blocks(root, "moved.tf")) == 1
    _workspace(root, "select", "prod")
    _terraform(root, "apply", "-auto-approve")
    done = run(root, "audit", "--prune", "--write")
    assert ": removed moved terraform_data.pug" in done.stdout, done.stdout


def test_prune_keeps_a_block_a_root_with_remote_state_or_no_listed_caller_may_need(
        repo: Callable[..., Path], run: Callable[..., Result], tmp_path: Path) -> None:
    # break-it t26-32, finding 01: live/b keeps its state elsewhere (a backend; applied from CI, never
    # initialised here) and calls the module too: the block was removed and live/b planned a destroy
    call = 'module "m" {\n  source = "../../modules/box"\n}\n'
    box = 'resource "terraform_data" "pug" {\n  input = "x"\n}\n'
    state = tmp_path / "b-state"
    state.mkdir()
    backend = f'terraform {{\n  backend "local" {{\n    path = "{state}/terraform.tfstate"\n  }}\n}}\n'
    root = _applied(repo, {"modules/box/main.tf": box, "live/a/main.tf": call, "live/b/main.tf": backend + call},
                    CONFIG + "terraform: [live/a]\n", "live/a", "live/b")
    subprocess.run(["rm", "-rf", str(root / "live/b/.terraform"), str(root / "live/b/.terraform.lock.hcl")],
                   check=True)
    _sweep(root, run)
    _terraform(root / "live/a", "apply", "-auto-approve")
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 0 and "removed" not in done.stdout, done.stdout
    assert ("modules/box/moved.tf:1: kept moved terraform_data.pug -> terraform_data.wolf (move pug move, expired "
            "2026-11-04): not proven unneeded: live/b calls modules/box (a root module with a backend) and is not "
            "in renamer.yaml's `terraform:`") in done.stdout, done.stdout
    assert len(_moved_blocks(root, "modules/box/moved.tf")) == 1
    _terraform(root / "live/b", "init")  # what CI does: its plan is a move, nothing destroyed
    plan = subprocess.run([TERRAFORM, "plan", "-input=false", "-no-color"], cwd=root / "live/b", capture_output=True,
                          text=True, check=False,
                          env={**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1"})
    assert "has moved to module.m.terraform_data.wolf" in plan.stdout and "0 to destroy" in plan.stdout, plan.stdout
    # listed and applied too: now proven, removed
    (root / "renamer.yaml").write_text(CONFIG + "terraform: [live/a, live/b]\n")
    subprocess.run(["git", "-C", str(root), "commit", "-qam", "list b"], check=True)
    _terraform(root / "live/b", "apply", "-auto-approve")
    done = run(root, "audit", "--prune", "--write")
    assert done.stdout.count(": removed moved ") == 1, done.stdout
    assert _moved_blocks(root, "modules/box/moved.tf") == []


def test_prune_keeps_the_blocks_of_a_module_no_listed_folder_calls(repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    # t26-32, finding 01 (second shape): a module published to other repositories, called by no root
    # here; `terraform: [live]` plans an unrelated root, which proves nothing about the module
    box = 'resource "terraform_data" "pug" {\n  input = "x"\n}\n'
    root = _applied(repo, {"modules/box/main.tf": box, "live/main.tf": BOX}, CONFIG + "terraform: [live]\n", "live")
    _sweep(root, run)
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 0 and "removed" not in done.stdout, done.stdout
    assert ("modules/box/moved.tf:1: kept moved terraform_data.pug -> terraform_data.wolf (move pug move, expired "
            "2026-11-04): not proven unneeded: no `terraform:` folder calls modules/box") in done.stdout, done.stdout
    assert len(_moved_blocks(root, "modules/box/moved.tf")) == 1
