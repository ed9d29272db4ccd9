"""Traefik's `NAME@provider` references, end to end (break-it round 9, finding 4).

`service: pug@file`, `middlewares: ["pug@file"]`, a label's `service=pug@file`: Traefik's
reference to the service or middleware `pug` of the file provider, not the user `pug` at a host
`file`. It follows the name's fate: renamed where the definition is, kept where a label key
keeps it; a real `user@host` stays an account.
"""

from __future__ import annotations

import yaml

from tests.testing.repos import CURRENT_ALL, LAB_CONFIG, Repo, Run

CONFIG = LAB_CONFIG
DYNAMIC = """\
http:
  routers:
    r1:
      rule: "Host(`a.example`)"
      service: pug@file
      middlewares: ["pug@file", "auth@docker"]
    r2:
      rule: "Host(`b.example`)"
      service: pug
      middlewares:
        - pug@file
        - chain-pug@file
  middlewares:
    pug:
      basicAuth: {users: ["u:x"]}
  services:
    pug:
      loadBalancer: {servers: [{url: "http://10.0.40.11/"}]}
tcp:
  routers:
    t1:
      rule: "HostSNI(`*`)"
      service: pug@kubernetescrd
"""


def test_router_references_follow_the_renamed_definitions(repo: Repo, run: Run) -> None:
    root = repo({"dynamic.yml": DYNAMIC,
                 "compose.yaml": 'services:\n  app:\n    image: x\n    labels:\n'
                                 '      - "traefik.http.routers.r3.service=pug@file"\n'
                                 '      - "traefik.http.routers.r3.middlewares=pug@file,pug@internal"\n'},
                config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    done = yaml.safe_load((root / "dynamic.yml").read_text())
    routers = done["http"]["routers"]
    assert set(done["http"]["services"]) == {"wolf"} and set(done["http"]["middlewares"]) == {"wolf"}
    assert routers["r1"]["service"] == "wolf@file"
    assert routers["r1"]["middlewares"] == ["wolf@file", "auth@docker"]
    assert routers["r2"]["middlewares"] == ["wolf@file", "chain-pug@file"]  # another name: untouched
    assert done["tcp"]["routers"]["t1"]["service"] == "wolf@kubernetescrd"
    compose = (root / "compose.yaml").read_text()
    assert "service=wolf@file" in compose and "middlewares=wolf@file,wolf@internal" in compose
    verified = run(root, "verify")  # strict: `chain-pug` is a near-miss (part of a longer name)
    assert verified.exit_code == 0 and "0 residual" in verified.stdout, verified.stdout
    assert "account" not in run(root, "audit").stdout


def test_a_label_defined_name_keeps_its_provider_reference_with_it(repo: Repo, run: Run) -> None:
    """`services.pug.` in a label key keeps its name: `service=pug@docker` reads it, so keeps it."""
    compose = ('services:\n  app:\n    image: x\n    labels:\n'
               '      - "traefik.http.services.pug.loadbalancer.server.port=80"\n'
               '      - "traefik.http.routers.r.service=pug@docker"\n'
               '      - "traefik.http.routers.r.rule=Host(`pug.lab.lan`)"\n')
    root = repo({"compose.yaml": compose}, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    text = (root / "compose.yaml").read_text()
    assert "services.pug.loadbalancer" in text and "service=pug@docker" in text
    assert "Host(`wolf.lab.lan`)" in text
    verified = run(root, "verify")  # strict: the label key's `pug` is a near-miss, as before
    assert verified.exit_code == 0 and "0 residual" in verified.stdout, verified.stdout
    assert "key-of-record" in run(root, "audit").stdout


def test_user_at_host_stays_an_account(repo: Repo, run: Run) -> None:
    """Negatives: `pug@docker` outside any Traefik file is the user pug on the host `docker`; in a
    Traefik file, `pug@backup01` (no provider word) and `pug@files` are accounts too."""
    root = repo({"deploy.sh": "#!/bin/sh\nssh pug@docker uptime\nssh pug@file.lab.lan true\n",
                 "dynamic.yml": "http:\n  routers:\n    r: {service: svc@file}\n"
                                "# owner: pug@backup01, pug@files\n"},
                config=CONFIG, allowlist=CURRENT_ALL)
    before = {p: (root / p).read_bytes() for p in ("deploy.sh", "dynamic.yml")}
    run(root, "sweep", "--commit")
    assert {p: (root / p).read_bytes() for p in before} == before
    audit = run(root, "audit").stdout
    assert audit.count("account") >= 1 and "deploy.sh" in audit and "dynamic.yml" in audit
