"""Sealed files, end to end (break-it round 16, finding 1): a sops-encrypted file (its key paths are
its values' additional data, its MAC covers every value) and signed text (a PGP clear-signed block,
a file with a detached signature beside it) are never rewritten; every old value there is a
residual naming the tool, in verify too. A record's or a keep rule's stays kept. The signatures are
made and checked by the real gpg."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.testing.repos import LAB_CONFIG, Repo, Run, git

ALLOW = "version: 1\ncurrent: ['**']\nrecords:\n  - {name: notes, paths: ['notes/**'], reason: history}\n"
ENC = "ENC[AES256_GCM,data:dNk1PQrvXt2mcA==,iv:ajrqxQ+VIc/0x3aZJfJnyL4PLWVm6sTOLBNGY2Io4m4=,tag:qXAJU72ijXmcmdk=,type:str]"
MAC = "ENC[AES256_GCM,data:/TxUEYwDmK9664L1fFgmVjqE1N0JyPKZcuLRlV8DeUEhpoM7OL7ge2DnxK+F3sN2EX49RP2X=,iv:8zeq6Mvs=,tag:WfVE=,type:str]"
SOPS_YAML = ("wireguard_peers:\n    pug:\n        private_key: " + ENC + "\n    rex:\n        private_key: " + ENC
             + "\nsops:\n    lastmodified: \"2026-12-05T22:08:33Z\"\n    mac: " + MAC + "\n    pgp:\n"
             "        - fp: 2BF2873E2B705FDC3FB52BA14BA0387255CBADFE\n    version: 3.11.0\n")
# --encrypted-regex '^(data|stringData)$': the metadata is plaintext, and the MAC covers it
SOPS_SECRET = ("apiVersion: v1\nkind: Secret\nmetadata:\n    name: backup-creds\n    annotations:\n"
               "        backup/host: pug.lab.lan\nstringData:\n    password: " + ENC + "\nsops:\n    mac: " + MAC
               + "\n    encrypted_regex: ^(data|stringData)$\n    version: 3.11.0\n")
SOPS_JSON = json.dumps({"hosts": {"pug": {"token": ENC}}, "sops": {"mac": MAC, "version": "3.11.0"}}, indent=4) + "\n"
SOPS_ENV = ("DB_HOST_unencrypted=pug.lab.lan\nTOKEN=" + ENC + "\nsops_mac=" + MAC + "\nsops_version=3.11.0\n")
SOPS_INI = "[pug]\npassword = " + ENC + "\n[sops]\nmac = " + MAC + "\nversion = 3.11.0\n"
SOPS_FILES = {"group_vars/wg.yaml": SOPS_YAML, "k8s/secret.sops.yaml": SOPS_SECRET, "group_vars/tokens.json": SOPS_JSON,
              "stack/.env.sops": SOPS_ENV, "conf/app.sops.ini": SOPS_INI}


def _findings(run: Run, root: Path, command: str) -> list[dict[str, object]]:
    done = run(root, command, "--format", "json")
    found: list[dict[str, object]] = json.loads(done.stdout)["findings" if command == "verify" else "references"]
    return found


def test_sops_files_are_never_rewritten_each_old_value_a_residual(repo: Repo, run: Run) -> None:
    files = {**SOPS_FILES,
             "templates/wg.conf.j2": "PrivateKey = {{ wireguard_peers.pug.private_key }}\n",
             "deploy.sh": "ssh pug.lab.lan true\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    found = _findings(run, root, "verify")
    sops = {(f["path"], f["line"]) for f in found if f.get("reason") == "sops"}
    assert sops == {("group_vars/wg.yaml", 2), ("k8s/secret.sops.yaml", 6), ("group_vars/tokens.json", 3),
                    ("stack/.env.sops", 1), ("conf/app.sops.ini", 1)}
    assert all("sops edit" in str(f["note"]) for f in found if f.get("reason") == "sops")
    assert run(root, "sweep", "--commit").exit_code == 1  # a residual: never an OK
    for rel, text in SOPS_FILES.items():
        assert (root / rel).read_text() == text, rel
    # the key stays, so the template reading it keeps reading it by its old name
    assert (root / "templates/wg.conf.j2").read_text() == files["templates/wg.conf.j2"]
    assert (root / "deploy.sh").read_text() == "ssh wolf.lab.lan true\n"
    done = run(root, "verify")
    assert done.exit_code == 1 and "residual (sops)" in done.stdout


def test_a_sops_record_or_a_kept_sops_file_stays_kept(repo: Repo, run: Run) -> None:
    files = {"notes/2026-01-wg.yaml": SOPS_YAML, "group_vars/wg.yaml": SOPS_YAML}
    allow = ALLOW + "keep:\n  - {name: peers, paths: [group_vars/wg.yaml], reason: peer ids on the hub}\n"
    root = repo(files, config=LAB_CONFIG, allowlist=allow)
    assert run(root, "verify").exit_code == 0
    reasons = {(f["path"], f["reason"]) for f in _findings(run, root, "audit")}
    assert reasons == {("notes/2026-01-wg.yaml", "notes"), ("group_vars/wg.yaml", "peers")}


def test_sops_strings_without_sops_metadata_are_plain_text(repo: Repo, run: Run) -> None:
    """A note quoting a ciphertext is no sops file: its names follow."""
    files = {"README.md": f"pug's key is `{ENC}`; decrypt it on pug.lab.lan.\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "README.md").read_text() == f"wolf's key is `{ENC}`; decrypt it on wolf.lab.lan.\n"


@pytest.fixture
def gpg(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A throwaway GNUPGHOME with one key without passphrase (the real gpg)."""
    home = tmp_path / "gnupg"
    home.mkdir(mode=0o700)
    env = {**os.environ, "GNUPGHOME": str(home)}
    subprocess.run(["gpg", "--batch", "--quiet", "--passphrase", "", "--quick-gen-key", "t <t@t>", "default",
                    "default", "never"], env=env, check=True, capture_output=True)
    yield env
    subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=env, check=False, capture_output=True)


def _gpg(env: dict[str, str], *args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["gpg", "--batch", "--quiet", *args], env=env, input=data, capture_output=True, check=False)


def test_signed_text_is_never_rewritten_and_its_signature_holds(repo: Repo, run: Run, gpg: dict[str, str],
                                                                tmp_path: Path) -> None:
    signed = _gpg(gpg, "--clearsign", data=b"Deploy to pug.lab.lan only from the jump host.\n").stdout
    # a clear-signed block inside a longer file: the text around it is no one's signature
    mail = b"Forwarded from pug.lab.lan's admin:\n\n" + signed + b"\nReply to pug.lab.lan.\n"
    files = {"runbook.asc": signed.decode(), "mail.txt": mail.decode(),
             "release/hosts.txt": "pug.lab.lan 10.0.40.11\n", "other/hosts.txt": "pug.lab.lan 10.0.40.11\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    sig = _gpg(gpg, "--armor", "--detach-sign", "--output", "-", str(root / "release/hosts.txt")).stdout
    (root / "release/hosts.txt.asc").write_bytes(sig)
    binary = _gpg(gpg, "--detach-sign", "--output", "-", str(root / "release/hosts.txt")).stdout
    (root / "release/hosts.txt.sig").write_bytes(binary)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "signatures")
    found = _findings(run, root, "verify")
    signed_refs = {(f["path"], f["line"]) for f in found if f.get("reason") == "signed"}
    assert signed_refs == {("runbook.asc", 4), ("mail.txt", 6), ("release/hosts.txt", 1)}
    assert all("sign it again" in str(f["note"]) for f in found if f.get("reason") == "signed")
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "runbook.asc").read_bytes() == signed
    assert (root / "release/hosts.txt").read_text() == files["release/hosts.txt"]
    assert (root / "other/hosts.txt").read_text() == "wolf.lab.lan 10.0.50.21\n"  # no signature beside it
    text = (root / "mail.txt").read_bytes()
    assert text.startswith(b"Forwarded from wolf.lab.lan's admin:") and text.endswith(b"Reply to wolf.lab.lan.\n")
    assert signed in text
    for args in (["--verify", str(root / "runbook.asc")],
                 ["--verify", str(root / "release/hosts.txt.asc"), str(root / "release/hosts.txt")],
                 ["--verify", str(root / "release/hosts.txt.sig"), str(root / "release/hosts.txt")]):
        assert _gpg(gpg, *args).returncode == 0, args
    assert run(root, "verify").exit_code == 1


SEALED = ("apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: pug\n  namespace: pug\n"
          "  annotations:\n    backup/host: pug.lab.lan\nspec:\n  encryptedData:\n"
          "    password: AgBy3i4OJSWK+PiTySYZZA9rO43cGDEq+pug/Hx0B7Lq9hXpYZk3vR8sTnQeWdU2mF1=\n"
          "  template:\n    metadata:\n      name: pug\n      namespace: pug\n")
DEPLOYMENT = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: pug\n  namespace: web\n"


def test_a_sealed_secret_keeps_the_name_and_namespace_its_seal_binds(repo: Repo, run: Run) -> None:
    """Strict scope: the name and namespace are the seal's label; an annotation follows, and so does
    another document of the file; namespace-wide frees the name, cluster-wide both."""
    wide = SEALED.replace("  annotations:\n",
                          "  annotations:\n    sealedsecrets.bitnami.com/namespace-wide: \"true\"\n")
    files = {"k8s/backup.yaml": SEALED + DEPLOYMENT, "k8s/wide.yaml": wide,
             "k8s/cluster.yaml": SEALED.replace("  annotations:\n", "  annotations:\n"
                                                "    sealedsecrets.bitnami.com/cluster-wide: \"true\"\n")}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    held = {(f["path"], f["line"]) for f in _findings(run, root, "verify") if f.get("reason") == "sealed-secret"}
    assert held == {("k8s/backup.yaml", 4), ("k8s/backup.yaml", 5), ("k8s/backup.yaml", 13),
                    ("k8s/backup.yaml", 14), ("k8s/wide.yaml", 5), ("k8s/wide.yaml", 15)}
    # identities move (`--allow-identity`): the seal's label still holds the name and namespace
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 1
    text = (root / "k8s/backup.yaml").read_text()
    assert text.startswith(SEALED.replace("pug.lab.lan", "wolf.lab.lan"))
    assert "+pug/Hx0B7" in text  # the ciphertext's letters: base64, kept
    assert text.endswith("name: wolf\n  namespace: web\n")  # another document: no seal binds it
    # backup.yaml's SealedSecret pug in namespace pug, held by its seal, is the object the other two
    # declare again: one object, one fate (tests/cli/test_kube_identities.py), so apart from it
    assert "  name: pug\n  namespace: pug\n" in (root / "k8s/wide.yaml").read_text()
    (root / "k8s/backup.yaml").unlink()
    git(root, "commit", "-qam", "the strict one elsewhere")
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 1
    assert "name: wolf\n  namespace: pug\n" in (root / "k8s/wide.yaml").read_text()
    # cluster-wide frees both, but wide.yaml's seal keeps namespace pug: one Namespace, one fate, so
    # its every `namespace: pug` stays (break-it round 20k, finding 4; was: moved apart from it)
    assert "name: wolf\n  namespace: pug\n" in (root / "k8s/cluster.yaml").read_text()


def test_a_detached_signature_named_gpg_or_pgp_seals_the_file_it_signs(repo: Repo, run: Run, gpg: dict[str, str]) -> None:
    """Break-it round 17, #3a: Debian's `Release` beside `Release.gpg` (a binary signature packet),
    an armoured `FILE.gpg`, a `FILE.pgp`; a `FILE.gpg` that is the file encrypted signs nothing, so
    the plain file beside it follows."""
    files = {"apt/Release": "Origin: lab\nURI: http://pug.lab.lan/debian\n", "conf/hosts": "pug.lab.lan 10.0.40.11\n",
             "mirror/list": "deb http://pug.lab.lan/debian stable main\n",
             "vault/hosts.txt": "pug.lab.lan 10.0.40.11\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    signatures = {"apt/Release.gpg": ["--detach-sign"], "conf/hosts.gpg": ["--armor", "--detach-sign"],
                  "mirror/list.pgp": ["--detach-sign"]}
    for sig, how in signatures.items():
        made = _gpg(gpg, *how, "--output", "-", str(root / sig.rpartition(".")[0]))
        (root / sig).write_bytes(made.stdout)
    encrypted = _gpg(gpg, "--encrypt", "--recipient", "t@t", "--output", "-", str(root / "vault/hosts.txt"))
    (root / "vault/hosts.txt.gpg").write_bytes(encrypted.stdout)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "signatures")
    signed = {(f["path"], f["line"]) for f in _findings(run, root, "verify") if f.get("reason") == "signed"}
    assert signed == {("apt/Release", 2), ("conf/hosts", 1), ("mirror/list", 1)}
    assert run(root, "sweep", "--commit").exit_code == 1
    for sig in signatures:
        signed_file = sig.rpartition(".")[0]
        assert (root / signed_file).read_text() == files[signed_file]
        assert _gpg(gpg, "--verify", str(root / sig), str(root / signed_file)).returncode == 0, sig
    assert (root / "vault/hosts.txt").read_text() == "wolf.lab.lan 10.0.50.21\n"


def test_a_sealed_secret_in_json_or_a_flow_mapping_keeps_its_name_and_namespace(repo: Repo, run: Run) -> None:
    """Break-it round 17, #3b: one-line JSON, a YAML flow mapping, a `kind: List` item: the seal binds
    `metadata.name` and `metadata.namespace` however the mapping is spelled; cluster-wide frees them."""
    one_line = ('{"apiVersion":"bitnami.com/v1alpha1","kind":"SealedSecret","metadata":{"name":"pug","namespace":'
                '"pug"},"spec":{"encryptedData":{"pw":"AgBy3i4OJSWK+PiTySYZZA=="},"template":{"metadata":'
                '{"annotations":{"backup/host":"pug.lab.lan"}}}}}\n')
    flow = ("apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata: {name: db, namespace: pug}\n"
            "spec:\n  encryptedData: {pw: AgBy3i4OJSWK}\n")
    listed = ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: bitnami.com/v1alpha1\n  kind: SealedSecret\n"
              "  metadata:\n    name: db\n    namespace: pug\n  spec:\n    encryptedData: {pw: AgBy3i4OJSWK}\n")
    cluster = one_line.replace('"namespace":"pug"},', '"namespace":"pug","annotations":'
                               '{"sealedsecrets.bitnami.com/cluster-wide":"true"}},')
    files = {"k8s/one.json": one_line, "k8s/flow.yaml": flow, "k8s/list.yaml": listed, "k8s/cluster.json": cluster}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    held = {(f["path"], f["line"], f["column"]) for f in _findings(run, root, "verify")
            if f.get("reason") == "sealed-secret"}
    assert held == {("k8s/one.json", 1, 80), ("k8s/one.json", 1, 98), ("k8s/flow.yaml", 3, 33),
                    ("k8s/list.yaml", 8, 16)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "k8s/one.json").read_text() == one_line.replace("pug.lab.lan", "wolf.lab.lan")
    for rel in ("k8s/flow.yaml", "k8s/list.yaml"):
        assert (root / rel).read_text() == files[rel]
    # cluster-wide: no seal binds them, but a JSON manifest's name and namespace are identities as a
    # YAML one's are (break-it round 20k, finding 7; was: followed)
    assert json.loads((root / "k8s/cluster.json").read_text())["metadata"] == {
        "name": "pug", "namespace": "pug", "annotations": {"sealedsecrets.bitnami.com/cluster-wide": "true"}}
    assert {f["column"] for f in _findings(run, root, "verify")
            if f["path"] == "k8s/cluster.json" and f.get("reason") == "identity"} == {80, 98}


SEALED_BARE = ("apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: db\nspec:\n"
               "  encryptedData:\n    pw: AgBy3i4OJSWK+PiTySYZZA==\n")
WEB = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"


def test_a_namespace_set_from_outside_on_a_sealed_secret_is_sealed(repo: Repo, run: Run) -> None:
    """Break-it round 17, #3c: a SealedSecret with no namespace of its own lands where whatever applies
    it says, and its seal binds that namespace: a kustomization's `namespace:` (one level up through a
    base too), a Flux Kustomization's `targetNamespace` over a folder, an Argo CD Application's
    destination, a HelmRelease's `targetNamespace` over a chart of the repo, `kubectl apply -n`,
    `helm --namespace=`. The same shapes over no SealedSecret, or a
    cluster-wide one: a command line's `-n` follows the host, a kustomization's `namespace:` is an
    identity (round 20, finding 3)."""
    cluster = SEALED_BARE.replace("  name: db\n", "  name: db\n  annotations:\n"
                                  "    sealedsecrets.bitnami.com/cluster-wide: \"true\"\n")
    files = {
        "k8s/app/kustomization.yaml": "namespace: pug\nresources: [sealed.yaml, web.yaml]\n",
        "k8s/app/sealed.yaml": SEALED_BARE, "k8s/app/web.yaml": WEB,
        "k8s/base/kustomization.yaml": "resources: [sealed.yaml]\n", "k8s/base/sealed.yaml": SEALED_BARE,
        "k8s/overlay/kustomization.yaml": "namespace: pug\nresources:\n  - ../base\n",
        "k8s/plain/kustomization.yaml": "namespace: pug\nresources: [web.yaml]\n", "k8s/plain/web.yaml": WEB,
        "k8s/wide/kustomization.yaml": "namespace: pug\nresources: [sealed.yaml]\n", "k8s/wide/sealed.yaml": cluster,
        "clusters/lab/app.yaml": ("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n"
                                  "  name: app\n  namespace: flux-system\nspec:\n  path: ./flux/app\n"
                                  "  targetNamespace: pug\n"),
        "flux/app/secrets/sealed.yaml": SEALED_BARE,
        "argo/app.yaml": ("apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: app\nspec:\n"
                          "  source:\n    path: argo-app\n  destination:\n    namespace: pug\n"),
        "argo-app/sealed.yaml": SEALED_BARE,
        "clusters/lab/release.yaml": ("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n"
                                      "  name: db\n  namespace: flux-system\nspec:\n  targetNamespace: pug\n"
                                      "  chart:\n    spec:\n      chart: ./charts/db\n"),
        "charts/db/Chart.yaml": "apiVersion: v2\nname: db\nversion: 0.1.0\n",
        "charts/db/templates/sealed.yaml": SEALED_BARE,
        "deploy.sh": ("kubectl apply -n pug -f manifests/sealed.yaml\nkubectl apply -n pug -f manifests/web.yaml\n"
                      "helm upgrade --install app ./charts/app --namespace=pug\n"),
        "manifests/sealed.yaml": SEALED_BARE, "manifests/web.yaml": WEB,
        "charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n",
        "charts/app/templates/sealed.yaml": SEALED_BARE,
    }
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    held = {(f["path"], f["line"]) for f in _findings(run, root, "verify") if f.get("reason") == "sealed-secret"}
    assert held == {("k8s/app/kustomization.yaml", 1), ("k8s/overlay/kustomization.yaml", 1),
                    ("clusters/lab/app.yaml", 8), ("argo/app.yaml", 9), ("deploy.sh", 1), ("deploy.sh", 3),
                    ("clusters/lab/release.yaml", 7)}
    assert run(root, "sweep", "--commit").exit_code == 1
    for rel in ("k8s/app/kustomization.yaml", "k8s/overlay/kustomization.yaml", "clusters/lab/app.yaml",
                "argo/app.yaml", "clusters/lab/release.yaml"):
        assert (root / rel).read_text() == files[rel], rel
    assert (root / "deploy.sh").read_text() == files["deploy.sh"].replace("-n pug -f manifests/web", "-n wolf -f manifests/web")
    # over no SealedSecret (or a cluster-wide one) a kustomization's `namespace:` is still the namespace
    # every object lands in: an identity (break-it round 20, finding 3), held as `metadata.namespace` is
    for rel in ("k8s/plain/kustomization.yaml", "k8s/wide/kustomization.yaml"):
        assert (root / rel).read_text() == files[rel], rel
    identity = {f["path"] for f in _findings(run, root, "verify") if f.get("reason") == "identity"}
    assert {"k8s/plain/kustomization.yaml", "k8s/wide/kustomization.yaml"} <= identity, identity
    built = subprocess.run(["kubectl", "kustomize", str(root / "k8s/overlay")], capture_output=True, text=True,
                           check=True).stdout
    assert "namespace: pug" in built  # the seal's namespace: the controller still unseals it


def test_a_namespace_a_patch_helmfile_or_application_set_sets_on_a_sealed_secret_is_sealed(repo: Repo,
                                                                                          run: Run) -> None:
    """Break-it round 19, #7: three more spellings of a namespace set from outside a SealedSecret were
    rewritten (sweep 0, verify OK, `kubectl kustomize` then emitting `namespace: wolf`): a
    kustomization's JSON6902 patch of `/metadata/namespace` (block and flow, and a strategic-merge
    patch's `namespace:`), a helmfile release's `namespace:` over a chart folder (only the release
    whose chart holds the SealedSecret), an Argo CD ApplicationSet's list element giving the
    template's `destination.namespace: "{{ns}}"`; a kustomization's `nameSuffix: -pug` stays (it binds
    the name), and a patch over no SealedSecret follows."""
    patch_json = ("resources: [sealed.yaml]\npatches:\n  - target: {kind: SealedSecret}\n    patch: |-\n"
                  "      - op: add\n        path: /metadata/namespace\n        value: pug\n")
    files = {
        "k2/kustomization.yaml": patch_json, "k2/sealed.yaml": SEALED_BARE,
        "k3/kustomization.yaml": ("resources: [sealed.yaml]\npatches:\n  - target: {kind: SealedSecret}\n"
                                  '    patch: \'[{"op": "replace", "path": "/metadata/namespace", "value": "pug"}]\'\n'),
        "k3/sealed.yaml": SEALED_BARE,
        "k4/kustomization.yaml": ("resources: [sealed.yaml]\npatches:\n  - patch: |-\n"
                                  "      apiVersion: bitnami.com/v1alpha1\n      kind: SealedSecret\n"
                                  "      metadata:\n        name: db\n        namespace: pug\n"),
        "k4/sealed.yaml": SEALED_BARE,
        "k1/kustomization.yaml": "namespace: apps\nnameSuffix: -pug\nresources: [sealed.yaml]\n",
        "k1/sealed.yaml": SEALED_BARE,
        "kweb/kustomization.yaml": patch_json.replace("sealed.yaml", "web.yaml"), "kweb/web.yaml": WEB,
        "hf/helmfile.yaml": ("releases:\n  - name: web\n    namespace: pug\n    chart: ./web\n"
                             "  - name: db\n    namespace: pug\n    chart: ./secrets\n"),
        "hf/secrets/sealed.yaml": SEALED_BARE, "hf/web/web.yaml": WEB,
        "argo/appset.yaml": ("apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: s\nspec:\n"
                             "  generators:\n    - list: {elements: [{ns: pug}]}\n  template:\n    spec:\n"
                             "      source: {path: argo/ss}\n      destination: {namespace: \"{{ns}}\"}\n"),
        "argo/ss/sealed.yaml": SEALED_BARE,
    }
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    held = {(f["path"], f["line"]) for f in _findings(run, root, "verify") if f.get("reason") == "sealed-secret"}
    assert held == {("k2/kustomization.yaml", 7), ("k3/kustomization.yaml", 4), ("k4/kustomization.yaml", 8),
                    ("hf/helmfile.yaml", 6), ("argo/appset.yaml", 7)}, held  # k1's `-pug` is no match: left
    run(root, "sweep", "--commit")
    for rel in ("k1/kustomization.yaml", "k2/kustomization.yaml", "k3/kustomization.yaml", "k4/kustomization.yaml",
                "argo/appset.yaml"):
        assert (root / rel).read_text() == files[rel], rel
    assert (root / "kweb/kustomization.yaml").read_text() == files["kweb/kustomization.yaml"].replace("pug", "wolf")
    assert (root / "hf/helmfile.yaml").read_text() == files["hf/helmfile.yaml"].replace(
        "namespace: pug\n    chart: ./web", "namespace: wolf\n    chart: ./web")  # its chart seals nothing
    for folder in ("k1", "k2", "k3"):  # what the controller unseals: the namespace and name sealed
        built = subprocess.run(["kubectl", "kustomize", str(root / folder)], capture_output=True, text=True,
                               check=True).stdout
        assert ("name: db-pug" if folder == "k1" else "namespace: pug") in built, (folder, built)


def test_a_detached_signature_in_another_folder_seals_the_file_it_signs(repo: Repo, run: Run,
                                                                         gpg: dict[str, str]) -> None:
    """Break-it round 19, #8: `sigs/Release.gpg` signs `apt/Release` from another folder (a verify
    script names both). An OpenPGP signature anywhere in the tree seals the bytes it signs, whatever
    its name (its hash's first 16 bits are checked against the file): binary, armoured, text mode,
    named otherwise (`sigs/apt-release.sig`). A signature of another kind (`.minisig`) named for the
    file in a folder without that file seals it too, and so does one a line names beside the file
    (`minisign -V -x keys/banner-2026.minisig -m conf/issue`). A file of the same name the signature does not
    sign (`mirror/Release`) follows."""
    files = {"apt/Release": "Origin: lab\nURI: http://pug.lab.lan/debian\n",
             "mirror/Release": "Origin: mirror\nURI: http://pug.lab.lan/mirror\n",
             "release/hosts.txt": "pug.lab.lan 10.0.40.11\n", "conf/motd": "Welcome to pug.lab.lan\n",
             "dists/InRelease.txt": "Suite: stable\nHost: pug.lab.lan\n", "other/hosts.txt": "pug.lab.lan 10.0.40.11 spare\n",
             "conf/issue": "Managed from pug.lab.lan\n", "conf/issue.net": "Managed from pug.lab.lan (net)\n",
             "verify.sh": "gpg --verify sigs/Release.gpg apt/Release\nminisign -Vm conf/motd -x keys/motd.minisig\n"
                          "minisign -V -x keys/banner-2026.minisig -m conf/issue\n",
             "README.md": "Banners are signed: keys/banner-2026.minisig.\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    signatures = {"sigs/Release.gpg": ("apt/Release", ["--detach-sign"]),
                  "signatures/hosts.txt.asc": ("release/hosts.txt", ["--armor", "--detach-sign"]),
                  "sigs/apt-release.sig": ("dists/InRelease.txt", ["--textmode", "--detach-sign"])}
    for sig, (signed_file, how) in signatures.items():
        (root / sig).parent.mkdir(exist_ok=True)
        (root / sig).write_bytes(_gpg(gpg, *how, "--output", "-", str(root / signed_file)).stdout)
    (root / "keys").mkdir()
    for minisig in ("keys/motd.minisig", "keys/banner-2026.minisig"):
        (root / minisig).write_text("untrusted comment: signature from minisign secret key\n"
                                    "RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "signatures")
    signed = {(f["path"], f["line"]) for f in _findings(run, root, "verify") if f.get("reason") == "signed"}
    assert signed == {("apt/Release", 2), ("release/hosts.txt", 1), ("dists/InRelease.txt", 2), ("conf/motd", 1),
                      ("conf/issue", 1)}
    assert run(root, "sweep", "--commit").exit_code == 1
    for sig, (signed_file, _) in signatures.items():
        assert (root / signed_file).read_text() == files[signed_file]
        assert _gpg(gpg, "--verify", str(root / sig), str(root / signed_file)).returncode == 0, sig
    assert (root / "conf/motd").read_text() == files["conf/motd"]
    assert (root / "conf/issue").read_text() == files["conf/issue"]  # named beside its signature in verify.sh
    assert (root / "conf/issue.net").read_text() == "Managed from wolf.lab.lan (net)\n"  # named by no line with it
    assert (root / "mirror/Release").read_text() == "Origin: mirror\nURI: http://wolf.lab.lan/mirror\n"
    assert (root / "other/hosts.txt").read_text() == "wolf.lab.lan 10.0.50.21 spare\n"  # signed by none
