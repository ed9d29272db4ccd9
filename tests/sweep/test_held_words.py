"""The readers of sweep/held_words.py; the behaviour end to end is in tests/cli/test_held_words.py."""

from __future__ import annotations

import pytest

from renamer.sweep.held_words import (
    Entry,
    entries,
    fits,
    folder_readings,
    names_inventory_host,
    nix_binding,
    readers,
    reads_host_vars,
    split_directory,
)


@pytest.mark.parametrize(("line", "expected"), [
    (b"tar -C hosts pug", ("hosts", False)),
    (b"tar -C hosts -czf x.tgz pug", ("hosts", False)),
    (b"tar --directory=hosts -czf x.tgz pug", ("hosts", False)),
    (b"make -C 'hosts' pug", ("hosts", False)),
    (b"cd hosts && tar c pug", ("hosts", False)),
    (b"cd hosts; tar c pug", ("hosts", False)),
    (b"find hosts -name pug", ("hosts", True)),
    (b"find ./hosts -type d -iname 'pug", ("./hosts", True)),
    # none: no directory argument, or one for another command of the line
    (b"ssh pug", None),
    (b"tar -C hosts -cf x.tar rex; ssh pug", None),
    (b"tar -C hosts", None),  # the directory itself
    (b"cd hosts && ssh pug", None),  # a host's command: its operand is a host
    (b"ssh -C pug", None),
    (b"cd hosts && sudo ping -c1 pug", None),
])
def test_a_words_directory_argument(line: bytes, expected: tuple[str, bool] | None) -> None:
    word = line.rindex(b"pug") if b"pug" in line else len(line)
    assert split_directory(line + b"\n", word) == expected


def test_the_readers_of_a_folder() -> None:
    data = (b"allHosts = attrNames (readDir ./.);\nx = os.listdir(\"hosts\")\nfor d in certs/*; do :; done\n"
            b"m = ./${host}\nf = f\"host_vars/{host}-qemu.yml\"\ng = \"hosts/%s/app.conf\"\n"
            b"h = \"hosts/{}/\".format(x)\nrsync -a hosts/$$h/ x\n")
    found = {(r.folder, r.prefix, r.suffix, r.lists) for r in readers(data)}
    assert found == {("./.", "", "", True), ("hosts", "", "", True), ("certs", "", "", True),
                     (".", "", "", False), ("host_vars", "", "-qemu.yml", False), ("hosts", "", "", False)}
    # none: a brace set, a C comment, no folder before the variable
    assert readers(b"cp hosts/{pug,rex}/a /x\n/* note */ x\necho $HOST\n") == []


def test_entries_and_what_fits_them() -> None:
    held = entries([("hosts/pug/app.conf", frozenset({"pug"})), ("host_vars/pug-qemu.yml", frozenset({"pug"})),
                    ("/mnt/pug", frozenset({"pug"}))])
    assert held == {"pug": [Entry("hosts/pug", "hosts", "pug"),
                            Entry("host_vars/pug-qemu.yml", "host_vars", "pug-qemu.yml")]}
    assert fits(Entry("host_vars/pug.yml", "host_vars", "pug.yml"), "pug")  # a file's stem
    assert fits(Entry("host_vars/pug-qemu.yml", "host_vars", "pug-qemu.yml"), "pug", suffix="-qemu.yml")
    assert not fits(Entry("host_vars/pug-qemu.yml", "host_vars", "pug-qemu.yml"), "pug")
    assert not fits(Entry("hosts/pugs", "hosts", "pugs"), "pug")


def test_folder_readings_and_nix_bindings() -> None:
    assert folder_readings("hosts/default.nix", "./.") == ["hosts"]
    assert folder_readings("nix/flake.nix", "../hosts") == ["hosts"]
    assert folder_readings("hosts/check.sh", "./") == ["hosts", ""]
    assert folder_readings("a.sh", "hosts") == ["hosts"]
    data = b"{ nixosConfigurations = { pug = mk { modules = [ ./hosts/pug ]; }; rex = mk ./hosts/rex; }; }\n"
    at = data.index(b"pug")
    assert nix_binding(data, at, at + 3) == b" mk { modules = [ ./hosts/pug ]; }"
    assert nix_binding(b"x = [ \"pug\" ];", 7, 10) is None


def test_the_host_vars_an_inventory_reads() -> None:
    assert reads_host_vars("hosts.ini", "host_vars")
    assert reads_host_vars("inventory/prod/hosts.yml", "inventory/prod/host_vars")
    assert reads_host_vars("inventory/prod/hosts.yml", "host_vars")  # beside the playbooks
    assert not reads_host_vars("hosts.ini", "backups/host_vars")  # a copy
    assert not reads_host_vars("inventory/hosts.yml", "other/host_vars")
    assert names_inventory_host("inventory/hosts.yml", b"pug:\n", 0) is not None
    assert names_inventory_host("inventory/group_vars/all.yml", b"s: pug\n", 3) is None
    assert names_inventory_host("site.yml", b"when: inventory_hostname == 'pug'\n", 29) is not None
    assert names_inventory_host("site.yml", b"msg: pug\n", 5) is None
