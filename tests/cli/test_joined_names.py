"""A host and its domain joined from two halves (break-it round 17, findings 2 and 14).

Two variables, `"${var.host}.${var.domain}"` beside `host = "pug"` (terraform.tfvars) and `default =
"ana.lan"`, `{{ app_host }}.{{ app_domain }}`, `${HOST}.${DOMAIN}` over `.env`: with `pug.ana.lan ->
wolf.fv.lan` the sweep rewrote the host half alone, making wolf.ana.lan, verify OK. And the
machine's own name joined to a literal domain by Jinja's operators (`inventory_hostname ~
'.ana.lan'`, `+`, `[inventory_hostname, 'ana.lan'] | join('.')`, `'%s.ana.lan' |
format(inventory_hostname)`): on wolf each made wolf.ana.lan, verify OK. Now each is a
`composed-name` residual, or follows where one edit is right; Terraform and Jinja evaluate the
swept files to the name the residual names."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest

from tests.conftest import Result
from tests.testing.findings import places
from tests.testing.terraform import needs_terraform

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
TF_VARIABLES = 'variable "host" {}\nvariable "domain" { default = "ana.lan" }\n'


def _composed(root: Path, run: Callable[..., Result]) -> list[tuple[str, int]]:
    return places(root, run, "composed-name")


TWO_VARIABLES = [
    pytest.param({"tf/variables.tf": TF_VARIABLES, "tf/terraform.tfvars": 'host = "pug"\n',
                  "tf/main.tf": 'output "a" { value = "${var.host}.${var.domain}" }\n'}, "tf/main.tf", 1,
                 id="terraform-interpolation-across-files"),
    pytest.param({"tf/variables.tf": TF_VARIABLES, "tf/terraform.tfvars": 'host = "pug"\n',
                  "tf/main.tf": 'output "b" { value = join(".", [var.host, var.domain]) }\n'}, "tf/main.tf", 1,
                 id="terraform-join"),
    pytest.param({"tf/variables.tf": TF_VARIABLES, "tf/terraform.tfvars": 'host = "pug"\n',
                  "tf/main.tf": 'output "c" { value = format("%s.%s", var.host, var.domain) }\n'}, "tf/main.tf", 1,
                 id="terraform-format"),
    pytest.param({"group_vars/all.yml": 'app_host: pug\napp_domain: ana.lan\napp_fqdn: "{{ app_host }}.{{ app_domain }}"\n'},
                 "group_vars/all.yml", 3, id="ansible-two-templates"),
    pytest.param({"group_vars/all.yml": "app_host: pug\nbase_domain: ana.lan\napp_domain: '{{ base_domain }}'\n",
                  "roles/x/templates/a.j2": "server {{ [app_host, app_domain] | join('.') }}\n"},
                 "roles/x/templates/a.j2", 1, id="jinja-join-the-domain-one-level-deeper"),
    pytest.param({".env": "HOST=pug\nDOMAIN=ana.lan\n",
                  "compose.yaml": "services:\n  a:\n    image: x\n    hostname: ${HOST}.${DOMAIN}\n"},
                 "compose.yaml", 4, id="compose-over-env"),
    pytest.param({"app/settings.env": "APP_HOST=pug\nAPP_DOMAIN=ana.lan\n",
                  "app/run.py": "url = '%s.%s' % (APP_HOST, APP_DOMAIN)\n"
                                "alt = '{}.{}'.format(APP_HOST, APP_DOMAIN)\n"},
                 "app/run.py", 2, id="python-percent-and-format"),
    pytest.param({"group_vars/all.yml": "app_host: pug\napp_domain: ana.lan\n",
                  "templates/a.j2": "server {{ app_host ~ '.' ~ app_domain }}\n"}, "templates/a.j2", 1,
                 id="jinja-tilde-dot-tilde"),
    pytest.param({".env": "HOST=pug\nSUFFIX=.ana.lan\n", "compose.yaml": "services:\n  a:\n    hostname: ${HOST}${SUFFIX}\n"},
                 "compose.yaml", 3, id="a-suffix-variable-holding-its-dot"),
    pytest.param({"hosts.ini": "[web]\npug\nrex\n", "group_vars/web.yml": "domain: ana.lan\n",
                  "templates/b.j2": "{{ inventory_hostname }}.{{ domain }}\n"}, "templates/b.j2", 1,
                 id="the-own-name-and-a-domain-variable"),
    # break-it round 19, finding 2: four more languages
    pytest.param({"sh/run.sh": 'HOST=pug\nDOMAIN=ana.lan\nssh "$HOST.$DOMAIN" uptime\n'}, "sh/run.sh", 3,
                 id="shell-bare-variables"),
    pytest.param({"py/cfg.py": 'host = "pug"\ndomain = "ana.lan"\nfqdn = f"{host}.{domain}"\n'}, "py/cfg.py", 3,
                 id="python-fstring"),
    pytest.param({"cs/cfg.env": "HOST=pug\nDOMAIN=ana.lan\n", "cs/Cfg.cs": 'var fqdn = $"{HOST}.{DOMAIN}";\n'},
                 "cs/Cfg.cs", 1, id="csharp-interpolated"),
    pytest.param({"rb/cfg.rb": 'host = "pug"\ndomain = "ana.lan"\nfqdn = "#{host}.#{domain}"\n'}, "rb/cfg.rb", 3,
                 id="ruby-interpolated"),
    pytest.param({"k8s/pod.yaml": 'env:\n  - {name: HOST, value: pug}\n  - name: DOMAIN\n    value: ana.lan\n'
                                  '  - {name: FQDN, value: "$(HOST).$(DOMAIN)"}\n'}, "k8s/pod.yaml", 5,
                 id="kubernetes-dependent-variables"),
]


@pytest.mark.parametrize(("files", "path", "line"), TWO_VARIABLES)
def test_two_halves_that_join_an_old_fqdn_are_a_residual(files: dict[str, str], path: str, line: int,
                                                         repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert (path, line) in _composed(root, run)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout
    assert (root / path).read_text().splitlines()[line - 1] == files[path].splitlines()[line - 1]
    assert (path, line) in _composed(root, run)  # the host half rewritten, the join still names nothing
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize(("config", "files"), [
    pytest.param(CONFIG.replace("pug.ana.lan: wolf.fv.lan", "pug.ana.lan: wolf.fv.lan, ana.lan: fv.lan"),
                 {".env": "HOST=pug\nDOMAIN=ana.lan\n", "compose.yaml": "services:\n  a:\n    hostname: ${HOST}.${DOMAIN}\n"},
                 id="the-domain-moves-too"),
    pytest.param(CONFIG.replace("wolf.fv.lan", "wolf.ana.lan"),
                 {".env": "HOST=pug\nDOMAIN=ana.lan\n", "compose.yaml": "services:\n  a:\n    hostname: ${HOST}.${DOMAIN}\n"},
                 id="the-same-domain"),
    pytest.param(CONFIG, {".env": "HOST=rex\nDOMAIN=ana.lan\n", "compose.yaml": "services:\n  a:\n    hostname: ${HOST}.${DOMAIN}\n"},
                 id="another-host"),
    pytest.param(CONFIG, {".env": "HOST=pug\nPORT=:8080\n", "compose.yaml": "services:\n  a:\n    url: ${HOST}${PORT}\n"},
                 id="a-suffix-that-is-no-domain"),
    pytest.param(CONFIG, {".env": "HOST=pug\nDOMAIN=ana.lan  # renamer: keep\n",
                          "compose.yaml": "services:\n  a:\n    hostname: ${HOST}.${DOMAIN}\n    x: ${A}.${B}\n"},
                 id="unknown-halves-say-nothing"),
])
def test_halves_that_join_right_after_the_sweep_pass(config: str, files: dict[str, str], repo: Callable[..., Path],
                                                     run: Callable[..., Result]) -> None:
    root = repo(files, config=config, allowlist=ALLOW)
    if "keep" in files[".env"]:  # the domain kept: pug's half moves to wolf, the kept domain stays
        assert ("compose.yaml", 3) in _composed(root, run)
        return
    assert _composed(root, run) == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify", "--strict").exit_code == 0


@needs_terraform
def test_terraform_reads_the_name_the_residual_names(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"variables.tf": TF_VARIABLES, "terraform.tfvars": 'host = "pug"\n',
             "main.tf": 'locals {\n  a = "${var.host}.${var.domain}"\n  b = join(".", [var.host, var.domain])\n}\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert _composed(root, run) == [("main.tf", 2), ("main.tf", 3)]
    assert run(root, "sweep", "--commit").exit_code == 1
    done = subprocess.run(["terraform", "console"], input="jsonencode([local.a, local.b])\n", cwd=root,
                          capture_output=True, text=True, check=True, timeout=120,
                          env={**os.environ, "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1"})
    assert '[\\"wolf.ana.lan\\",\\"wolf.ana.lan\\"]' in done.stdout, done.stdout  # what the residuals warn of


OWN_NAME = [
    pytest.param("{{ inventory_hostname ~ '.ana.lan' }}", id="tilde"),
    pytest.param("{{ inventory_hostname + '.ana.lan' }}", id="plus"),
    pytest.param("{{ [inventory_hostname, 'ana.lan'] | join('.') }}", id="join"),
    pytest.param("{{ '%s.ana.lan' | format(inventory_hostname) }}", id="format"),
    pytest.param("{{ ansible_nodename ~ \".ana.lan\" }}", id="another-own-name-double-quotes"),
    pytest.param("{{ (inventory_hostname_short ~ '.ana.lan') | lower }}", id="short-name-in-parentheses"),
    # break-it round 19, finding 2: the own name joined by a filter or str.format
    pytest.param("{{ inventory_hostname | regex_replace('$', '.ana.lan') }}", id="regex-replace-at-the-end"),
    pytest.param("{{ '{}.ana.lan'.format(inventory_hostname) }}", id="str-format"),
]


@pytest.mark.parametrize("expression", OWN_NAME)
def test_the_machines_own_name_joined_to_a_literal_domain_is_a_residual(expression: str, repo: Callable[..., Path],
                                                                        run: Callable[..., Result]) -> None:
    files = {"hosts.ini": "[web]\npug\nrex\n", "group_vars/web.yml": f'fqdn: "{expression}"\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert ("group_vars/web.yml", 1) in _composed(root, run)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "group_vars/web.yml").read_text() == files["group_vars/web.yml"]
    environment = jinja2.Environment()
    environment.filters["regex_replace"] = lambda value, pattern, text: re.sub(pattern, text, value)  # Ansible's
    rendered = environment.from_string(expression).render(
        inventory_hostname="wolf", inventory_hostname_short="wolf", ansible_nodename="wolf")
    assert rendered == "wolf.ana.lan"  # on the renamed host: what the residual warns of


def test_a_variable_joined_to_a_literal_domain_follows_where_one_domain_is_right(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"vars.yml": "node: pug\n", "site.j2": "{{ [node, 'ana.lan'] | join('.') }} {{ node ~ '.ana.lan' }}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    text = (root / "site.j2").read_text()
    assert text == "{{ [node, 'fv.lan'] | join('.') }} {{ node ~ '.fv.lan' }}\n"
    assert jinja2.Environment().from_string(text).render(node="wolf") == "wolf.fv.lan wolf.fv.lan"
    assert run(root, "verify", "--strict").exit_code == 0


def test_halves_are_read_in_the_readers_own_language(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Break-it round 19, finding 13: a Nix join and a Terraform module's join took their halves
    from an unrelated chart's values file (`host: pug`), two false residuals; a right one named the
    chart's values instead of the module's caller. A Nix or Terraform file reads its own language's
    definitions, and a chart's values file is read only under its folder."""
    files = {"helm/values.yaml": "host: pug\ndomain: ana.lan\n",
             "nix/host.nix": 'let host = "rex"; domain = "ana.lan"; in { fqdn = "${host}.${domain}"; }\n',
             "mod/main.tf": 'variable "host" {}\nvariable "domain" { default = "ana.lan" }\n'
                            'output "fqdn" { value = "${var.host}.${var.domain}" }\n',
             "tf/main.tf": 'module "web" {\n  source = "../mod"\n  host   = "rex"\n}\n',
             "py/cfg.py": 'fqdn = f"{host}.{domain}"\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    found = _composed(root, run)
    assert ("nix/host.nix", 1) not in found and ("mod/main.tf", 3) not in found and ("py/cfg.py", 1) not in found
    (root / "tf/main.tf").write_text(files["tf/main.tf"].replace('"rex"', '"pug"'))
    subprocess.run(["git", "commit", "-qam", "caller passes pug"], cwd=root, check=True)
    out = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    module = [f for f in out if f["path"] == "mod/main.tf" and f["reason"] == "composed-name"]
    # a Nix `let` on the join's own line is its nearest definition: where it binds pug, the residual names it
    (root / "nix/host.nix").write_text(files["nix/host.nix"].replace('"rex"', '"pug"'))
    subprocess.run(["git", "commit", "-qam", "nix binds pug"], cwd=root, check=True)
    out = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    nix = [f for f in out if f["path"] == "nix/host.nix" and f["reason"] == "composed-name"]
    assert len(nix) == 1 and "nix/host.nix:1" in nix[0]["note"] and "helm" not in nix[0]["note"], nix
    # and a pod's `$(HOST).$(DOMAIN)` reads its own env items, never a shell script's HOST
    pod = repo({"sh/run.sh": "HOST=pug\nDOMAIN=ana.lan\n",
                "k8s/pod.yaml": 'env:\n  - {name: HOST, value: rex}\n  - {name: DOMAIN, value: ana.lan}\n'
                                '  - {name: FQDN, value: "$(HOST).$(DOMAIN)"}\n'}, config=CONFIG, allowlist=ALLOW)
    assert ("k8s/pod.yaml", 4) not in _composed(pod, run)
    assert len(module) == 1 and "tf/main.tf:3" in module[0]["note"] and "helm" not in module[0]["note"], module


def test_an_environment_lookup_in_python_follows_the_env_file(repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    """Break-it round 19, findings 3 and 17: `os.environ["HOST"] + ".ana.lan"` and
    `f"{os.getenv('HOST')}.ana.lan"` over a compose `.env` holding `HOST=pug` were neither rewritten
    nor named, and python printed wolf.ana.lan; Node's `${process.env.HOST}.ana.lan` was a residual
    saying HOST is each host's own name. Each now reads `.env`: HOST holds only pug, so the literal
    domain follows (`.fv.lan`) and python prints wolf.fv.lan; where HOST holds another host too the
    join is a residual naming `.env`."""
    files = {"app/.env": "HOST=pug\n", "app/compose.yaml": "services:\n  app: {image: x, env_file: .env}\n",
             "app/main.py": 'import os\nos.environ.setdefault("HOST", "pug")\n'
                            'a = os.environ["HOST"] + ".ana.lan"\nb = f"{os.getenv(\'HOST\')}.ana.lan"\nprint(a, b)\n',
             "app/index.js": "const upstream = `${process.env.HOST}.ana.lan`;\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    main = (root / "app/main.py").read_text()
    assert 'os.environ["HOST"] + ".fv.lan"' in main and "{os.getenv('HOST')}.fv.lan" in main, main
    assert (root / "app/index.js").read_text() == "const upstream = `${process.env.HOST}.fv.lan`;\n"
    env = {**os.environ, "HOST": (root / "app/.env").read_text().strip().split("=")[1]}
    done = subprocess.run(["python3", "app/main.py"], cwd=root, capture_output=True, text=True, check=True, env=env)
    assert done.stdout.split() == ["wolf.fv.lan", "wolf.fv.lan"]
    assert run(root, "verify", "--strict").exit_code == 0

    other = repo({**files, "app/prod.env": "HOST=rex\n"}, config=CONFIG, allowlist=ALLOW)
    out = json.loads(run(other, "verify", "--format", "json").stdout)["findings"]
    js = [f for f in out if f["path"] == "app/index.js" and f["reason"] == "composed-name"]
    assert len(js) == 1 and "app/.env:1" in js[0]["note"] and "own name" not in js[0]["note"], js
    assert {f["line"] for f in out if f["path"] == "app/main.py" and f["reason"] == "composed-name"} == {3, 4}


def test_a_ruby_interpolation_before_a_literal_domain_follows_its_definition(repo: Callable[..., Path],
                                                                             run: Callable[..., Result]) -> None:
    """Break-it round 19, finding 2's class: Ruby's `"#{node}.ana.lan"` beside `node = "pug"` is read
    as `${node}.ana.lan` is: the host half moves, and the literal domain follows where one is right."""
    files = {"rb/up.rb": 'node = "pug"\nurl = "https://#{node}.ana.lan/"\nputs url\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "rb/up.rb").read_text() == 'node = "wolf"\nurl = "https://#{node}.fv.lan/"\nputs url\n'
    assert run(root, "verify", "--strict").exit_code == 0
