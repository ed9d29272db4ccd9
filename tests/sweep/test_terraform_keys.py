"""Terraform `for_each` instance keys (issue 27, the last open class): `for_each = toset(["pug"])`
rewritten to `wolf` renamed the instance `x["pug"]` to `x["wolf"]` with no `moved` block (terraform
planned a destroy and a create) and the sweep exited 0; in a mixed loop, which the loop rules hold,
`x["pug"]` was still rewritten. A key moves with every reference and a `moved` block, or the key,
its references and the names its body composes from `each.key` are kept whole, a residual. Through
the CLI on real git repos; terraform applies the old tree and plans the swept one where it is
installed, beside the byte checks that always run (sweep/terraform_keys.py, hcl_keys.py)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.sweep.test_terraform_labels import ALLOW, CONFIG, _swept, _terraform, _verify
from tests.sweep.test_terraform_matches import needs_terraform
from tests.testing.repos import snapshot
from tests.testing.terraform import in_moved_tf, tag


def _moved(address: str, old: str = "pug", new: str = "wolf", indent: str = "") -> str:
    return (
        f'\n\n{indent}{tag()}\n{indent}moved {{\n{indent}  from = {address}["{old}"]\n'
        f'{indent}  to   = {address}["{new}"]\n{indent}}}'
    )


X = 'resource "terraform_data" "x" {\n  for_each = %s\n  input    = "x"\n}\n'
READ = 'output "o" {\n  value = terraform_data.x["pug"].id\n}\n'
MOVED_X = _moved("terraform_data.x")

CHILD = (
    'resource "terraform_data" "x" {\n  for_each = toset(["pug"])\n  input    = "x"\n}\n'
    'output "hosts" {\n  value = terraform_data.x\n}\n'
    'output "ids" {\n  value = { for k, v in terraform_data.x : k => v.id }\n}\n'
)
CALLER = (
    'module "child" {\n  source = "./child"\n}\noutput "id" {\n  value = module.child.hosts["pug"].id\n}\n'
    'output "ids" {\n  value = module.child.ids["pug"]\n}\n'
)

MOVES = [
    pytest.param(
        {"main.tf": X % 'toset(["pug", "rex"])' + READ},
        {
            "main.tf": (X % 'toset(["wolf", "rex"])').replace("}\n", "}" + MOVED_X + "\n", 1)
            + READ.replace('"pug"', '"wolf"')
        },
        id="toset-literal",
    ),
    pytest.param(
        {"main.tf": X % '["pug"]'},
        {"main.tf": (X % '["wolf"]').replace("}\n", "}" + MOVED_X + "\n", 1)},
        id="list-literal-no-reference",
    ),
    pytest.param(
        {"main.tf": X % "{\n    pug = { size = 1 }\n    rex = { size = 2 }\n  }" + READ},
        {
            "main.tf": (X % "{\n    wolf = { size = 1 }\n    rex  = { size = 2 }\n  }").replace(
                'input    = "x"\n}\n', 'input    = "x"\n}' + MOVED_X + "\n"
            )
            + READ.replace('"pug"', '"wolf"')
        },
        id="map-bare-keys",
    ),
    pytest.param(
        {"main.tf": X % '{ "pug" = 1, "pug.ana.lan" = 2 }'},
        {
            "main.tf": (X % '{ "wolf" = 1, "wolf.fv.lan" = 2 }').replace(
                'input    = "x"\n}\n',
                'input    = "x"\n}'
                + MOVED_X
                + _moved("terraform_data.x", "pug.ana.lan", "wolf.fv.lan")
                + "\n",
            )
        },
        id="map-quoted-keys-an-fqdn-too",
    ),
    pytest.param(
        {"locals.tf": 'locals {\n  hosts = ["pug"]\n}\n', "main.tf": X % "toset(local.hosts)" + READ},
        {
            "locals.tf": 'locals {\n  hosts = ["wolf"]\n}\n',
            "main.tf": (X % "toset(local.hosts)").replace("}\n", "}" + MOVED_X + "\n", 1)
            + READ.replace('"pug"', '"wolf"'),
        },
        id="a-local-in-another-file",
    ),
    pytest.param(
        {"locals.tf": 'locals {\n  hosts = ["pug"]\n}\n', "main.tf": X % "toset(local.hosts)"},
        {"locals.tf": 'locals {\n  hosts = ["wolf"]\n}' + MOVED_X + "\n"},
        id="moved-after-the-local-where-the-block-file-is-not-edited",
    ),
    pytest.param(
        {
            "main.tf": 'module "m" {\n  source   = "./mod"\n  for_each = { pug = 1, rex = 2 }\n  size     = '
            'each.value\n}\noutput "o" {\n  value = module.m["pug"].id\n}\n',
            "mod/main.tf": 'variable "size" {}\noutput "id" {\n  value = var.size\n}\n',
        },
        {
            "main.tf": 'module "m" {\n  source   = "./mod"\n  for_each = { wolf = 1, rex = 2 }\n  size     = '
            "each.value\n}" + _moved("module.m") + '\noutput "o" {\n  value = module.m["wolf"].id\n}\n'
        },
        id="module-instances",
    ),
    pytest.param(
        {
            "main.tf": 'variable "hosts" {\n  default = {}\n}\n' + X % "var.hosts" + READ,
            "terraform.tfvars": 'hosts = {\n  pug = { ip = "x" }\n}\n',
        },
        {
            "main.tf": 'variable "hosts" {\n  default = {}\n}\n'
            + (X % "var.hosts").replace("}\n", "}" + MOVED_X + "\n", 1)
            + READ.replace('"pug"', '"wolf"'),
            "terraform.tfvars": 'hosts = {\n  wolf = { ip = "x" }\n}\n',
        },
        id="the-tfvars-terraform-loads-beside-it",
    ),
    pytest.param(
        {"main.tf": 'variable "hosts" {\n  default = ["pug"]\n}\n' + X % "toset(var.hosts)" + READ},
        {
            "main.tf": 'variable "hosts" {\n  default = ["wolf"]\n}\n'
            + (X % "toset(var.hosts)").replace("}\n", "}" + MOVED_X + "\n", 1)
            + READ.replace('"pug"', '"wolf"')
        },
        id="a-variable-default-nothing-else-sets",
    ),
    pytest.param(
        {
            "main.tf": 'data "terraform_data_x" "d" {\n  for_each = toset(["pug"])\n}\n'
            'output "o" {\n  value = data.terraform_data_x.d["pug"].id\n}\n'
        },
        {
            "main.tf": 'data "terraform_data_x" "d" {\n  for_each = toset(["wolf"])\n}\n'
            'output "o" {\n  value = data.terraform_data_x.d["wolf"].id\n}\n'
        },
        id="data-source-no-moved-block",
    ),
    pytest.param(
        {"main.tf": X % 'toset(["pug"])' + 'import {\n  to = terraform_data.x["pug"]\n  id = "i"\n}\n'},
        {
            "main.tf": (X % 'toset(["wolf"])').replace("}\n", "}" + MOVED_X + "\n", 1)
            + 'import {\n  to = terraform_data.x["wolf"]\n  id = "i"\n}\n'
        },
        id="import-to-follows",
    ),
    pytest.param(
        {
            "main.tf": X % 'toset(["pug"])' + '\nmoved {\n  from = terraform_data.x["old"]\n'
            '  to   = terraform_data.x["pug"]\n}\n'
        },
        {
            "main.tf": (X % 'toset(["wolf"])').replace("}\n", "}" + MOVED_X + "\n", 1)
            + '\nmoved {\n  from = terraform_data.x["old"]\n  to   = terraform_data.x["pug"]\n}\n'
        },
        id="a-moved-chain-grows-a-link",
    ),
    pytest.param(
        {
            "main.tf": 'resource "terraform_data" "x" {\n  for_each = toset(["pug"])\n'
            '  input    = "${each.key}.ana.lan"\n}\n' + READ
        },
        {
            "main.tf": 'resource "terraform_data" "x" {\n  for_each = toset(["wolf"])\n'
            '  input    = "${each.key}.fv.lan"\n}' + MOVED_X + "\n" + READ.replace('"pug"', '"wolf"')
        },
        id="each-key-composed-name-follows",
    ),
    pytest.param(
        {
            "main.tf": 'resource "terraform_data" "x" {\n  count = 2\n  input = "pug.ana.lan"\n}\n'
            'output "o" {\n  value = terraform_data.x[0].output\n}\n'
        },
        {
            "main.tf": 'resource "terraform_data" "x" {\n  count = 2\n  input = "wolf.fv.lan"\n}\n'
            'output "o" {\n  value = terraform_data.x[0].output\n}\n'
        },
        id="count-is-unaffected",
    ),
    pytest.param(
        {"main.tf": (X % 'toset(["pug"])' + READ).replace("\n", "\r\n")},
        {
            "main.tf": (
                (X % 'toset(["wolf"])').replace("}\n", "}" + MOVED_X + "\n", 1)
                + READ.replace('"pug"', '"wolf"')
            ).replace("\n", "\r\n")
        },
        id="crlf",
    ),
    pytest.param(
        {
            "main.tf": X % 'toset(["pug"])'
            + 'output "h" {\n  value = <<-EOT\n    ${terraform_data.x[ "pug" ].id}\n  EOT\n}\n',
            "out.tf.json": '{"output": {"j": {"value": "${terraform_data.x[\\"pug\\"].id}"}}}\n',
        },
        {
            "main.tf": (X % 'toset(["wolf"])').replace("}\n", "}" + MOVED_X + "\n", 1)
            + 'output "h" {\n  value = <<-EOT\n    ${terraform_data.x[ "wolf" ].id}\n  EOT\n}\n',
            "out.tf.json": '{"output": {"j": {"value": "${terraform_data.x[\\"wolf\\"].id}"}}}\n',
        },
        id="a-heredoc-blanks-and-a-tf-json-reference",
    ),
    pytest.param(
        {"main.tf": X % 'toset(["10.0.0.5"])' + READ.replace("pug", "10.0.0.5")},
        {
            "main.tf": (X % 'toset(["10.1.0.5"])').replace(
                "}\n", "}" + _moved("terraform_data.x", "10.0.0.5", "10.1.0.5") + "\n", 1
            )
            + READ.replace("pug", "10.1.0.5")
        },
        id="an-address-key",
    ),
    pytest.param(
        {"main.tf": CALLER, "child/main.tf": CHILD},
        {
            "main.tf": CALLER.replace('"pug"', '"wolf"'),
            "child/main.tf": CHILD.replace('"pug"', '"wolf"').replace(
                'input    = "x"\n}\n', 'input    = "x"\n}' + MOVED_X + "\n"
            ),
        },
        id="a-caller-reads-it-through-an-output",
    ),
    pytest.param(
        {"locals.tf": 'locals {\n  hosts = ["pug"]\n}\n', "main.tf": "# pugs\n" + X % "toset(local.hosts)"},
        {
            "locals.tf": 'locals {\n  hosts = ["wolf"]\n}\n',
            "main.tf": "# pugs\n" + (X % "toset(local.hosts)").replace("}\n", "}" + MOVED_X + "\n", 1),
        },
        id="the-moved-block-alone-in-a-file-with-no-match",
    ),
    pytest.param(
        # TechDufus/home.io's shape: `{ for k, v in var.X : k => v if ... }` keeps the source's keys
        # (some filtered out), so it moves as var.X does; an address inside an entry is a value
        # and follows, never held as if it were a key
        {
            "variables.tf": 'variable "hosts" {\n  default = {\n    pug = { ip = "10.0.0.5", on = true }\n'
            '    rex = { ip = "10.0.0.6", on = false }\n  }\n}\n',
            "main.tf": 'resource "terraform_data" "x" {\n  for_each = { for k, v in var.hosts : k => v if v.on }\n'
            '  input    = each.value.ip\n}\n',
        },
        {
            # main.tf holds no old value, so the sweep does not read it: the block goes after the
            # variable's, in a file of the same module
            "variables.tf": 'variable "hosts" {\n  default = {\n    wolf = { ip = "10.1.0.5", on = true }\n'
            '    rex  = { ip = "10.0.0.6", on = false }\n  }\n}' + MOVED_X + "\n",
        },
        id="a-filtered-for-over-a-variable",
    ),
]


@pytest.mark.parametrize(("files", "after"), MOVES)
def test_an_instance_key_moves_with_its_references_and_a_moved_block(
    files: dict[str, str], after: dict[str, str], repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _swept(root, run)
    for rel, text in in_moved_tf({**files, **after}).items():  # the blocks go to the module's moved.tf
        assert (root / rel).read_bytes().decode() == text, rel


MIXED = (
    'resource "terraform_data" "x" {\n  for_each = toset(["pug", "rex"])\n  input    = "${each.key}.ana.lan"\n}\n'
    + READ
)
HELD = [
    pytest.param({"main.tf": MIXED}, ("main.tf", 2), "composed-name", id="mixed-loop-held"),
    pytest.param(
        {
            "locals.tf": 'locals {\n  hosts = ["pug", "rex"]\n}\n',
            "main.tf": MIXED.replace('toset(["pug", "rex"])', "toset(local.hosts)"),
        },
        ("locals.tf", 2),
        "composed-name",
        id="mixed-loop-over-a-local-held",
    ),
    pytest.param(
        {
            "main.tf": 'variable "hosts" {\n  default = ["pug"]\n}\n' + X % "toset(var.hosts)" + READ,
            "prod.tfvars": 'hosts = ["pug"]\n',
        },
        ("main.tf", 2),
        "var.hosts",
        id="a-variable-default-a-var-file-sets-too",
    ),
    pytest.param(
        {
            "main.tf": 'variable "hosts" {\n  default = ["pug"]\n}\n' + X % "toset(var.hosts)" + READ,
            "ci.sh": "terraform plan -var 'hosts=[\"pug\"]'\n",
        },
        ("ci.sh", 1),
        "var.hosts",
        id="a-variable-default-a-var-flag-sets-too",
    ),
    pytest.param(
        {"main.tf": 'variable "hosts" {}\n' + X % "toset(var.hosts)" + READ},
        ("main.tf", 7),
        "var.hosts",
        id="a-variable-without-a-default",
    ),
    pytest.param(
        {
            "main.tf": 'variable "hosts" {}\n' + X % "var.hosts" + READ,
            "envs/prod.tfvars": "hosts = {\n  pug = {}\n}\n",
        },
        ("envs/prod.tfvars", 2),
        "var.hosts",
        id="a-loose-tfvars-read-through-var-file",
    ),
    pytest.param(
        {
            "main.tf": 'module "m" {\n  source = "./mod"\n  hosts  = ["pug"]\n}\n',
            "mod/main.tf": 'variable "hosts" {}\n' + X % "toset(var.hosts)",
        },
        ("main.tf", 3),
        "var.hosts",
        id="a-callers-argument",
    ),
    pytest.param(
        {"main.tf": X % '{ for h in ["pug"] : h => h }' + READ},
        ("main.tf", 2),
        "an expression renamer does not read",
        id="a-for-expression",
    ),
    pytest.param(
        {"main.tf": X % 'toset(["pug"])' + READ, "legacy.tf": READ},
        ("main.tf", 2),
        "legacy.tf:2 keeps the old key (archive)",
        id="a-reference-in-a-record",
    ),
    pytest.param(
        {"main.tf": X % 'toset(["pug"])' + READ.replace(".id\n", ".id # renamer: keep\n")},
        ("main.tf", 2),
        "main.tf:6 keeps the old key",
        id="a-reference-on-a-kept-line",
    ),
    pytest.param(
        {
            "main.tf": X % 'toset(["pug"])',
            "Makefile": "fix:\n\tterraform apply -target='terraform_data.x[\"pug\"]'\n",
        },
        ("main.tf", 2),
        "a terraform command at Makefile:2",
        id="a-terraform-command-names-it",
    ),
    pytest.param(
        {"main.tf": X % 'toset(["pug", "wolf"])'},
        ("main.tf", 2),
        'terraform_data.x["wolf"] is declared already',
        id="the-new-key-taken",
    ),
    pytest.param(
        {"main.tf": 'output "o" {\n  value = terraform_data.y["pug"].id\n}\n'},
        ("main.tf", 2),
        "declared by no block",
        id="a-reference-to-no-for-each-block",
    ),
    pytest.param(
        {
            "locals.tf": 'locals {\n  hosts = ["pug"]\n}\n',
            "main.tf": (X % "toset(local.hosts)")
            + (X % "toset(local.hosts)").replace('"x"', '"y"', 1)
            + READ.replace("terraform_data.x", "terraform_data.y"),
            "legacy.tf": READ,
        },
        ("main.tf", 10),
        "also the key of terraform_data.x, which is kept whole",
        id="two-blocks-share-a-local-one-kept",
    ),
    pytest.param(
        {"main.tf": X % 'toset(concat(["pug"], ["rex"]))' + READ},
        ("main.tf", 2),
        "an expression renamer does not read",
        id="a-function-of-a-list",
    ),
    pytest.param(
        {
            "main.tf": 'variable "hosts" {}\n' + X % "var.hosts",
            "terraform.tfvars": "hosts = {\n  pug = {}\n}\n",
        },
        ("terraform.tfvars", 2),
        "no .tf file of the module the sweep reads can hold its `moved` block",
        id="only-a-tfvars-spells-it",
    ),
    pytest.param(
        {
            "main.tf": X % 'toset(["10.0.0.5"])',
            "Makefile": "fix:\n\tterraform apply -target='terraform_data.x[\"10.0.0.5\"]'\n",
        },
        ("Makefile", 2),
        "a terraform command at Makefile:2",
        id="an-address-key-a-command-names",
    ),
    pytest.param(
        {
            "main.tf": CALLER,
            "child/main.tf": CHILD,
            "legacy.tf": 'output "old" {\n  value = module.child.ids["pug"]\n}\n',
        },
        ("main.tf", 5),
        "the reference at legacy.tf:2 keeps the old key (archive)",
        id="a-record-reads-it-through-an-output",
    ),
    pytest.param(
        {
            "main.tf": X % 'toset(["pug"])' + READ,
            "terraform.tfstate": '{"resources": [{"type": "terraform_data", "name": "x", '
            '"instances": [{"index_key": "pug"}]}]}\n',
        },
        ("terraform.tfstate", 1),
        "terraform.tfstate, terraform's own file, names it",
        id="a-state-file-in-the-repo-names-it",
    ),
]


# Break-it round 9, finding 6: keys read from a data file by a Terraform function, a
# `.tfvars.json` written on one line, a map passed to a module whose code is not in the repo.
# The data file's keys are plain YAML/JSON/CSV to the other rules: they were renamed alone.
Y = 'resource "terraform_data" "y" {\n  for_each = %s\n  input    = each.value\n}\n'
READ_Y = 'output "o" {\n  value = terraform_data.y["pug"].id\n}\n'
FROM_FILES = [
    pytest.param(
        {
            "main.tf": Y % 'yamldecode(file("${path.module}/hosts.yaml"))',
            "hosts.yaml": "pug:\n  ip: 10.0.0.9\n",  # a value under the key follows: see below
        },
        ("hosts.yaml", 1),
        '`file("${path.module}/hosts.yaml")` at main.tf:2, read by a Terraform function',
        id="yamldecode-file-path-module",
    ),
    pytest.param(
        {
            "locals.tf": 'locals {\n  raw   = file("hosts.json")\n  hosts = jsondecode(local.raw)\n}\n',
            "main.tf": Y % "local.hosts" + READ_Y,
            "hosts.json": '{"rex": "a",\n "pug": "b"}\n',
        },
        ("hosts.json", 2),
        '`file("hosts.json")` at locals.tf:2',
        id="jsondecode-through-two-locals",
    ),
    pytest.param(
        {
            "main.tf": Y % '{ for r in csvdecode(file("${path.root}/data/hosts.csv")) : r.name => r }',
            "data/hosts.csv": "name,ip\npug,10.0.0.5\nrex,10.0.0.6\n",
        },
        ("data/hosts.csv", 2),
        "read by a Terraform function",
        id="csvdecode-for-by-a-column",
    ),
    pytest.param(
        {
            "main.tf": Y % 'toset([for f in fileset(path.module, "vms/*.yaml") : yamldecode(file(f)).name])',
            "vms/a.yaml": "name: pug\n",
        },
        ("vms/a.yaml", 1),
        'fileset(path.module, "vms/*.yaml")',
        id="fileset-of-data-files",
    ),
    pytest.param(
        {
            "mod/main.tf": 'variable "hosts" {}\n' + Y % "var.hosts",
            "main.tf": 'module "m" {\n  source = "./mod"\n'
            '  hosts  = yamldecode(templatefile("${path.module}/h.tpl", {}))\n}\n',
            "h.tpl": "pug: 1\n",
        },
        ("h.tpl", 1),
        'templatefile("${path.module}/h.tpl"',
        id="templatefile-in-a-callers-argument",
    ),
    pytest.param(
        {
            "main.tf": 'variable "nodes" {\n  type = map(string)\n}\n' + Y % "var.nodes",
            "terraform.tfvars.json": '{"nodes": {"pug": "a", "rex": "b"}}\n',
        },
        ("terraform.tfvars.json", 1),
        "no .tf file of the module the sweep reads can hold its `moved` block",
        id="terraform-tfvars-json-on-one-line",
    ),
    pytest.param(
        {
            "main.tf": 'variable "nodes" {\n  type = map(string)\n}\n' + Y % "var.nodes" + READ_Y,
            "envs/stage.tfvars.json": '{\n  "other": 1, "nodes": {\n    "pug": "a"\n  }\n}\n',
        },
        ("envs/stage.tfvars.json", 3),
        "var.nodes",
        id="a-loose-tfvars-json",
    ),
    pytest.param(
        {
            "main.tf": 'module "vms" {\n  source = "git::https://example.com/vm.git?ref=v1"\n  vms = {\n'
            "    pug = { size = 1 }\n    rex = { size = 2 }\n  }\n}\n"
        },
        ("main.tf", 4),
        "whose source git::https://example.com/vm.git?ref=v1 is not in the repo",
        id="a-remote-modules-map-argument",
    ),
    pytest.param(
        {
            "main.tf": 'module "ec2" {\n  source  = "terraform-aws-modules/ec2-instance/aws"\n'
            '  names   = ["rex", "pug"]\n}\n'
        },
        ("main.tf", 3),
        "is not in the repo",
        id="a-registry-modules-list-argument",
    ),
]
HELD += FROM_FILES


@pytest.mark.parametrize(("files", "where", "why"), HELD)
def test_an_instance_key_that_cannot_move_is_kept_whole(
    files: dict[str, str],
    where: tuple[str, int],
    why: str,
    repo: Callable[..., Path],
    run: Callable[..., Result],
) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    swept = snapshot(root)
    assert {rel: swept[rel] for rel in files} == {rel: before[rel] for rel in files}  # nothing of it written
    code, found = _verify(root, run)
    assert code != 0
    at = [
        f
        for f in found
        if (f["path"], f["line"]) == where and f["reason"] in ("terraform-label", "composed-name")
    ]
    assert at and any(why in str(f["note"]) for f in found), json.dumps(found, indent=1)


def test_a_held_instance_keeps_the_names_its_body_composes(
    repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    """The key kept (a record reads it): `${each.key}.ana.lan` keeps its domain too, a residual."""
    files = {"main.tf": MIXED.replace(', "rex"', ""), "legacy.tf": READ}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "main.tf").read_text() == files["main.tf"]
    _, found = _verify(root, run)
    assert ("main.tf", 3, "terraform-label") in {(f["path"], f["line"], f["reason"]) for f in found}, found


# One tree holding every way a key moves that terraform plans: applied before the sweep into a
# state outside the repo (a state file in the repo keeps labels and keys whole), planned after.
PLANNED = {
    "main.tf": (
        X % 'toset(["pug", "rex"])'
        + READ
        + 'resource "terraform_data" "m" {\n  for_each = { pug = 1, "pug.ana.lan" = 2 }\n  input = "x"\n}\n'
        + 'resource "terraform_data" "l" {\n  for_each = toset(local.hosts)\n  input = "x"\n}\n'
        + 'resource "terraform_data" "pug" {\n  for_each = toset(["pug"])\n  input = "x"\n}\n'
        + 'resource "terraform_data" "c" {\n  count = 1\n  input = "pug"\n}\n'
        + 'module "mod" {\n  source   = "./mod"\n  for_each = toset(["pug"])\n}\n'
        + 'output "mod" {\n  value = module.mod["pug"].id\n}\n'
    ),
    "locals.tf": 'locals {\n  hosts = ["pug"]\n}\n',
    "caller.tf": CALLER.replace('"id"', '"cid"').replace('"ids"', '"cids"'),
    "child/main.tf": CHILD,
    "mod/main.tf": 'resource "terraform_data" "r" {\n  input = "x"\n}\noutput "id" {\n  value = "x"\n}\n',
}


@needs_terraform
def test_terraform_plans_the_moves_and_destroys_nothing(
    tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    root = repo(PLANNED, config=CONFIG, allowlist=ALLOW)
    state = tmp_path / "outside.tfstate"
    for step in (("init", "-input=false"), ("apply", "-auto-approve", "-input=false", f"-state={state}")):
        done = _terraform(root, tmp_path, *step)
        assert done.returncode == 0, done.stdout + done.stderr
    _swept(root, run)
    done = _terraform(root, tmp_path, "plan", "-input=false", f"-state={state}")
    assert done.returncode == 0, done.stdout + done.stderr
    for moved in (
        'terraform_data.x["pug"] has moved to terraform_data.x["wolf"]',
        'terraform_data.m["pug.ana.lan"] has moved to terraform_data.m["wolf.fv.lan"]',
        'terraform_data.l["pug"] has moved to terraform_data.l["wolf"]',
        'terraform_data.pug["pug"] has moved to terraform_data.wolf["wolf"]',
        'module.mod["pug"].terraform_data.r has moved to module.mod["wolf"].terraform_data.r',
        'module.child.terraform_data.x["pug"] has moved to module.child.terraform_data.x["wolf"]',
    ):
        assert moved in done.stdout, done.stdout
    assert "0 to add, 1 to change, 0 to destroy" in done.stdout, done.stdout  # c's input: "pug" -> "wolf"


@needs_terraform
def test_terraform_plans_nothing_for_a_held_instance(
    tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    files = {
        "main.tf": MIXED,
        "mod.tf": 'variable "hosts" {\n  default = ["pug"]\n}\n'
        'resource "terraform_data" "v" {\n  for_each = toset(var.hosts)\n}\n',
        "ci.sh": "terraform plan -var 'hosts=[\"pug\"]'\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    state = tmp_path / "outside.tfstate"
    for step in (("init", "-input=false"), ("apply", "-auto-approve", "-input=false", f"-state={state}")):
        done = _terraform(root, tmp_path, *step)
        assert done.returncode == 0, done.stdout + done.stderr
    assert run(root, "sweep", "--commit").exit_code == 1
    assert {rel: (root / rel).read_text() for rel in files} == files
    done = _terraform(root, tmp_path, "plan", "-input=false", f"-state={state}")
    assert done.returncode == 0 and "No changes." in done.stdout, done.stdout + done.stderr


def test_the_held_tree_is_byte_for_byte_the_same(
    repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    """The byte check beside the terraform one above, run where terraform is missing too."""
    root = repo({"main.tf": MIXED}, config=CONFIG, allowlist=ALLOW)
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "main.tf").read_text() == MIXED
    assert (
        subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
        == head
    )


def test_a_tracked_tfvars_that_a_gitignore_rule_covers_is_read(
    repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    """`*.tfvars` in .gitignore, `terraform.tfvars` committed before it (TechDufus/home.io): the
    sweep rewrites the tracked file, so the indexes must read it too. `git grep --untracked` leaves
    out a tracked file an ignore rule covers: the key moved in the tfvars with no `moved` block."""
    files = {
        "variables.tf": 'variable "hosts" {\n  type = map(string)\n}\n',
        "main.tf": 'resource "terraform_data" "x" {\n  for_each = var.hosts\n  input    = each.value\n}\n',
        "terraform.tfvars": 'hosts = {\n  pug = "a"\n  rex = "b"\n}\n',
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    (root / ".gitignore").write_text("*.tfvars\n")
    subprocess.run(["git", "-C", str(root), "add", ".gitignore"], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-qm", "ignore tfvars"], check=True)
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-ci", "--exclude-standard"],
                            capture_output=True, text=True, check=True).stdout
    assert listed.split() == ["terraform.tfvars"]  # tracked, and covered by the rule
    done = run(root, "sweep", "--commit")
    # the key is only in the .tfvars and main.tf holds no old value: kept whole, never renamed alone
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "terraform.tfvars").read_text() == files["terraform.tfvars"]
    code, found = _verify(root, run)
    assert code != 0
    assert any(f["path"] == "terraform.tfvars" and f["reason"] == "terraform-label" for f in found), found


@needs_terraform
def test_terraform_plans_nothing_for_keys_read_from_data_files(
    tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    """Break-it round 9, finding 6 through terraform: keys from `yamldecode(file())`, from a
    `csvdecode` column, from a one-line `terraform.tfvars.json`; applied, swept, planned: nothing
    is destroyed (the data files were renamed alone before: 3 to add, 3 to destroy)."""
    files = {
        "main.tf": 'variable "nodes" {\n  type = map(string)\n}\n'
        + Y % 'yamldecode(file("${path.module}/hosts.yaml"))'
        + Y.replace('"y"', '"c"') % '{ for r in csvdecode(file("hosts.csv")) : r.name => r.ip }'
        + Y.replace('"y"', '"j"') % "var.nodes",
        "hosts.yaml": "pug:\n  ip: 10.0.0.5\nrex:\n  ip: 10.0.0.6\n",
        "hosts.csv": "name,ip\npug,10.0.0.5\n",
        "terraform.tfvars.json": '{"nodes": {"pug": "a", "rex": "b"}}\n',
    }
    files["main.tf"] = files["main.tf"].replace("each.value\n}\n", "jsonencode(each.value)\n}\n")
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    state = tmp_path / "outside.tfstate"
    for step in (("init", "-input=false"), ("apply", "-auto-approve", "-input=false", f"-state={state}")):
        done = _terraform(root, tmp_path, *step)
        assert done.returncode == 0, done.stdout + done.stderr
    assert run(root, "sweep", "--commit").exit_code == 1
    # the keys held; the address under `pug:` in the decoded YAML is a value, not a key: it follows
    # (t36-sweep, finding 25), an update in place of the instance's input
    assert {rel: (root / rel).read_text() for rel in files} == {
        **files, "hosts.yaml": files["hosts.yaml"].replace("10.0.0.5", "10.1.0.5")}
    done = _terraform(root, tmp_path, "plan", "-input=false", f"-state={state}")
    assert done.returncode == 0 and "1 to change, 0 to destroy" in done.stdout, done.stdout + done.stderr
    assert "must be replaced" not in done.stdout and "will be destroyed" not in done.stdout


CASE_CONFIG = "version: 1\nrenames:\n  hosts: {pug: wolf}\n  addresses: {10.0.40.11: 10.0.40.12}\nallowlist: allow.yaml\n"
CASE_KEY = 'resource "terraform_data" "x" {\n  for_each = toset(["10.0.40.11"])\n  input    = "PUG"\n}\n'


@pytest.mark.parametrize(
    "files",
    [
        pytest.param({"main.tf": CASE_KEY}, id="key-held-by-case-in-records"),
        pytest.param(
            {"main.tf": CASE_KEY + 'output "o" {\n  value = terraform_data.x["10.0.40.11"].id\n}\n'},
            id="key-and-reference-held-by-case-in-records",
        ),
    ],
)
def test_no_moved_block_for_a_key_a_later_rule_holds(
    files: dict[str, str], repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    """Review finding 1: a rule after the Terraform hook (here case_in_records: `PUG` in the record
    of the address the key spells) held the key, and the `moved` block was still written, so
    terraform failed "Moved object still exists". The whole instance is held, no `moved` block."""
    root = repo(files, config=CASE_CONFIG, allowlist=ALLOW)
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run")
    assert "moved {" not in dry.stdout, dry.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert snapshot(root)["main.tf"] == before["main.tf"]
    _, found = _verify(root, run)
    assert {(f["line"], f["reason"]) for f in found if f["path"] == "main.tf"} >= {(2, "case-record")}
    assert all(f["reason"] in ("case-record", "terraform-label") for f in found), found


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["plain", "bom"])
def test_a_tfvars_value_behind_a_bom_still_holds_the_key(
    bom: bytes, repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    """Review finding 2: terraform reads `hosts = ["pug"]` behind a UTF-8 BOM; renamer did not, so
    the key moved with the default alone and terraform failed "Moved object still exists"."""
    allow = ALLOW.replace("'**/legacy.tf']", "'**/legacy.tf', terraform.tfvars]")
    files = {"main.tf": 'variable "hosts" {\n  default = ["pug"]\n}\n' + X % "toset(var.hosts)"}
    root = repo(files, config=CONFIG, allowlist=allow)
    (root / "terraform.tfvars").write_bytes(bom + b'hosts = ["pug"]\n')
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-qm", "tfvars"], check=True)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "main.tf").read_text() == files["main.tf"]
    assert "terraform.tfvars:1" in done.stdout, done.stdout


def test_no_moved_block_for_a_key_a_later_rule_holds_in_another_file(
    repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    """Review finding 1 across files: the key and its `moved` block in main.tf, its reference in
    out.tf held by case_in_records (`PUG` in the record of the address the key spells): the key
    is not rewritten and no `moved` block is written; exit 1."""
    files = {
        "main.tf": CASE_KEY.replace('"PUG"', '"x"'),
        "out.tf": 'output "o" {\n  value       = terraform_data.x["10.0.40.11"].id\n  description = "PUG"\n}\n',
    }
    root = repo(files, config=CASE_CONFIG, allowlist=ALLOW)
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run")
    assert "moved {" not in dry.stdout, dry.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert {rel: snapshot(root)[rel] for rel in files} == {rel: before[rel] for rel in files}
    assert "main.tf:2:22: 10.0.40.11 (terraform-label: held with terraform_data.x" in done.stdout, done.stdout
    code, found = _verify(root, run)
    assert code == 1 and ("main.tf", 2) in {(f["path"], f["line"]) for f in found}, found


@pytest.mark.parametrize("decode, data", [
    ('yamldecode(file("${path.module}/hosts.yaml"))', ("hosts.yaml", "pug:\n  ip: 10.0.0.5\nrex:\n  ip: 10.0.0.6\n")),
    ('jsondecode(file("hosts.json"))', ("hosts.json", '{"pug": {"ip": "10.0.0.5"},\n "rex": {"ip": "10.0.0.6"}}\n')),
    ("local.hosts", ("hosts.yaml", "pug: {ip: 10.0.0.5}\nrex: {ip: 10.0.0.6}\n")),
])
def test_a_value_under_a_decoded_files_key_is_no_instance_key(
    decode: str, data: tuple[str, str], repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    """t36-sweep, finding 25: `for_each = yamldecode(file("hosts.yaml"))` with `pug: {ip: 10.0.0.5}`:
    the address was kept and called "the instance key 10.0.0.5", with a `moved` block for an
    instance that never was. The file's top-level keys are the instance keys; a value under one
    follows the rename (the same value in a .tfvars map always did)."""
    rel, text = data
    files = {"main.tf": Y % decode + READ_Y, rel: text}
    if decode == "local.hosts":
        files["locals.tf"] = 'locals {\n  hosts = yamldecode(file("hosts.yaml"))\n}\n'
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1  # the key pug is held: a decision
    assert (root / rel).read_text() == text.replace("10.0.0.5", "10.1.0.5")
    assert (root / "main.tf").read_text() == files["main.tf"]  # the reference to ["pug"] held with it
    code, found = _verify(root, run)
    assert code != 0
    held = [f for f in found if f["reason"] == "terraform-label"]
    assert held and all(f["path"] == rel or f["path"] == "main.tf" for f in held), held
    assert not any("10.0.0.5" in str(f["note"]) or "10.1.0.5" in str(f["note"]) for f in found), found
    assert any("top-level keys are kept with the instances they name" in str(f["note"]) for f in held), held


@pytest.mark.parametrize("for_each", ["local.records", "{ a_pug = { content = local.network.hosts.pug.ip } }"])
def test_literal_keys_beside_values_read_from_a_file_hold_nothing_of_the_file(
    for_each: str, repo: Callable[..., Path], run: Callable[..., Result]
) -> None:
    """t37-break, finding 11 (adrienkohlbecker/homelab's shape): `for_each = local.records`, a
    literal map whose values read a yamldecode'd topology file: the keys are literals, none comes
    from the file; the file's names and addresses follow like any YAML."""
    topology = "hosts:\n  pug: { ip: 10.0.0.5 }\n  rex: { ip: 10.0.0.6 }\n"
    main = ('locals {\n  network = yamldecode(file("${path.module}/topology.yml"))\n'
            "  records = { a_pug = { content = local.network.hosts.pug.ip } }\n}\n"
            + Y % for_each)
    root = repo({"topology.yml": topology, "main.tf": main}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "topology.yml").read_text() == topology.replace("pug", "wolf").replace("10.0.0.5", "10.1.0.5")
    assert "local.network.hosts.wolf.ip" in (root / "main.tf").read_text()
    assert "a_pug" in (root / "main.tf").read_text()  # the instance key, untouched
    code, found = _verify(root, run)
    assert code == 0 and not [f for f in found if f["reason"] == "terraform-label"], found
