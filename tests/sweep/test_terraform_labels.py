"""A Terraform block label and every reference to it move together, or none does (break-it
round 5, finding 1): `pug -> wolf` renamed `module "pug"` and `resource "aws_instance" "pug"` and
left `module.pug.id` and `aws_instance.pug.private_ip` reading names no block declares, while
verify said OK; and a renamed resource or module is a destroy and a create unless a `moved`
block says otherwise. Through the CLI on real git repos; terraform itself validates the result
where it is installed (sweep/terraform_labels.py, hcl_blocks.py)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.test_terraform_plan_guard import IGNORE
from tests.conftest import Result
from tests.testing.repos import snapshot
from tests.testing.terraform import in_moved_tf, needs_terraform, tagged

CONFIG = ("version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\n"
          "  addresses: {10.0.0.5: 10.1.0.5}\nallowlist: allow.yaml\n")
ALLOW = """\
version: 1
current: ['**']
records:
  - name: archive
    paths: [archive/**, '**/legacy.tf']
    reason: the configuration as it was
"""

REPORT = ('module "pug" {\n  source = "./mod"\n}\nresource "aws_instance" "pug" {\n  ami = "x"\n}\n'
          'output "ip" {\n  value = aws_instance.pug.private_ip\n}\noutput "m" {\n  value = module.pug.id\n}\n')
REPORT_AFTER = ('module "wolf" {\n  source = "./mod"\n}\n\nmoved {\n  from = module.pug\n  to   = module.wolf\n}\n'
                'resource "aws_instance" "wolf" {\n  ami = "x"\n}\n\nmoved {\n  from = aws_instance.pug\n'
                '  to   = aws_instance.wolf\n}\n'
                'output "ip" {\n  value = aws_instance.wolf.private_ip\n}\noutput "m" {\n  value = module.wolf.id\n}\n')
MOD = 'output "id" {\n  value = "x"\n}\n'

# count/for_each indexes, interpolations, depends_on, a data source (no `moved` for it), an
# import block's `to`, an earlier move's chain (its `from` and `to` stay: the chain grows a
# link, `aws_instance.pug -> aws_instance.wolf`, break-it round 7 finding 6)
INDEXED = '''\
data "aws_ami" "pug" {
  most_recent = true
}
resource "aws_instance" "pug" {
  count = 2
  ami   = data.aws_ami.pug.id
  tags  = { Name = "pug", fqdn = "pug.ana.lan" }
}
resource "aws_eip" "ip" {
  instance   = aws_instance.pug[0].id
  depends_on = [aws_instance.pug]
}
output "all" { value = "${aws_instance.pug[1].id} ${ aws_instance.pug[0].private_ip }" }
output "keyed" { value = { for k, v in aws_instance.pug : k => v.id } }
import {
  to = aws_instance.pug[0]
  id = "i-1"
}
moved {
  from = aws_instance.pug_old
  to   = aws_instance.pug
}
'''
INDEXED_AFTER = (INDEXED.replace("pug_old", "KEEP").replace("pug", "wolf").replace("wolf.ana.lan", "wolf.fv.lan")
                 .replace("KEEP", "pug_old")
                 .replace('  tags  = { Name = "wolf", fqdn = "wolf.fv.lan" }\n}\n',
                          '  tags  = { Name = "wolf", fqdn = "wolf.fv.lan" }\n}\n\nmoved {\n'
                          '  from = aws_instance.pug\n  to   = aws_instance.wolf\n}\n')
                 .replace("  from = aws_instance.pug_old\n  to   = aws_instance.wolf\n",
                          "  from = aws_instance.pug_old\n  to   = aws_instance.pug\n"))

# a variable and an output of a called module: the caller's argument and `module.net.pug` follow
NESTED = {
    "main.tf": 'module "net" {\n  source = "./modules/net"\n  pug    = "10.0.0.5"\n}\n'
               'output "addr" {\n  value = module.net.pug\n}\n',
    "modules/net/variables.tf": 'variable "pug" {\n  type = string\n}\n',
    "modules/net/outputs.tf": 'output "pug" {\n  value = "${var.pug}/32"\n}\n',
}

# a provider configuration per host, as homelabs write them: its alias is a label too
PROVIDER = ('provider "docker" {\n  alias = "pug"\n  host  = "ssh://root@pug.ana.lan"\n}\n'
            'resource "docker_container" "web" {\n  provider = docker.pug\n  name     = "web"\n}\n')


def _verify(root: Path, run: Callable[..., Result]) -> tuple[int, list[dict[str, object]]]:
    done = run(root, "verify", "--format", "json")
    found: list[dict[str, object]] = json.loads(done.stdout)["findings"]
    return done.exit_code, found


def _swept(root: Path, run: Callable[..., Result]) -> None:
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert _verify(root, run) == (0, [])
    before = snapshot(root)
    assert run(root, "sweep").exit_code == 0
    assert snapshot(root) == before  # twice changes nothing: a `moved` block's `from` stays


MOVES = [
    pytest.param({"main.tf": REPORT, "mod/main.tf": MOD}, {"main.tf": REPORT_AFTER}, id="the-report"),
    pytest.param({"main.tf": INDEXED}, {"main.tf": INDEXED_AFTER}, id="indexes-interpolations-import-chain"),
    # `wolf   =` beside `source =`: terraform fmt's alignment kept (round 22, finding 12)
    pytest.param(NESTED, {"main.tf": NESTED["main.tf"].replace("pug    =", "wolf   =").replace("pug", "wolf")
                          .replace("10.0.0.5", "10.1.0.5"),
                          "modules/net/variables.tf": NESTED["modules/net/variables.tf"].replace("pug", "wolf"),
                          "modules/net/outputs.tf": NESTED["modules/net/outputs.tf"].replace("pug", "wolf")},
                 id="nested-module-variable-and-output"),
    pytest.param({"main.tf": REPORT.replace("\n", "\r\n"), "mod/main.tf": MOD},
                 {"main.tf": REPORT_AFTER.replace("\n", "\r\n")}, id="crlf"),
    pytest.param({"env/prod/main.tf": 'module "pug" {\n  source = "../../modules/host"\n  name   = "pug"\n}\n'
                                      'output "host" {\n  value = module.pug.name\n}\n',
                  "env/prod/terraform.tfvars": 'region = "x"\n',
                  "modules/host/main.tf": 'variable "name" {}\noutput "name" {\n  value = var.name\n}\n'},
                 {"env/prod/main.tf": 'module "wolf" {\n  source = "../../modules/host"\n  name   = "wolf"\n}\n\n'
                                      'moved {\n  from = module.pug\n  to   = module.wolf\n}\n'
                                      'output "host" {\n  value = module.wolf.name\n}\n'},
                 id="module-label-also-a-hostname-string"),
    pytest.param({"main.tf": 'variable "pug" {}\noutput "o" {\n  value = var.pug\n}\n',
                  "terraform.tfvars": 'pug = "x"\n', "caller/main.tf": 'module "m" {\n  source = "../"\n}\n'},
                 {"main.tf": 'variable "wolf" {}\noutput "o" {\n  value = var.wolf\n}\n',
                  "terraform.tfvars": 'wolf = "x"\n'}, id="variable-set-by-its-tfvars"),
    pytest.param({"main.tf": PROVIDER}, {"main.tf": PROVIDER.replace("pug.ana.lan", "wolf.fv.lan").replace("pug", "wolf")},
                 id="provider-alias-per-host"),
    pytest.param({"main.tf.json": json.dumps({"variable": {"pug": {"type": "string"}},
                                              "output": {"v": {"value": "${var.pug}"}}}, indent=2) + "\n",
                  "other.tf": 'output "w" {\n  value = var.pug\n}\n',
                  "caller/main.tf": 'module "m" {\n  source = "../"\n  pug    = "a"\n}\n'},
                 {"main.tf.json": json.dumps({"variable": {"wolf": {"type": "string"}},
                                              "output": {"v": {"value": "${var.wolf}"}}}, indent=2) + "\n",
                  "other.tf": 'output "w" {\n  value = var.wolf\n}\n',
                  "caller/main.tf": 'module "m" {\n  source = "../"\n  wolf   = "a"\n}\n'},
                 id="tf-json-variable"),
]


@pytest.mark.parametrize(("files", "after"), MOVES)
def test_a_label_and_every_reference_move_together(files: dict[str, str], after: dict[str, str],
                                                   repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert _verify(root, run)[0] == 1
    _swept(root, run)
    # each `moved` block written with its tag (moved_tags.py), in its module's moved.tf
    for rel, text in in_moved_tf({rel: tagged(text) for rel, text in after.items()}).items():
        assert (root / rel).read_bytes() == text.encode(), (rel, (root / rel).read_text())


def test_the_dry_run_diff_shows_the_moved_block_and_applies(repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    root = repo({"main.tf": REPORT, "mod/main.tf": MOD}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--dry-run")
    assert done.exit_code == 0
    assert "+moved {\n+  from = aws_instance.pug\n+  to   = aws_instance.wolf\n+}\n" in done.stdout
    assert "-  value = module.pug.id\n+  value = module.wolf.id\n" in done.stdout
    patch = root.parent / "sweep.diff"
    patch.write_bytes(done.stdout_bytes[:done.stdout_bytes.index(b"Summary:")])
    subprocess.run(["git", "-C", str(root), "apply", "--check", str(patch)], check=True)


# (the files, the file and line of the label refused, what its note must say): nothing of the
# label is rewritten, the sweep exits 1, verify fails naming why
REFUSED = [
    pytest.param({"main.tf": 'output "pug" {\n  value = "x"\n}\n'}, ("main.tf", 1), "root module",
                 id="root-output-read-by-remote-state"),
    pytest.param({"main.tf": REPORT, "mod/main.tf": MOD,
                  "terraform.tfstate": '{"resources": [{"type": "aws_instance", "name": "pug"}]}\n'},
                 ("main.tf", 1), "terraform.tfstate names it", id="state-file-names-it"),
    pytest.param({"main.tf": 'resource "terraform_data" "pug" {}\n', "caller/main.tf": 'module "m" {\n  source = "../"\n}\n',
                  "terraform.tfstate.d/prod/terraform.tfstate": '{"resources": [{"name": "pug"}]}\n'},
                 ("main.tf", 1), "terraform.tfstate.d/prod/terraform.tfstate names it", id="workspace-state-names-it"),
    pytest.param({"main.tf": 'resource "terraform_data" "pug" {}\n',
                  "legacy.tf": 'output "o" {\n  value = terraform_data.pug.id\n}\n',
                  "caller/main.tf": 'module "m" {\n  source = "../"\n}\n'},
                 ("main.tf", 1), "legacy.tf:2 keeps the old name (archive)", id="reference-in-a-record-file"),
    pytest.param({"main.tf": 'resource "terraform_data" "pug" {}\n'
                             'output "o" {\n  value = terraform_data.pug.id # renamer: keep until cutover\n}\n'},
                 ("main.tf", 1), "main.tf:3 keeps the old name (inline)", id="reference-on-a-kept-line"),
    pytest.param({"main.tf": 'resource "terraform_data" "pug" {}\nresource "terraform_data" "wolf" {}\n'},
                 ("main.tf", 1), "terraform_data.wolf is declared already at main.tf:2", id="new-label-taken"),
    pytest.param({"main.tf": 'variable "pug" {}\n', "terraform.tfvars": 'pug = "x"\n',
                  "ci/deploy.sh": 'export TF_VAR_pug=10.0.0.5\n'},
                 ("main.tf", 1), "TF_VAR_pug at ci/deploy.sh:1", id="root-variable-set-by-the-environment"),
    pytest.param({"main.tf": 'variable "pug" {}\n', "terraform.tfvars": 'pug = "x"\n',
                  "Makefile": 'plan:\n\tterraform plan -var "pug=x"\n'},
                 ("main.tf", 1), '-var "pug= at Makefile:2', id="root-variable-set-by-a-flag"),
    pytest.param({"modules/shared/variables.tf": 'variable "pug" {}\n'},
                 ("modules/shared/variables.tf", 1), "set from outside the repo", id="variable-of-an-uncalled-module"),
    pytest.param({"main.tf": 'output "pug" {\n  value = "x"\n}\n',
                  "ci/show.sh": 'ssh pug true\nterraform output -raw pug\n'},
                 ("ci/show.sh", 2), "root module", id="root-output-read-by-a-script"),
    pytest.param({"main.tf": 'resource "aws_instance" "pug" {\n  ami = "x"\n}\n',
                  "Makefile": 'replace:\n\tterraform apply -replace=aws_instance.pug\n'},
                 ("main.tf", 1), "Makefile:2 names aws_instance.pug", id="address-in-a-terraform-command"),
    pytest.param({"main.tf.json": json.dumps({"resource": {"terraform_data": {"pug": {}}}}) + "\n"},
                 ("main.tf.json", 1), "whose labels (JSON object keys) renamer does not rename", id="tf-json-resource"),
    pytest.param({"main.tf": 'provider "docker" {\n  alias = "pug"\n}\nmodule "m" {\n  source    = "./m"\n  providers = { docker = docker.pug }\n}\n',
                  "m/main.tf": 'resource "docker_container" "c" {\n  name = "c"\n}\n'},
                 ("main.tf", 2), "passed to a module", id="provider-alias-passed-to-a-module"),
    pytest.param({"main.tf": 'module "x" {\n  source = "git::https://example.invalid/x.git"\n  pug    = 1\n}\n'},
                 ("main.tf", 3), "outside the repo", id="argument-of-a-remote-module"),
]


@pytest.mark.parametrize(("files", "where", "why"), REFUSED)
def test_a_label_whose_references_cannot_all_follow_is_kept_whole(
        files: dict[str, str], where: tuple[str, int], why: str,
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    code, found = _verify(root, run)
    assert code == 1
    refused = [f for f in found if f["reason"] == "terraform-label" and (f["path"], f["line"]) == where]
    assert refused, found
    assert why in str(refused[0]["note"]), refused[0]["note"]
    # every finding of the label is this residual, with the same reason: nothing half-renamed
    assert {f["reason"] for f in found if f["old"] == "pug"} == {"terraform-label"}, found
    for rel in files:  # no part of the label was rewritten
        if rel.endswith((".tf", ".tf.json", ".tfstate", ".tfvars")) or rel == "Makefile":
            assert (root / rel).read_bytes() == before[rel], rel
    text = run(root, "verify").stdout
    assert f"{where[0]}:{where[1]}:" in text and "terraform-label" in text, text


def test_a_reference_left_dangling_by_an_earlier_sweep_fails_verify_and_follows(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # what main's sweep left: the labels renamed, the references not
    broken = REPORT.replace('"pug"', '"wolf"')
    root = repo({"main.tf": broken, "mod/main.tf": MOD}, config=CONFIG, allowlist=ALLOW)
    code, found = _verify(root, run)
    assert code == 1 and [(f["path"], f["line"]) for f in found] == [("main.tf", 8), ("main.tf", 11)], found
    assert "aws_instance.wolf at main.tf:4 now" in str(found[0]["note"])
    _swept(root, run)
    assert (root / "main.tf").read_text() == broken.replace(".pug", ".wolf")


def test_a_label_kept_by_its_record_keeps_the_references_the_plain_rules_would_rewrite(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"archive/net/variables.tf": 'variable "pug" {}\n',
             "archive/net/terraform.tfvars": 'pug = "10.0.0.9"\n',
             "main.tf": 'module "old" {\n  source = "./archive/net"\n  pug    = "10.0.0.9"\n}\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _swept(root, run)
    assert (root / "main.tf").read_text() == files["main.tf"]
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = [(r["path"], r["line"], r["reason"]) for r in audit["references"] if r["path"] == "main.tf"]
    assert kept == [("main.tf", 3, "terraform-label")], audit["references"]


VALIDATED = {
    "main.tf": ('module "pug" {\n  source = "./modules/host"\n  pug    = "pug.ana.lan"\n}\n'
                'resource "terraform_data" "pug" {\n  count = 2\n  input = module.pug.pug\n}\n'
                'resource "terraform_data" "after" {\n  input      = "${terraform_data.pug[0].id}"\n'
                '  depends_on = [terraform_data.pug]\n}\n'
                'output "first" {\n  value = terraform_data.pug[1].output\n}\n'),
    "modules/host/main.tf": ('variable "pug" {\n  type = string\n}\n'
                             'resource "terraform_data" "pug" {\n  for_each = toset(["a", "b"])\n'
                             '  input    = "${var.pug}-${each.key}"\n}\n'
                             'output "pug" {\n  value = terraform_data.pug["a"].output\n}\n'),
}


def _validated_after(root: Path, run: Callable[..., Result]) -> None:
    _swept(root, run)
    main = (root / "main.tf").read_text()
    assert "module.wolf.wolf" in main and "terraform_data.wolf[0].id" in main and "[terraform_data.wolf]" in main
    assert 'pug.ana.lan' not in main and '"wolf.fv.lan"' in main  # a host name string, as ever
    moved = (root / "moved.tf").read_text()  # the module's own moved.tf (moved_files.py)
    assert "moved" not in main
    assert moved.count("moved {") == 2 and "from = module.pug" in moved and "from = terraform_data.pug" in moved
    host = (root / "modules/host/main.tf").read_text()
    assert host == VALIDATED["modules/host/main.tf"].replace("pug", "wolf")
    assert (root / "modules/host/moved.tf").read_text() == tagged(
        "\n\nmoved {\n  from = terraform_data.pug\n  to   = terraform_data.wolf\n}\n")[2:]


def test_swept_labels_of_builtin_resources_and_local_modules(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    _validated_after(repo(VALIDATED, config=CONFIG, allowlist=ALLOW), run)


def _terraform(root: Path, tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1",
           "TF_DATA_DIR": str(tmp / "tf-data")}
    return subprocess.run(["terraform", *args, "-no-color"], cwd=root, env=env, capture_output=True, text=True,
                          check=False)


# Terraform is in neither Debian nor PyPI: without it the swept bytes are still checked by the
# test above; this adds terraform's own reading of them (init needs no download: only the
# builtin terraform_data and a local module).
@needs_terraform
def test_terraform_validates_the_swept_labels(tmp_path: Path, repo: Callable[..., Path],
                                              run: Callable[..., Result]) -> None:
    root = repo(VALIDATED, config=CONFIG, allowlist=ALLOW)
    for step in (("init", "-input=false", "-backend=false"), ("validate",)):
        done = _terraform(root, tmp_path, *step)
        assert done.returncode == 0, done.stdout + done.stderr
    _validated_after(root, run)
    for step in (("init", "-input=false", "-backend=false"), ("validate",)):
        done = _terraform(root, tmp_path, *step)
        assert done.returncode == 0, done.stdout + done.stderr


@needs_terraform
def test_a_long_form_resource_reference_follows_the_label_and_terraform_plans_a_move(
        repo: Callable[..., Path], run: Callable[..., Result], tmp_path: Path) -> None:
    # break-it t26-32, finding 09: `resource.T.N` (terraform's own long form) was left behind:
    # "Reference to undeclared resource" while sweep and verify said OK
    main = ('resource "terraform_data" "pug" {\n  input = "x"\n}\nresource "terraform_data" "after" {\n'
            '  depends_on = [resource.terraform_data.pug]\n  input = resource.terraform_data.pug.output\n}\n')
    root = repo({"main.tf": main, ".gitignore": IGNORE + ".terraform.lock.hcl\n"}, config=CONFIG, allowlist=ALLOW)
    for step in (("init", "-input=false"), ("apply", "-auto-approve", "-input=false")):
        ready = _terraform(root, tmp_path, *step)
        assert ready.returncode == 0, ready.stdout + ready.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "main.tf").read_text() == main.replace("pug", "wolf")
    plan = _terraform(root, tmp_path, "plan", "-input=false")
    assert plan.returncode == 0, plan.stdout + plan.stderr
    assert "terraform_data.pug has moved to terraform_data.wolf" in plan.stdout
    assert "0 to destroy" in plan.stdout and "will be destroyed" not in plan.stdout, plan.stdout


@needs_terraform
def test_a_label_spelled_as_a_variant_moves_with_its_references_and_a_moved_block(
        repo: Callable[..., Path], run: Callable[..., Result], tmp_path: Path) -> None:
    # break-it t26-32, finding 08: with `variants`, `pug_db` (of `pug-db`) and `module "PUG"` were
    # renamed as text: no moved block, references left; terraform planned a destroy, verify said OK
    config = ("version: 1\nrenames:\n  hosts: {pug-db: wolf-db, pug: wolf}\noptions:\n  variants: true\n"
              "allowlist: allow.yaml\n")
    main = ('resource "terraform_data" "pug_db" {\n  input = "x"\n}\nmodule "PUG" {\n  source = "./mod"\n}\n'
            'output "id" {\n  value = terraform_data.pug_db.id\n}\noutput "m" {\n  value = module.PUG.o\n}\n')
    mod = 'resource "terraform_data" "x" {\n  input = "y"\n}\noutput "o" {\n  value = terraform_data.x.id\n}\n'
    root = repo({"main.tf": main, "mod/main.tf": mod, ".gitignore": IGNORE + ".terraform.lock.hcl\n"},
                config=config, allowlist="version: 1\ncurrent: ['**']\n")
    for step in (("init", "-input=false"), ("apply", "-auto-approve", "-input=false")):
        ready = _terraform(root, tmp_path, *step)
        assert ready.returncode == 0, ready.stdout + ready.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "main.tf").read_text() == main.replace("pug_db", "wolf_db").replace("PUG", "WOLF")
    moved = (root / "moved.tf").read_text()
    assert "from = terraform_data.pug_db\n  to   = terraform_data.wolf_db" in moved, moved
    assert "from = module.PUG\n  to   = module.WOLF" in moved, moved
    for step in (("init", "-input=false"), ("plan", "-input=false")):
        plan = _terraform(root, tmp_path, *step)
        assert plan.returncode == 0, plan.stdout + plan.stderr
    assert "terraform_data.pug_db has moved to terraform_data.wolf_db" in plan.stdout, plan.stdout
    assert "module.PUG.terraform_data.x has moved to module.WOLF.terraform_data.x" in plan.stdout, plan.stdout
    assert "0 to destroy" in plan.stdout and "will be destroyed" not in plan.stdout, plan.stdout
    assert run(root, "verify", "--strict").exit_code == 0


def test_the_first_test_asks_every_old_name_in_one_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: TerraformIndex.holds_old (the label and address readers' first test) answers what
    an `in` per old name (variants included) answers, with and without hyperscan, and again once
    the names grow (_derive adds `pug-db` beside `pug`)."""
    from renamer.near_miss import NATIVE_FROM
    from renamer.project import load_project
    from renamer.sweep.terraform_labels import TerraformIndex

    hosts = ", ".join(f"web{n:02d}: app{n:02d}" for n in range(20))
    (tmp_path / "renamer.yaml").write_text(f"version: 1\nrenames:\n  hosts: {{{hosts}, pug: wolf}}\n"
                                           "allowlist: allow.yaml\n")
    (tmp_path / "allow.yaml").write_text('version: 1\ncurrent: ["**"]\n')
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    native = TerraformIndex(load_project(None, None, tmp_path))
    pure = TerraformIndex(load_project(None, None, tmp_path))
    assert len(native.olds) >= NATIVE_FROM  # enough names for the native scan where hyperscan is

    def pure_holds(data: bytes, prefix: str) -> bool:
        with monkeypatch.context() as env:
            env.setenv("RENAMER_NATIVE", "0")  # a finder built now is the `in` per name
            return pure.holds_old(data, prefix)

    texts = [b"", b"web0", b"web07", b"x.web19 = 1", b"WEB_07", b'resource "a" "web_07" {}', b"pug-db",
             b".pug", b"module.pu", b"app03", b"web_07", b"x.pug-db"]
    for _ in range(2):
        for data in texts:
            for prefix in ("", "."):
                expected = any(f"{prefix}{n}".encode() in data for n in native.olds)
                assert native.holds_old(data, prefix) == pure_holds(data, prefix) == expected, (data, prefix)
        for index in (native, pure):  # as _derive grows them
            index.renames["pug-db"] = "wolf-db"
            index.olds = frozenset(index.renames)
    assert native.holds_old(b"pug-db") and native.holds_old(b"x.pug-db", ".") and not native.holds_old(b"pu")


def test_network_heads_are_what_every_key_of_a_moved_network_spells() -> None:
    import ipaddress

    from renamer.sweep.terraform_labels import network_heads

    moves = [(ipaddress.ip_network("192.168.40.0/24"), ipaddress.ip_network("10.20.0.0/22")),
             (ipaddress.ip_network("10.0.48.0/22"), ipaddress.ip_network("10.1.0.0/22")),
             (ipaddress.ip_network("2001:db8:a::/48"), ipaddress.ip_network("2a01:4f8:c0c::/48")),
             (ipaddress.ip_network("10.0.0.0/7"), ipaddress.ip_network("10.0.0.0/8"))]
    assert network_heads(moves) == ["192.168.40", "10.0", "2001:db8:a:", "10"]
