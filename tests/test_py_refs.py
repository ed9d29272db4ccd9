"""Keys a Python program reads from a loaded document (break-it round 9, finding 3)."""

from __future__ import annotations

from renamer.key_refs import ANY
from renamer.py_refs import inline_loads, py_refs


def _read(data: bytes) -> list[tuple[tuple[str, ...], bytes]]:
    return [(r.path, data[r.start:r.end]) for r in py_refs(data, {"pug"})]


def test_a_load_read_at_once_or_through_a_variable_or_a_handle() -> None:
    shell = b'python3 -c "import yaml;print(yaml.safe_load(open(\\"inv.yaml\\"))[\\"hosts\\"][\\"pug\\"])"\n'
    assert _read(shell) == [(("<file:inv.yaml>", "hosts", "pug"), b"pug")]
    program = (b'with open("n.json") as f:\n    net = json.load(f)["net"]\nip = net["hosts"]["pug"]["ip"]\n'
               b'a = net["hosts"].get("pug")\nif "pug" in net["hosts"]:\n    pass\n')
    assert _read(program) == [(("<file:n.json>", "net", "hosts", "pug"), b"pug")] * 3
    assert inline_loads(program.decode()) == ["n.json"]


def test_a_document_no_path_names_and_what_is_no_load() -> None:
    assert _read(b'd = json.loads(sys.stdin.read())\nprint(d["hosts"]["pug"])\n') == [((ANY, "hosts", "pug"), b"pug")]
    assert _read(b'd = {"pug": 1}\nprint(d["pug"], os.environ["pug"])\nyaml.safe_load(x)\n') == []
    assert _read(b'x = yaml.safe_load(open("a.yml"))\nprint(x.pug, "pug")\n') == []
