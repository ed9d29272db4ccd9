"""Names another tool keeps its own object under (issue 27, t35 findings 03-06), end to end: a disk's
(LVM, LUKS, md, the installers'), a secret or configuration store item's (Vault, 1Password,
Bitwarden, pass, Consul, SSM, SOPS), a scheduler's (Nomad, Vagrant, libvirt, Swarm), and the `http`
backend's Terraform state (GitLab-managed: `.../terraform/state/NAME`, `TF_STATE_NAME`). Each was
rewritten with sweep 0 and verify --strict OK; now each is a `state-name` residual (the state's
name `terraform-state`, kept), the file byte for byte as it was, while the host name beside it
still moves."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

HELD: dict[str, tuple[str, str]] = {
    # 03: disks named at install time (the given case, and other spellings of the same disks)
    "fstab-mapper": ("hosts/fstab", "/dev/mapper/pug--vg-root / ext4 errors=remount-ro 0 1\n"),
    "grub-cmdline": ("etc/default/grub", 'GRUB_CMDLINE_LINUX="root=/dev/mapper/pug--vg-root rd.lvm.lv=pug-vg/root"\n'),
    "dracut-luks": ("boot/cmdline.txt", "rd.luks.name=5678-abcd=pug root=UUID=1\n"),
    "arch-cryptdevice": ("boot/loader.conf", "options cryptdevice=UUID=1:pug root=/dev/mapper/x\n"),
    "crypttab": ("etc/crypttab", "pug UUID=5678 none luks,discard\n"),
    "mdadm-name": ("etc/mdadm/mdadm.conf", "ARRAY /dev/md/0 metadata=1.2 name=pug:0 UUID=3aaa0122:29827cfa\n"),
    "mdadm-dev-md": ("etc/mdadm.conf", "ARRAY /dev/md/pug:data metadata=1.2 UUID=3aaa0122:29827cfa\n"),
    "mdadm-homehost": ("etc/mdadm/mdadm2.conf", "HOMEHOST pug\n"),
    "lvm-commands": ("scripts/grow.sh", "#!/bin/sh\nvgchange -ay pug\nlvextend -L +5G pug/root\n"),
    "cryptsetup": ("scripts/open.sh", "#!/bin/sh\ncryptsetup open /dev/sda2 pug\n"),
    "ansible-lvol": ("tasks/lvm.yml", "- community.general.lvol:\n    vg: pug\n    lv: data\n    size: 10g\n"),
    "preseed": ("preseed.cfg", "d-i partman-auto-lvm/new_vg_name string pug\n"),
    "kickstart": ("ks.cfg", "volgroup pug pv.01\nlogvol / --vgname=pug --name=root --size=8000\n"),
    "lvm-dev-path": ("hosts/fstab4", "/dev/pug/root / ext4 defaults 0 1\n"),
    "autoinstall": ("user-data", "autoinstall:\n  storage:\n    config:\n      - type: lvm_volgroup\n"
                                 "        id: vg0\n        name: pug\n        devices: [p3]\n"),
    # 05: items of secret and configuration stores, in every client
    "vault-tf": ("vault.tf", 'data "vault_generic_secret" "db" {\n  path = "secret/pug/db"\n}\n'),
    "vault-kv-v2-tf": ("kv.tf", 'data "vault_kv_secret_v2" "db" {\n  mount = "kv"\n  name  = "pug/db"\n}\n'),
    "hashi-vault-lookup": ("tasks/db.yml", "- set_fact:\n    db_pw: \"{{ lookup('community.hashi_vault.hashi_vault', "
                                           "'secret=secret/data/pug/db:password') }}\"\n"),
    "vault-kv-get": ("scripts/pw.sh", "#!/bin/sh\nvault kv get -field=password secret/pug/db\n"),
    "vault-read": ("scripts/pw2.sh", "#!/bin/sh\nvault read -format=json kv/data/pug/db\n"),
    "vault-agent": ("agent/db.ctmpl", '{{ with secret "secret/data/pug/db" }}{{ .Data.data.password }}{{ end }}\n'),
    "vault-annotation": ("k8s/deploy.yaml", "metadata:\n  annotations:\n    vault.hashicorp.com/agent-inject-secret-db: "
                                            "secret/data/pug/db\n"),
    "consul-template": ("agent/app.ctmpl", '{{ key "config/pug/port" }}\n'),
    "consul-kv": ("scripts/kv.sh", "#!/bin/sh\nconsul kv get config/pug/port\n"),
    "op-uri": (".env.tpl", "DB_PASSWORD=op://Homelab/pug/password\n"),
    "op-item-get": ("scripts/op.sh", "#!/bin/sh\nop item get pug --vault Homelab --fields password\n"),
    "onepassword-lookup": ("tasks/op.yml", "- debug:\n    msg: \"{{ lookup('community.general.onepassword', 'pug', "
                                           "field='password') }}\"\n"),
    "bw-get": ("scripts/bw.sh", "#!/bin/sh\nbw get password pug\n"),
    "pass-show": ("scripts/pass.sh", "#!/bin/sh\npass show infra/pug/root\n"),
    "passwordstore-lookup": ("tasks/pass.yml", "- debug:\n    msg: \"{{ lookup('community.general.passwordstore', "
                                               "'infra/pug/root') }}\"\n"),
    "ssm-cli": ("scripts/ssm.sh", "#!/bin/sh\naws ssm get-parameter --with-decryption --name /pug/db/password\n"),
    "ssm-tf": ("ssm.tf", 'data "aws_ssm_parameter" "db" {\n  name = "/pug/db/password"\n}\n'),
    "secretsmanager-cli": ("scripts/sm.sh", "#!/bin/sh\naws secretsmanager get-secret-value --secret-id pug/db\n"),
    "sops-extract": ("scripts/sops.sh", "#!/bin/sh\nsops -d --extract '[\"pug\"][\"password\"]' secrets.enc.yaml\n"),
    # 06: a scheduler's or hypervisor's object
    "nomad-job": ("nomad/web.nomad.hcl", 'job "pug" {\n  datacenters = ["dc1"]\n}\n'),
    "nomad-cli": ("scripts/nomad.sh", "#!/bin/sh\nnomad job stop -purge pug\n"),
    "vagrant-define": ("Vagrantfile", 'Vagrant.configure("2") do |c|\n  c.vm.define "pug" do |m|\n  end\nend\n'),
    "vagrant-symbol": ("vagrant/Vagrantfile", "Vagrant.configure(2) do |c|\n  c.vm.define :pug do |m|\n  end\nend\n"),
    "vagrant-cli": ("scripts/up.sh", "#!/bin/sh\nvagrant up pug --provision\n"),
    "libvirt-domain": ("libvirt/vm.xml", "<domain type='kvm'>\n  <name>pug</name>\n  <memory>1024</memory>\n</domain>\n"),
    "swarm-stack": ("scripts/deploy.sh", "#!/bin/sh\ndocker stack deploy -c stack.yml pug\n"),
}
# 04: GitLab-managed Terraform state, kept like an s3 key
TF_KEPT: dict[str, tuple[str, str]] = {
    "http-backend": ("tf/backend.tf", 'terraform {\n  backend "http" {\n    address = '
                     '"https://gitlab.ana.lan/api/v4/projects/7/terraform/state/pug"\n    lock_address = '
                     '"https://gitlab.ana.lan/api/v4/projects/7/terraform/state/pug/lock"\n  }\n}\n'),
    "http-backend-own-server": ("tf2/backend.tf", 'terraform {\n  backend "http" {\n    address = '
                                '"https://state.ana.lan/states/pug"\n  }\n}\n'),
    "gitlab-ci": (".gitlab-ci.yml", "variables:\n  TF_STATE_NAME: pug\n  TF_ADDRESS: "
                  "${CI_API_V4_URL}/projects/${CI_PROJECT_ID}/terraform/state/pug\n"),
    "backend-config-flag": ("scripts/init.sh", '#!/bin/sh\nterraform init -backend-config="address=https://'
                            'gitlab.ana.lan/api/v4/projects/7/terraform/state/pug"\n'),
    "tf-http-env": ("scripts/env.sh", "export TF_HTTP_ADDRESS=https://state.ana.lan/states/pug\n"),
}
# the same files' neighbours that are the host's own name: still rewritten
MOVES: dict[str, tuple[str, str, str]] = {
    "fstab-nfs": ("hosts/fstab3", "pug.ana.lan:/srv /mnt nfs defaults 0 0\n", "wolf.fv.lan:/srv /mnt nfs defaults 0 0\n"),
    "vagrant-hostname": ("Vagrantfile", '  m.vm.hostname = "pug"\n', '  m.vm.hostname = "wolf"\n'),
    "vault-addr": ("scripts/env.sh", "export VAULT_ADDR=https://pug.ana.lan:8200\n",
                   "export VAULT_ADDR=https://wolf.fv.lan:8200\n"),
    "nomad-constraint": ("nomad/web.nomad.hcl", 'job "web" {\n  constraint {\n    value = "pug"\n  }\n}\n',
                         'job "web" {\n  constraint {\n    value = "wolf"\n  }\n}\n'),
    "state-server": ("tf/backend.tf", 'terraform {\n  backend "http" {\n    address = "https://pug.ana.lan/states/web"\n'
                     '  }\n}\n', 'terraform {\n  backend "http" {\n    address = "https://wolf.fv.lan/states/web"\n'
                     '  }\n}\n'),
    "pass-prose-word": ("scripts/ok.sh", "#!/bin/sh\n# pass the host pug\nping pug\n", "#!/bin/sh\n# pass the host wolf\nping wolf\n"),
}


@pytest.mark.parametrize("case", sorted(HELD))
def test_another_tools_object_name_is_held(case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, content = HELD[case]
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    found = [f for f in json.loads(run(root, "verify", "--format", "json").stdout)["findings"] if f["path"] == path]
    assert found and all(f.get("reason") == "state-name" for f in found), found
    assert all("compose" not in f.get("note", "") for f in found), found  # its own advice, not another tool's
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / path).read_text() == content
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize("case", sorted(TF_KEPT))
def test_http_backend_state_name_is_kept(case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, content = TF_KEPT[case]
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    after = (root / path).read_text()
    assert after == content.replace("ana.lan", "fv.lan").replace("gitlab.fv.lan", "gitlab.ana.lan") \
        or after == content, after
    assert "/pug" in after or "TF_STATE_NAME: pug" in after
    audit = run(root, "audit")
    assert "terraform-state" in audit.stdout, audit.stdout
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("case", sorted(MOVES))
def test_the_hosts_own_name_still_moves(case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, text, after = MOVES[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / path).read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0
