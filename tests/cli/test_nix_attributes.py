"""A Nix attribute named by a host takes one fate in every spelling (break-it round 15, #2 and #6).

#2 (jmbaur/homelab `nixos-configurations/rhubarb/default.nix:94` against `network.nix:8`):
`custom.yggdrasil.peers.pug.allowedTCPPorts` stayed (a near-miss) while `pug.ip` inside
`custom.yggdrasil.peers = { ... }` was rewritten: peer `wolf` had the ip, peer `pug` only ports,
verify OK. #6 (`nixos-modules/server/network.nix`): the key `pug = 1;` of a set whose names are
built as `"${name}-${toString x}"` was rewritten while `interfaces.pug-0` stayed literal: the
lookup fails, and a hash of the name would move an address. No `nix` binary here: each file's
attribute paths are proved with renamer's own reader (`renamer/nix_attrs.py`), unit-tested below.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.nix_attrs import occurrences
from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG
from tests.testing.repos import git

NETWORK = '{\n  custom.yggdrasil.peers = {\n    pug.ip = "10.0.0.5";\n    rex.ip = "10.0.0.6";\n  };\n}\n'
REX = ("{\n  custom.yggdrasil.peers.pug.allowedTCPPorts = [ 8080 ];\n"
       "  custom.yggdrasil.peers.rex.allowAll = true;\n  services.foo.peers.\"pug\".enable = true;\n}\n")
GENERATED = ('{ lib }:\nlib.concatMapAttrs (name: n: lib.listToAttrs (lib.genList (x: {\n'
             '  name = "${name}-${toString x}";\n'
             '  value = builtins.hashString "sha256" "${name}-${toString x}";\n'
             '}) n)) {\n  pug = 1;\n  rex = 1;\n}\n')


def _findings(root: Path, run: Callable[..., Result]) -> list[tuple[str, int, str]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((str(f["path"]), int(f["line"]), str(f["reason"])) for f in found
                  if f["status"] == "residual")


def _sweep(root: Path, run: Callable[..., Result]) -> Result:
    return run(root, "sweep", "--commit")


def test_round15_an_attribute_path_through_the_word_follows_its_other_spellings(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"hosts/network.nix": NETWORK, "hosts/rex/default.nix": REX}, config=CONFIG, allowlist=ALLOW)
    result = _sweep(root, run)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "hosts/network.nix").read_text() == NETWORK.replace("pug.ip", "wolf.ip").replace(
        "10.0.0.5", "10.1.0.5")
    assert (root / "hosts/rex/default.nix").read_text() == REX.replace("peers.pug.", "peers.wolf.").replace(
        '"pug"', '"wolf"')
    # one peer `wolf` with its ip and its ports: read back by the same reader
    paths = {o.path for rel in ("hosts/network.nix", "hosts/rex/default.nix")
             for o in occurrences((root / rel).read_bytes(), ["wolf", "pug"])}
    assert paths == {("custom", "yggdrasil", "peers", "wolf"), ("services", "foo", "peers", "wolf")}
    verified = run(root, "verify")
    assert verified.exit_code == 0 and " 0 near-misses" in verified.stdout, verified.stdout + verified.stderr


VARIANTS = {
    # a let binding read by a select chain in its body
    "let": ({"m.nix": '{ ... }:\nlet\n  peers = { pug = { ip = "x"; }; };\nin {\n  a = peers.pug.ip;\n}\n'},
            {"m.nix": '{ ... }:\nlet\n  peers = { wolf = { ip = "x"; }; };\nin {\n  a = peers.wolf.ip;\n}\n'}),
    # `peers = { pug = {...}; }` in one file, `config.custom.peers.pug` read in an interpolation of another
    "across-files": ({"a.nix": '{\n  custom.peers = {\n    pug = { port = 1; };\n  };\n}\n',
                      "b.nix": '{ config, ... }: {\n  x = "${toString config.custom.peers.pug.port}";\n}\n'},
                     {"a.nix": '{\n  custom.peers = {\n    wolf = { port = 1; };\n  };\n}\n',
                      "b.nix": '{ config, ... }: {\n  x = "${toString config.custom.peers.wolf.port}";\n}\n'}),
    # quoted segments on both sides, and a set bound through a call (`lib.mkIf c {`)
    "quoted": ({"a.nix": '{ lib, ... }: {\n  custom.peers = lib.mkIf true {\n    "pug".ip = "x";\n  };\n}\n',
                "b.nix": "{\n  custom.peers.\"pug\".port = 1;\n  custom.peers.pug.open = true;\n}\n"},
               {"a.nix": '{ lib, ... }: {\n  custom.peers = lib.mkIf true {\n    "wolf".ip = "x";\n  };\n}\n',
                "b.nix": "{\n  custom.peers.\"wolf\".port = 1;\n  custom.peers.wolf.open = true;\n}\n"}),
    # `inherit (config.custom.peers) pug;` reads the attribute the other file defines
    "inherit": ({"a.nix": "{\n  custom.peers.pug.ip = \"x\";\n}\n",
                 "b.nix": "{ config, ... }:\nlet\n  inherit (config.custom.peers) pug;\nin {\n"
                          "  y = pug.ip;\n  custom.peers.pug.open = true;\n}\n"},
                {"a.nix": "{\n  custom.peers.wolf.ip = \"x\";\n}\n",
                 "b.nix": "{ config, ... }:\nlet\n  inherit (config.custom.peers) wolf;\nin {\n"
                          "  y = wolf.ip;\n  custom.peers.wolf.open = true;\n}\n"}),
    # the module's `config = lib.mkIf c { ... }` (jmbaur/homelab rhubarb/default.nix:94's shape)
    "config-set": ({"a.nix": '{\n  custom.peers = {\n    pug.ip = "x";\n  };\n}\n',
                    "b.nix": "{ lib, ... }: {\n  config = lib.mkIf true {\n    custom.peers.pug.open = true;\n  };\n}\n"},
                   {"a.nix": '{\n  custom.peers = {\n    wolf.ip = "x";\n  };\n}\n',
                    "b.nix": "{ lib, ... }: {\n  config = lib.mkIf true {\n    custom.peers.wolf.open = true;\n  };\n}\n"}),
    # a list of sets under one binding (`mkMerge [ { ... } ]`), and `with`
    "merge-with": ({"a.nix": "{ lib, ... }: {\n  custom.peers = lib.mkMerge [ { pug.ip = \"x\"; } ];\n}\n",
                    "b.nix": "{ config, ... }: {\n  custom.peers.pug.open = true;\n"
                             "  z = with config.custom.peers; pug.ip;\n}\n"},
                   {"a.nix": "{ lib, ... }: {\n  custom.peers = lib.mkMerge [ { wolf.ip = \"x\"; } ];\n}\n",
                    "b.nix": "{ config, ... }: {\n  custom.peers.wolf.open = true;\n"
                             "  z = with config.custom.peers; wolf.ip;\n}\n"}),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_round15_variants_follow_together(repo: Callable[..., Path], run: Callable[..., Result],
                                          name: str) -> None:
    before, after = VARIANTS[name]
    root = repo(before, config=CONFIG, allowlist=ALLOW)
    result = _sweep(root, run)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert {rel: (root / rel).read_text() for rel in after} == after
    verified = run(root, "verify")
    assert verified.exit_code == 0 and " 0 near-misses" in verified.stdout, verified.stdout + verified.stderr


def test_round15_a_kept_spelling_holds_the_whole_attribute(repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    files = {"a.nix": '{\n  custom.peers = {\n    pug.ip = "x";  # renamer: keep\n  };\n}\n',
             "b.nix": '{\n  custom.peers."pug".port = 1;\n  custom.peers.pug.open = true;\n}\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    result = _sweep(root, run)
    assert result.exit_code == 1, result.stdout + result.stderr
    assert {rel: (root / rel).read_text() for rel in files} == files  # no half written
    assert "kept at a.nix:3" in result.stdout + result.stderr
    assert _findings(root, run) == [("b.nix", 2, "key-reference"), ("b.nix", 3, "key-reference")]


def test_round15_a_record_s_spelling_holds_nothing(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    allow = 'version: 1\ncurrent: ["**"]\nrecords:\n  - {name: notes, paths: ["notes/**"], reason: history}\n'
    files = {"a.nix": '{\n  custom.peers = {\n    pug.ip = "x";\n  };\n}\n',
             "b.nix": "{\n  custom.peers.pug.open = true;\n}\n",
             "notes/2025-old.nix": "{\n  custom.peers.pug.open = false;\n}\n"}
    root = repo(files, config=CONFIG, allowlist=allow)
    result = _sweep(root, run)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "b.nix").read_text() == "{\n  custom.peers.wolf.open = true;\n}\n"
    assert (root / "notes/2025-old.nix").read_text() == files["notes/2025-old.nix"]
    assert _findings(root, run) == []


def test_round15_a_path_no_spelling_defines_is_a_residual(repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    files = {"a.nix": '{\n  custom.peers = {\n    pug.ip = "x";\n  };\n}\n',
             "b.nix": '{ config, ... }:\nlet\n  cfg = config.custom;\nin {\n  y = cfg.peers.pug.ip;\n}\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    result = _sweep(root, run)
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "which no spelling of the repo defines" in result.stdout + result.stderr
    assert {rel: (root / rel).read_text() for rel in files} == files  # its key is held back with it
    assert _findings(root, run) == [("a.nix", 3, "key-reference"), ("b.nix", 5, "key-reference")]
    # the key renamed by an earlier sweep: the reader still fails verify
    (root / "a.nix").write_text(files["a.nix"].replace("pug.ip", "wolf.ip"))
    git(root, "commit", "-qam", "by hand")
    assert _findings(root, run) == [("b.nix", 5, "key-reference")]


def test_round15_a_split_an_earlier_sweep_left_fails_verify(repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    root = repo({"hosts/network.nix": NETWORK.replace("pug.ip", "wolf.ip").replace("10.0.0.5", "10.1.0.5"),
                 "hosts/rex/default.nix":
                 REX.replace('"pug"', '"wolf"')}, config=CONFIG, allowlist=ALLOW)
    assert _findings(root, run) == [("hosts/rex/default.nix", 2, "key-reference")]
    assert "the attribute set is split" in run(root, "verify").stdout


def test_round15_a_key_whose_derived_literal_stands_is_a_residual(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    files = {"modules/network.nix": GENERATED,
             "hosts/rex/default.nix": '{ custom.server.interfaces.pug-0.matchConfig.Path = "pci"; }\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    result = _sweep(root, run)
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "modules/network.nix").read_text() == GENERATED  # the key stays: nothing hashed moves
    assert "custom.server.interfaces.pug-0 at hosts/rex/default.nix:1" in result.stdout + result.stderr
    assert _findings(root, run) == [("modules/network.nix", 6, "composed-name")]
    # quoted, and `"${name}-eth"`
    quoted = {"modules/network.nix": GENERATED.replace('"${name}-${toString x}"', '"${name}-eth"'),
              "hosts/rex/default.nix": '{ custom.server.interfaces."pug-eth".mtu = 9000; }\n'}
    git(root, "rm", "-q", "-r", "modules", "hosts")
    for rel, text in quoted.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "quoted")
    assert _findings(root, run) == [("modules/network.nix", 6, "composed-name")]


# Break-it round 16, finding 11: the same composition with an underscore, and a derived literal read
# outside the Nix files (a systemd-networkd match, a script).
ROUND16 = {
    "underscore-attribute": ({"modules/network.nix": GENERATED.replace("}-${toString x}", "}_${toString x}"),
                              "hosts/rex/default.nix": "{ custom.interfaces.pug_0.mtu = 9000; }\n"},
                             "custom.interfaces.pug_0 at hosts/rex/default.nix:1"),
    "networkd-file": ({"modules/network.nix": GENERATED, "hosts/rex/10-link.network": "[Match]\nName=pug-0\n"},
                      "`pug-0` at hosts/rex/10-link.network:2"),
    "script": ({"modules/network.nix": GENERATED, "bin/check.sh": "#!/bin/sh\nnetworkctl status pug-0\n"},
               "`pug-0` at bin/check.sh:2"),
    "underscore-in-a-unit": ({"modules/network.nix": GENERATED.replace("}-${toString x}", "}_${toString x}"),
                              "units/a.service": "[Unit]\nBindsTo=sys-subsystem-net-devices-pug_0.device\n"},
                             None),
}


@pytest.mark.parametrize("case", sorted(ROUND16))
def test_round16_a_key_whose_derived_name_stands_anywhere_is_a_residual(
        case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files, named = ROUND16[case]
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    if named is None:  # `...-pug_0.device`: inside a longer name, no derived name of its own
        assert _sweep(root, run).exit_code == 0
        return
    result = _sweep(root, run)
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "modules/network.nix").read_text() == files["modules/network.nix"]
    assert named in result.stdout + result.stderr
    assert ("modules/network.nix", 6, "composed-name") in _findings(root, run)


def test_round16_a_derived_name_only_in_a_record_holds_nothing(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    files = {"modules/network.nix": GENERATED, "notes/2024-05-01.md": "pug-0 flapped\n"}
    allow = ALLOW + "records:\n  - {name: notes, paths: ['notes/**'], reason: history}\n"
    root = repo(files, config=CONFIG, allowlist=allow)
    assert _sweep(root, run).exit_code == 0
    assert "wolf = 1;" in (root / "modules/network.nix").read_text()


NEGATIVES = {
    # a package path is no host's attribute
    "package": {"a.nix": '{\n  custom.peers = {\n    pug.ip = "x";\n  };\n}\n',
                "b.nix": "{ pkgs, ... }: {\n  environment.systemPackages = [ pkgs.python3Packages.pug ];\n}\n"},
    # no key `pug` in any Nix file: the word only in a YAML file
    "no-nix-key": {"a.yaml": "host: pug\n", "b.nix": "{ config, ... }: {\n  y = config.foo.pug.bar;\n}\n"},
    # `pug-exporter` with no name composed from a key with a dash
    "no-composition": {"a.nix": "{\n  pug = 1;\n}\n",
                       "b.nix": "{\n  services.pug-exporter.enable = true;\n}\n"},
}


@pytest.mark.parametrize("name", sorted(NEGATIVES))
def test_round15_no_attribute_group_leaves_the_plain_rules(repo: Callable[..., Path],
                                                           run: Callable[..., Result], name: str) -> None:
    root = repo(NEGATIVES[name], config=CONFIG, allowlist=ALLOW)
    result = _sweep(root, run)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert _findings(root, run) == []
    if name == "package":
        assert "python3Packages.pug" in (root / "b.nix").read_text()
        assert "wolf.ip" in (root / "a.nix").read_text()
    if name == "no-nix-key":
        assert "config.foo.pug.bar" in (root / "b.nix").read_text()
    if name == "no-composition":
        assert (root / "a.nix").read_text() == "{\n  wolf = 1;\n}\n"
        assert "pug-exporter" in (root / "b.nix").read_text()


def test_nix_reader_paths() -> None:
    text = (b'{ config, lib, ... }:\nlet\n  peers = { pug = { ip = "x"; }; };\nin {\n'
            b'  custom.a = lib.mkMerge [ { "pug".x = 1; } ];\n'
            b"  y = ''${config.custom.a.pug.x} # pug\n'';\n"
            b'  # custom.a.pug.z = 2;\n  s = "custom.a.pug";\n  d.pug-0.k = 1;\n}\n')
    found = [(text[o.start:o.end], o.path, o.binding, o.derived) for o in occurrences(text, ["pug"])]
    assert found == [(b"pug", ("peers", "pug"), True, False),
                     (b"pug", ("custom", "a", "pug"), True, False),
                     (b"pug", ("custom", "a", "pug"), False, False),
                     (b"pug", ("d", "pug-0"), True, True)]
