"""Break-it round 7's Terraform findings (issue 27), each a class: readers of a module's outputs
through an index, a splat or a `for`; labels the header reader did not see (a BOM, bare labels,
a `check` block's scoped data); `terraform test` files; override files; `moved` chains; a module
both called and run as a root; a refused variable's loose `.tfvars`. Through the CLI on real git
repos; terraform itself reads the swept files where it is installed, beside the byte checks that
always run (sweep/terraform_labels.py, sweep/terraform_matches.py, hcl_blocks.py)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.sweep.test_terraform_labels import ALLOW, CONFIG, _swept, _terraform, _verify
from tests.testing.terraform import in_moved_tf, needs_terraform, tag, tagged

MOD = {"mod/main.tf": 'variable "pug" {\n  type = string\n}\noutput "pug" {\n  value = var.pug\n}\n'}
CALLS = ('module "m" {\n  source   = "./mod"\n  for_each = toset(["a"])\n  pug      = each.key\n}\n'
         'module "n" {\n  source = "./mod"\n  count  = 1\n  pug    = "x"\n}\n')

# finding 2: every reader through an index, a splat, a `for` follows the output
READERS = [
    pytest.param('output "a" {\n  value = module.m["a"].pug\n}\n', id="for-each-index"),
    pytest.param('output "b" {\n  value = module.n[0].pug\n}\n', id="count-index"),
    pytest.param('output "c" {\n  value = [for k, v in module.m : v.pug]\n}\n', id="for-over-a-map"),
    pytest.param('output "d" {\n  value = module.n[*].pug\n}\n', id="splat"),
    pytest.param('output "e" {\n  value = { for v in module.n : "k" => v.pug }\n}\n', id="for-one-variable"),
    pytest.param('output "f" {\n  value = module.n.*.pug\n}\n'
                 'resource "terraform_data" "t" {\n  depends_on = [module.m]\n}\n', id="legacy-splat-depends-on"),
]


def _init_validate(root: Path, tmp: Path) -> None:
    for step in (("init", "-input=false", "-backend=false"), ("validate",)):
        done = _terraform(root, tmp, *step)
        assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("reader", READERS)
def test_module_outputs_read_through_an_index_a_splat_or_a_for_follow(
        reader: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**MOD, "main.tf": CALLS + reader}, config=CONFIG, allowlist=ALLOW)
    _swept(root, run)
    # the `=` of each module block stays aligned as terraform fmt aligns it (round 22, finding 12)
    aligned = CALLS.replace("pug      =", "wolf     =").replace("pug    =", "wolf   =")
    assert (root / "main.tf").read_text() == (aligned + reader).replace("pug", "wolf")
    assert (root / "mod/main.tf").read_text() == MOD["mod/main.tf"].replace("pug", "wolf")


@needs_terraform
@pytest.mark.parametrize("reader", READERS)
def test_terraform_validates_the_swept_readers(reader: str, tmp_path: Path, repo: Callable[..., Path],
                                               run: Callable[..., Result]) -> None:
    root = repo({**MOD, "main.tf": CALLS + reader}, config=CONFIG, allowlist=ALLOW)
    _init_validate(root, tmp_path)
    _swept(root, run)
    _init_validate(root, tmp_path)


def _refused(root: Path, run: Callable[..., Result], where: tuple[str, int], why: str) -> None:
    """The label at `where` kept, the sweep exits 1, verify names the residual and why."""
    line = (root / where[0]).read_text().split("\n")[where[1] - 1]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / where[0]).read_text().split("\n")[where[1] - 1] == line
    code, found = _verify(root, run)
    assert code == 1
    refused = [f for f in found if f["reason"] == "terraform-label" and (f["path"], f["line"]) == where]
    assert refused, found
    assert why in str(refused[0]["note"]), refused[0]["note"]


@pytest.mark.parametrize(("reader", "line"), [
    pytest.param('locals {\n  all = module.m\n}\noutput "x" {\n  value = local.all["a"].pug\n}\n', 12,
                 id="a-local-holding-the-call"),
    pytest.param('output "x" {\n  value = [for v in module.n : v]\n}\n', 12, id="a-for-yielding-the-whole-call"),
])
def test_a_module_read_whole_keeps_its_outputs_whole(reader: str, line: int, repo: Callable[..., Path],
                                                     run: Callable[..., Result]) -> None:
    root = repo({**MOD, "main.tf": CALLS + reader}, config=CONFIG, allowlist=ALLOW)
    _refused(root, run, ("mod/main.tf", 4), f"is read whole at main.tf:{line}")


# finding 3: a BOM, bare labels, a check block's scoped data: each read as a label
BOM = b"\xef\xbb\xbf"
UNSEEN = [
    pytest.param({"main.tf": BOM + b'resource "terraform_data" "pug" {\n}\noutput "o" {\n'
                             b'  value = terraform_data.pug.id\n}\n'},
                 {"main.tf": BOM + b'resource "terraform_data" "wolf" {\n}\n\nmoved {\n  from = terraform_data.pug\n'
                             b'  to   = terraform_data.wolf\n}\noutput "o" {\n  value = terraform_data.wolf.id\n}\n'},
                 id="utf8-bom"),
    pytest.param({"main.tf": b'resource terraform_data pug {\n}\noutput "o" {\n  value = terraform_data.pug.id\n}\n'},
                 {"main.tf": b'resource terraform_data wolf {\n}\n\nmoved {\n  from = terraform_data.pug\n'
                             b'  to   = terraform_data.wolf\n}\noutput "o" {\n  value = terraform_data.wolf.id\n}\n'},
                 id="bare-labels"),
    pytest.param({"main.tf": b'resource "terraform_data" "h" {\n}\ncheck "h" {\n  data "terraform_data_source" "pug" {\n'
                             b'  }\n  assert {\n    condition     = data.terraform_data_source.pug != null\n'
                             b'    error_message = "x"\n  }\n}\n'},
                 {"main.tf": b'resource "terraform_data" "h" {\n}\ncheck "h" {\n  data "terraform_data_source" "wolf" {\n'
                             b'  }\n  assert {\n    condition     = data.terraform_data_source.wolf != null\n'
                             b'    error_message = "x"\n  }\n}\n'},
                 id="check-block-scoped-data"),
]


@pytest.mark.parametrize(("files", "after"), UNSEEN)
def test_labels_the_header_reader_missed_move_with_their_references(
        files: dict[str, bytes], after: dict[str, bytes], repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    root = repo({**files, "caller/main.tf": 'module "c" {\n  source = "../"\n}\n'}, config=CONFIG, allowlist=ALLOW)
    _swept(root, run)
    for rel, text in in_moved_tf({rel: tagged(data.decode()) for rel, data in after.items()}).items():
        assert (root / rel).read_bytes() == text.encode(), (root / rel).read_bytes()


# finding 4: a test file naming the label keeps it whole
@pytest.mark.parametrize("rel", ["tests/a.tftest.hcl", "a.tftest.hcl", "tests/a.tftest.json"])
def test_a_label_a_terraform_test_reads_is_kept_whole(rel: str, repo: Callable[..., Path],
                                                     run: Callable[..., Result]) -> None:
    test = ('{"run": {"r": {"assert": [{"condition": "${terraform_data.pug.input == \\"t\\"}", '
            '"error_message": "x"}]}}}\n' if rel.endswith(".json") else
            'variables {\n  pug = "t"\n}\nrun "r" {\n  assert {\n    condition     = terraform_data.pug.input == "t"\n'
            '    error_message = "x"\n  }\n}\n')
    files = {"main.tf": 'variable "pug" {}\nresource "terraform_data" "pug" {\n  input = var.pug\n}\n',
             "terraform.tfvars": 'pug = "t"\n', "caller/main.tf": 'module "c" {\n  source = "../"\n  pug = "t"\n}\n',
             rel: test}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _refused(root, run, ("main.tf", 2), "a terraform test file, names it")


@needs_terraform
def test_terraform_test_passes_after_the_sweep(tmp_path: Path, repo: Callable[..., Path],
                                               run: Callable[..., Result]) -> None:
    files = {"main.tf": 'variable "pug" {}\nresource "terraform_data" "pug" {\n  input = var.pug\n}\n',
             "tests/a.tftest.hcl": 'variables {\n  pug = "t"\n}\nrun "r" {\n  command = plan\n  assert {\n'
                                   '    condition     = terraform_data.pug.input == "t"\n    error_message = "x"\n'
                                   '  }\n}\n',
             "caller/main.tf": 'module "c" {\n  source = "../"\n  pug = "t"\n}\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    for step in (("init", "-input=false", "-backend=false"), ("test",)):
        done = _terraform(root, tmp_path, *step)
        assert done.returncode == 0, done.stdout + done.stderr


# finding 5: an override file never gets a `moved` block
@needs_terraform
@pytest.mark.parametrize("override", ["main_override.tf", "override.tf"])
def test_an_override_file_gets_no_moved_block(override: str, tmp_path: Path, repo: Callable[..., Path],
                                              run: Callable[..., Result]) -> None:
    files = {"main.tf": 'resource "terraform_data" "pug" {\n  input = "a"\n}\n',
             override: 'resource "terraform_data" "pug" {\n  input = "b"\n}\n',
             "caller/main.tf": 'module "c" {\n  source = "../"\n}\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _swept(root, run)
    assert (root / override).read_text() == files[override].replace("pug", "wolf")
    assert "moved {" not in (root / "main.tf").read_text()  # the module's moved.tf holds it, once
    assert (root / "moved.tf").read_text().count("moved {") == 1
    _init_validate(root, tmp_path)


# finding 6: an existing `moved` block's `to` stays: old -> pug, then pug -> wolf, then wolf -> fox
CHAIN = ('resource "terraform_data" "pug" {\n}\n\nmoved {\n  from = terraform_data.old\n'
         '  to   = terraform_data.pug\n}\n')


@needs_terraform
def test_a_moved_chain_grows_one_link_per_sweep(tmp_path: Path, repo: Callable[..., Path],
                                                run: Callable[..., Result]) -> None:
    root = repo({"main.tf": CHAIN, "caller/main.tf": 'module "c" {\n  source = "../"\n}\n'},
                config=CONFIG, allowlist=ALLOW)
    state = tmp_path / "outside.tfstate"  # outside the repo: renamer refuses labels a state file names
    for step in (("init", "-input=false"), ("apply", "-auto-approve", "-input=false", f"-state={state}")):
        done = _terraform(root, tmp_path, *step)
        assert done.returncode == 0, done.stdout + done.stderr
    _swept(root, run)
    first = CHAIN.replace('"pug"', '"wolf"')
    moved = tag() + '\nmoved {\n  from = terraform_data.pug\n  to   = terraform_data.wolf\n}\n'
    assert (root / "main.tf").read_text() == first
    assert (root / "moved.tf").read_text() == moved  # the module's moved.tf (moved_files.py)
    (root / "renamer.yaml").write_text(CONFIG.replace("{pug: wolf, pug.ana.lan: wolf.fv.lan}", "{wolf: fox}"))
    subprocess.run(["git", "-C", str(root), "commit", "-qam", "wolf: fox"], check=True)
    _swept(root, run)
    assert (root / "main.tf").read_text() == first.replace('"wolf"', '"fox"')
    assert (root / "moved.tf").read_text() == (moved + "\n" + tag() + '\nmoved {\n  from = terraform_data.wolf\n'
                                               '  to   = terraform_data.fox\n}\n')  # appended: a link more
    done = _terraform(root, tmp_path, "plan", "-input=false", f"-state={state}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "terraform_data.pug has moved to terraform_data.fox" in done.stdout, done.stdout
    assert "0 to add, 0 to change, 0 to destroy" in done.stdout, done.stdout


# finding 9: a module both called and run as a root keeps what outside readers and setters name
@pytest.mark.parametrize(("extra", "where", "why"), [
    pytest.param({"ci.yml": 'env:\n  TF_VAR_pug: "1"\nrun: terraform -chdir=net apply\n'}, ("net/main.tf", 1),
                 "TF_VAR_pug at ci.yml:2", id="tf-var-setter"),
    pytest.param({"Makefile": 'apply:\n\tterraform -chdir=net apply -var pug=1\n'}, ("net/main.tf", 1),
                 "-var pug= at Makefile:2", id="var-flag"),
    pytest.param({"app/main.tf": 'data "terraform_remote_state" "net" {\n  backend = "local"\n}\n'
                                 'output "x" {\n  value = data.terraform_remote_state.net.outputs.pug\n}\n'},
                 ("net/main.tf", 2), "terraform_remote_state.net.outputs.pug` at app/main.tf:5", id="remote-state"),
    pytest.param({"app/main.tf": 'data "terraform_remote_state" "net" {\n  backend = "local"\n}\n'
                                 'output "x" {\n  value = data.terraform_remote_state.net.outputs["pug"]\n}\n'},
                 ("net/main.tf", 2), "at app/main.tf:5", id="remote-state-index"),
    pytest.param({"show.sh": 'terraform -chdir=net output -raw pug\n'}, ("net/main.tf", 2),
                 "at show.sh:1", id="terraform-output"),
])
def test_a_called_module_run_as_a_root_too_keeps_its_labels(
        extra: dict[str, str], where: tuple[str, int], why: str, repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    files = {"net/main.tf": 'variable "pug" {}\noutput "pug" {\n  value = var.pug\n}\n',
             "ex/main.tf": 'module "net" {\n  source = "../net"\n  pug    = "1"\n}\noutput "o" {\n'
                           '  value = module.net.pug\n}\n', **extra}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _refused(root, run, where, why)


# finding 10a: what a refused variable keeps is never written, a loose .tfvars included
@needs_terraform
def test_a_refused_variables_loose_tfvars_is_kept(tmp_path: Path, repo: Callable[..., Path],
                                                  run: Callable[..., Result]) -> None:
    files = {"net/main.tf": 'variable "pug" {}\noutput "o" {\n  value = var.pug\n}\n',
             "envs/prod.tfvars": 'pug = "prod"\n',
             "Makefile": 'plan:\n\tterraform -chdir=net plan -var-file=../envs/prod.tfvars\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _refused(root, run, ("envs/prod.tfvars", 1), "net/main.tf:1 is not renamed wolf")
    for step in (("-chdir=net", "init", "-input=false"), ("-chdir=net", "plan", "-input=false",
                                                            "-var-file=../envs/prod.tfvars")):
        done = _terraform(root, tmp_path, *step)
        assert done.returncode == 0, done.stdout + done.stderr


def test_a_loose_tfvars_follows_a_variable_that_moves(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"net/main.tf": 'variable "pug" {}\n', "envs/prod.tfvars": 'pug = "prod"\n',
             "main.tf": 'module "net" {\n  source = "./net"\n  pug    = "x"\n}\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _swept(root, run)
    assert (root / "envs/prod.tfvars").read_text() == 'wolf = "prod"\n'
    assert (root / "net/main.tf").read_text() == 'variable "wolf" {}\n'


# finding 3d: with derived names, `pug-db` is a label decided by the same rule as `pug`
DERIVED = CONFIG.replace("allowlist:", "options:\n  derived_names: true\nallowlist:")


@needs_terraform
def test_a_derived_name_label_moves_with_its_references(tmp_path: Path, repo: Callable[..., Path],
                                                        run: Callable[..., Result]) -> None:
    files = {"main.tf": 'resource "terraform_data" "pug-db" {\n}\noutput "o" {\n  value = terraform_data.pug-db.id\n}\n',
             "caller/main.tf": 'module "c" {\n  source = "../"\n}\n'}
    root = repo(files, config=DERIVED, allowlist=ALLOW)
    _swept(root, run)
    for rel, text in in_moved_tf({"main.tf": tagged(
            'resource "terraform_data" "wolf-db" {\n}\n\nmoved {\n  from = terraform_data.pug-db\n'
            '  to   = terraform_data.wolf-db\n}\noutput "o" {\n  value = terraform_data.wolf-db.id\n}\n')}).items():
        assert (root / rel).read_text() == text, rel
    _init_validate(root, tmp_path)


def test_a_derived_name_label_that_cannot_move_is_kept_whole(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    files = {"main.tf": 'resource "terraform_data" "pug-db" {\n}\nresource "terraform_data" "wolf-db" {\n}\n'
                        'output "o" {\n  value = terraform_data.pug-db.id\n}\n',
             "caller/main.tf": 'module "c" {\n  source = "../"\n}\n'}
    root = repo(files, config=DERIVED, allowlist=ALLOW)
    _refused(root, run, ("main.tf", 1), "terraform_data.wolf-db is declared already at main.tf:3")
    assert (root / "main.tf").read_text() == files["main.tf"]
