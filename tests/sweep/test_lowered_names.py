"""Lower-case literals of a mixed-case old name the repo lower-cases at run time (break-it round 25,
finding 15): the pure parts; the CLI behaviour is tests/cli/test_lowered_names.py."""

from __future__ import annotations

import pytest

from renamer.sweep import lowered_names

PAIRS = lowered_names.mixed([("NixOS-Server1", "NixOS-Store1"), ("pug", "wolf")])


def test_only_mixed_case_names_count() -> None:
    assert PAIRS == [("NixOS-Server1", "NixOS-Store1")]


@pytest.mark.parametrize(("data", "found"), [
    (b'"syncthing/nixos-server1/cert" = { };\n', [(11, 24)]),
    (b"nixos-server1:\r\n  key: x\r\n", [(0, 13)]),
    (b"certs/nixos-server1.pem\n", [(6, 19)]),
    (b"nixos-server10\n", []),  # another, longer name
    (b"my-nixos-server1\n", []),
    (b"NixOS-Server1\n", []),  # its own spelling: the exact rules' match
])
def test_spans(data: bytes, found: list[tuple[int, int]]) -> None:
    assert [(s, e) for s, e, _, _ in lowered_names.spans(data, PAIRS)] == found


def test_the_note_names_the_lowering_and_the_new_spelling() -> None:
    note = lowered_names.note("NixOS-Server1", "NixOS-Store1", ("a.nix", 3, "x = lib.toLower hostName;"))
    assert "a.nix:3" in note and "nixos-store1" in note and "toLower" in note
