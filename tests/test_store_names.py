"""store_names: which spans name another tool's own object (pure logic; the CLI: tests/cli/test_store_names.py)."""

from __future__ import annotations

import pytest

from renamer import state_names, store_names


def held(rel: str, text: str) -> list[str]:
    data = text.encode()
    return [data[s:e].decode() for s, e, _ in store_names.spans(rel, data)]


@pytest.mark.parametrize(("rel", "text", "span"), [
    ("fstab", "/dev/mapper/web01--vg-root / ext4 defaults 0 1\n", "/dev/mapper/web01--vg-root"),
    ("fstab", "/dev/web01-vg/swap_1 none swap sw 0 0\n", "/dev/web01-vg/swap_1"),
    ("grub", 'GRUB_CMDLINE_LINUX="rd.lvm.lv=web01-vg/root"\n', "rd.lvm.lv=web01-vg/root"),
    ("crypttab", "web01_crypt UUID=1 none luks\n", "web01_crypt"),
    ("mdadm.conf", "ARRAY /dev/md/0 metadata=1.2 name=web01:0\n", "web01:0"),
    ("ks.cfg", "logvol / --vgname=web01 --name=root\n", "web01"),
    ("t.sh", "vault kv get -field=password secret/web01/db\n", "secret/web01/db"),
    ("t.sh", "bw get password web01\n", "web01"),
    ("v.tf", 'data "vault_generic_secret" "db" { path = "secret/web01/db" }\n', "secret/web01/db"),
    ("t.sh", "vault read secret/web01/db\n", "secret/web01/db"),
    ("x.yaml", "vault.hashicorp.com/agent-inject-secret-db: secret/web01/db\n", "secret/web01/db"),
    ("x.yaml", "path: kv/data/web01/db\n", "kv/data/web01/db"),
    ("t.sh", "op item get web01 --vault Homelab --fields password\n", "web01"),
    ("t.sh", "aws secretsmanager get-secret-value --secret-id web01/db\n", "web01/db"),
    ("a.ctmpl", '{{ with secret "secret/data/web01/db" }}x{{ end }}\n', "secret/data/web01/db"),
    ("job.nomad.hcl", 'job "web01" {\n}\n', "web01"),
    ("Vagrantfile", 'config.vm.define "web01" do |m|\n', "web01"),
    ("d.sh", "docker stack deploy -c stack.yml web01\n", " web01"),
])
def test_the_name_is_spanned(rel: str, text: str, span: str) -> None:
    assert span in held(rel, text)


@pytest.mark.parametrize(("rel", "text"), [
    ("fstab", "/dev/sda1 / ext4 defaults 0 1\nUUID=1 /boot vfat defaults 0 2\n"),
    ("fstab", "web01.lab.example:/srv /mnt nfs defaults 0 0\n"),
    ("t.sh", "# pass the value on\nping web01\n"),
    ("t.sh", "export VAULT_ADDR=https://web01:8200\n"),
    ("job.nomad.hcl", 'job "web" {\n  constraint { value = "web01" }\n}\n'),
    ("Vagrantfile", '  m.vm.hostname = "web01"\n'),
    ("disk.sh", "ls /dev/disk/by-id/web01\n"),
    ("probe.sh", "exec 3<>/dev/tcp/web01/80\n"),  # bash's socket: a host
    ("site.yml", "- copy: {src: secrets/web01.key, dest: /etc/x}\n  vars: {pw: '{{ vault_pw }}'}\n"),
])
def test_the_hosts_own_name_is_not(rel: str, text: str) -> None:
    assert not any("web01" in s for s in held(rel, text)), held(rel, text)


def test_a_store_note_takes_its_own_hint_not_compose_advice() -> None:
    for _, _, note in store_names.spans("t.sh", b"bw get password web01\nvgchange -ay web01\n"):
        assert note.endswith(store_names.DONE)
        assert state_names.hint(note) == store_names.HINT
        assert "compose" not in note


@pytest.mark.parametrize(("rel", "text", "span"), [
    # t36-sweep finding 10: the given clients
    ("t.sh", "lpass show --password web01/root\n", "web01/root"),
    ("t.sh", "keepassxc-cli show -a Password infra.kdbx web01/root\n", "web01/root"),
    ("t.sh", "chamber exec web01 -- ./run\n", "web01"),
    ("t.sh", "chamber read web01 db_password\n", "web01"),
    ("t.sh", "doppler secrets get DB_PASSWORD --project web01 --plain\n", "web01"),
    ("t.sh", "infisical secrets get DB_PASSWORD --path /web01\n", "/web01"),
    ("t.sh", "secret-tool lookup service ssh host web01\n", "web01"),
    ("t.sh", "security find-generic-password -s web01 -w\n", "web01"),
    ("all.yml", "pw: \"{{ lookup('viczem.keepass.keepass', 'infra/web01', 'password') }}\"\n", "infra/web01"),
    # variants: other clients, `=` flags, other lookups by their plugin's name
    ("t.sh", "doppler run --project=web01 --config prd -- ./deploy.sh\n", "web01"),
    ("t.sh", "security find-internet-password -s web01.lab.example -a root -w\n", "web01.lab.example"),
    ("t.sh", "gcloud secrets versions access latest --secret=web01-db\n", "web01-db"),
    ("t.sh", "az keyvault secret show --vault-name kv --name web01-db\n", "web01-db"),
    ("t.sh", "keyring get web01 root\n", "web01"),
    ("t.sh", "akeyless get-secret-value --name /infra/web01/db\n", "/infra/web01/db"),
    ("t.sh", "conjur variable get -i infra/web01/db\n", "infra/web01/db"),
    ("all.yml", "x: \"{{ query('community.general.keyring', 'web01 root') }}\"\n", "web01 root"),
    ("all.yml", "x: \"{{ lookup('community.general.lastpass', 'web01/root', field='password') }}\"\n",
     "web01/root"),
    ("all.yml", "x: \"{{ lookup('cyberark.conjur.conjur_variable', 'infra/web01/db') }}\"\n", "infra/web01/db"),
    ("t.yml", "- community.hashi_vault.vault_kv2_get:\n    path: web01/db\n    engine_mount_point: kv\n",
     "web01/db"),
    ("t.yml", "- amazon.aws.aws_ssm_parameter_store:\n    name: /web01/db/password\n    value: x\n",
     "/web01/db/password"),
    ("t.yml", "- community.hashi_vault.vault_kv2_write: path=web01/db\n", "web01/db"),
])
def test_the_other_secret_clients_items_are_spanned(rel: str, text: str, span: str) -> None:
    assert span in held(rel, text), held(rel, text)


@pytest.mark.parametrize(("rel", "text"), [
    ("t.sh", "chamber exec app -- ./run --target web01\n"),  # the command after `--`
    ("t.sh", "infisical secrets get X --path /app --domain https://web01.lab.example/api\n"),  # its server
    ("t.sh", "keepassxc-cli show infra/web01.kdbx app/root\n"),  # a file of the repo
    ("t.sh", "doppler run --project app --command 'ssh web01 uptime'\n"),  # the command it runs
    ("all.yml", "pw: \"{{ lookup('ansible.builtin.password', 'creds/web01/root length=20') }}\"\n"),
    ("all.yml", "key: \"{{ lookup('ansible.builtin.unvault', 'files/web01.key.vault') }}\"\n"),
    ("all.yml", "pub: \"{{ lookup('file', 'keys/web01.pub') }}\"\n"),
    ("t.sh", "# the doppler project lives on web01\nping web01\n"),
    ("vars.yml", "bitwarden_config:\n  name: web01\n"),  # a variable named like a module, not a task
    ("t.yml", "- community.hashi_vault.vault_kv2_get:\n    path: app/db\n    url: https://web01:8200\n"),
])
def test_the_other_clients_hosts_and_files_are_not(rel: str, text: str) -> None:
    assert not any("web01" in s for s in held(rel, text)), held(rel, text)
