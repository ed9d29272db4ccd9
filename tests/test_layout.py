"""The house rules of docs/architecture.md, checked on the source: layers, cycles (between modules
and between folders), deferred imports, every module named in the docs, no preset restated by hand."""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from renamer.allowlist_load import load_allowlists
from renamer.cli import COMMANDS, cli
from renamer.scaffold_place import Proposal
from renamer.scaffold_render import render_allowlist
from renamer.shipped import shipped

PACKAGE = Path(__file__).resolve().parent.parent / "renamer"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# renamer/dns/playbook/ is data: the Ansible playbook and its callback plugin, run by Ansible.
MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))
           if PACKAGE / "dns" / "playbook" not in p.parents}


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports(path: Path, *, top_level: bool) -> set[str]:
    """Modules imported at module level (TYPE_CHECKING blocks aside), or inside functions."""
    return set(_imports_once(path, top_level))


@functools.cache  # each module parsed once per process, not once per test that asks (12 x 2 x ~200 files)
def _imports_once(path: Path, top_level: bool) -> frozenset[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                continue
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import | ast.ImportFrom) and in_function != top_level:
                if isinstance(child, ast.Import):
                    found.update(alias.name for alias in child.names)
                elif child.module:
                    submodules = {f"{child.module}.{a.name}" for a in child.names} & MODULES.keys()
                    found.update(submodules or {child.module})
            visit(child, nested)

    visit(tree, False)
    return frozenset(found)


@functools.cache  # built when a test first asks, not at import: every xdist worker collects this module
def _graph() -> dict[str, set[str]]:
    """Each module's module-level imports of renamer's own modules."""
    return {name: {m for m in _imports(path, top_level=True) if m in MODULES} for name, path in MODULES.items()}


def _cycle(graph: dict[str, set[str]] | None = None) -> list[str] | None:
    graph = _graph() if graph is None else graph
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                return [*stack[stack.index(target):], target]
            if target not in state and (found := walk(target)):
                return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (found := walk(name)):
            return found
    return None


def test_no_import_cycle() -> None:
    assert _cycle() is None


# A folder is a package directory at the top of renamer/ (its __init__.py and its sub-packages,
# such as a backend's dns/dnsmasq/, included); each top-level module, renamer/__init__.py too, is
# a node of its own (docs/architecture.md, "The folder rule").
def _folder(name: str) -> str:
    path = MODULES[name]
    if path.parent == PACKAGE:
        return name
    top = path.relative_to(PACKAGE).parts[0]
    return f"renamer.{top}"


@functools.cache
def _folders() -> dict[str, set[str]]:
    folders: dict[str, set[str]] = {}
    for name, targets in _graph().items():
        folders.setdefault(_folder(name), set()).update(_folder(t) for t in targets)
    for name, targets in folders.items():
        targets.discard(name)
    return folders


def test_no_cycle_between_folders() -> None:
    assert _cycle(_folders()) is None


def test_the_folder_graph_is_the_one_the_docs_draw() -> None:
    """The arrows docs/architecture.md draws between the wings are the ones the imports make."""
    wings = ("renamer.sweep", "renamer.dns", "renamer.probe", "renamer.report")
    edges = {(a, b) for a, targets in _folders().items() for b in targets if a in wings and b in wings}
    assert edges == {("renamer.probe", "renamer.sweep"), ("renamer.probe", "renamer.dns"),
                     ("renamer.report", "renamer.sweep"), ("renamer.report", "renamer.probe")}


def test_every_module_imports_in_a_fresh_interpreter() -> None:
    names = sorted(set(MODULES) - {"renamer.__main__"})  # that one runs the CLI
    code = f"import importlib\nfor name in {names!r}:\n    importlib.import_module(name)\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# Who may import whom: a module may import only from its own layer or the layers below.
def _layer(name: str) -> int:
    if name.startswith("renamer.cli") or name == "renamer.__main__":
        return 4
    if name == "renamer.api":
        return 3
    if name in ("renamer.sweep.run", "renamer.dns.run", "renamer.probe.run", "renamer.scaffold",
                "renamer.campaign.run"):
        return 2
    if name.startswith("renamer.report"):
        return 1
    return 0


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down(name: str) -> None:
    upward = sorted(t for t in _graph()[name] if _layer(t) > _layer(name))
    assert upward == []


@pytest.mark.parametrize(("library", "allowed"), [
    pytest.param("git", {"renamer.vcs"}, id="gitpython"),
    pytest.param("dns", {"renamer.dns.query"}, id="dnspython"),
    pytest.param("libcst", {"renamer.formats.python_cst"}, id="libcst"),
    pytest.param("ruamel", {"renamer.formats.yaml_source", "renamer.formats.yaml_rt", "renamer.formats.yaml_edit"},
                 id="ruamel"),
    pytest.param("click", {n for n in MODULES if n.startswith("renamer.cli")}, id="click"),
    pytest.param("click_man", {"renamer.cli.manpages"}, id="click-man"),
    pytest.param("pathspec", {"renamer.classify", "renamer.ignore"}, id="pathspec"),
    pytest.param("multiprocessing", {"renamer.forked"}, id="fork-pool"),
    pytest.param("ansible", {"renamer.dns.ansible_inventory"}, id="ansible"),
    pytest.param("hyperscan", {"renamer.native"}, id="hyperscan"),
    pytest.param("hcl2", {"renamer.formats.hcl"}, id="python-hcl2"),
    pytest.param("lark", {"renamer.formats.hcl"}, id="lark"),
])
def test_third_party_libraries_have_one_home(library: str, allowed: set[str]) -> None:
    users = {name for name, path in MODULES.items()
             if any(m == library or m.startswith(library + ".")
                    for m in _imports(path, top_level=True) | _imports(path, top_level=False))}
    assert users <= allowed


def test_the_sweep_and_the_dns_wing_do_not_import_each_other() -> None:
    for name, targets in _graph().items():
        if name.startswith("renamer.sweep"):
            assert not any(t.startswith("renamer.dns") for t in targets), name
        if name.startswith("renamer.dns"):
            assert not any(t.startswith("renamer.sweep") for t in targets), name


def _reach(name: str) -> set[str]:
    """Every module `name` imports, directly or through others (module level)."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        for target in _graph()[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def test_neither_wing_reaches_the_other_through_a_module_in_between() -> None:
    for name in _graph():
        if name.startswith("renamer.sweep"):
            assert not any(t.startswith("renamer.dns") for t in _reach(name)), name
        if name.startswith("renamer.dns"):
            assert not any(t.startswith("renamer.sweep") for t in _reach(name)), name


# The deferred imports docs/architecture.md lists, each with its measured reason.
DEFERRED = {
    "renamer": {"renamer.api", "renamer.about", "renamer.errors"},  # nothing before entry.py (t38 16)
    "renamer.vcs": {"git"},
    "renamer.formats.python_cst": {"libcst", "libcst.metadata"},
    "renamer.formats.hcl": {"hcl2", "lark"},
    "renamer.cli.dns": {"renamer.report.machine"},
    "renamer.kube_identities": {"renamer.kube_json"},  # a cycle, not a cost (architecture.md)
    "renamer.entry": {"renamer.cli"},  # a stop during the import is answered (architecture.md)
    "renamer.dns.ansible_inventory": {"ansible.inventory.manager", "ansible.parsing.dataloader",
                                      "ansible.vars.manager"},
}


def test_imports_are_at_module_top_except_the_documented_ones() -> None:
    deferred = {name: _imports(path, top_level=False) for name, path in MODULES.items()}
    assert {name: found for name, found in deferred.items() if found} == DEFERRED


def test_a_dns_command_loads_no_sweep_report() -> None:
    """`renamer dns ...` reads an inventory and asks resolvers: the sweep's report types
    (report.machine, ~150 ms) are loaded only for `dns plan --format json`."""
    code = "import sys\nimport renamer.cli.dns\nprint('renamer.report.machine' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_help_loads_no_command() -> None:
    code = ("import sys\nimport renamer.cli\n"
            "print(sorted(m for m in sys.modules if m.startswith(('renamer.', 'ruamel', 'git', 'dns', "
            "'libcst', 'pathspec'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == str(["renamer.cli", "renamer.cli.boundary", "renamer.cli.options",
                                       "renamer.cli.output", "renamer.debug", "renamer.errors",
                                       # SIGTERM as Ctrl-C for every command (stdlib only; round 22, #24)
                                       "renamer.interrupts",
                                       "renamer.lazy_re",  # patterns compiled on first use (stdlib only)
                                       "renamer.printable",  # the sanitiser of every line printed
                                       "renamer.vcs_command"])  # git's folder, asked once a command


def test_command_table_matches_each_command() -> None:
    ctx = click.Context(cli)
    for name, (_, _, short) in COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None and command.name == name
        assert (command.help or "").strip().splitlines()[0] == short


def test_nothing_below_the_cli_imports_the_campaign() -> None:
    """campaign/ is a use case over many repos, beside sweep/run.py: the sweep, the DNS wing, the
    probe, report/ and the API never reach it (docs/architecture.md)."""
    for name in _graph():
        if not name.startswith(("renamer.campaign", "renamer.cli")) and name != "renamer.__main__":
            assert not any(t.startswith("renamer.campaign") for t in _reach(name)), name


def test_neither_wing_imports_the_probe() -> None:
    for name, targets in _graph().items():
        if name.startswith(("renamer.sweep", "renamer.dns")):
            assert not any(t.startswith("renamer.probe") for t in targets), name


ROOT = PACKAGE.parent
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text()


def _named(rel: str) -> bool:
    """As docs/architecture.md says ("How a module is named here")."""
    text = ARCHITECTURE
    if f"`{rel}`" in text or f"**{rel}**" in text or f"`renamer/{rel}`" in text:
        return True
    if "/" not in rel:
        return False
    folder, file = rel.rsplit("/", 1)
    if file == "__init__.py":
        return f"`{folder}/`" in text or f"**{folder}/**" in text
    chunks = re.split(r"\n(?=\*\*|#)", text)  # paragraphs and tables under a bold or # heading
    parts = rel.split("/")
    for cut in range(1, len(parts)):  # `scan.py` under sweep/, `dnsmasq/render.py` under dns/
        folder, rest = "/".join(parts[:cut]), "/".join(parts[cut:])
        if any(f"`{rest}`" in chunk and (f"`{folder}/" in chunk or f"**{folder}/**" in chunk)
               for chunk in chunks):
            return True
    return False


@pytest.mark.parametrize("rel", sorted(p.relative_to(PACKAGE).as_posix() for p in MODULES.values()))
def test_every_module_is_named_in_the_architecture_page(rel: str) -> None:
    assert _named(rel), f"renamer/{rel} is not in docs/architecture.md"


PRESET = load_allowlists((shipped("allowlists") / "records-common.yaml",), str)


def _preset_section() -> str:
    """docs/configuration.md's "### records-common", as the loaded preset says it."""
    def code(items: tuple[str, ...]) -> str:
        return ", ".join(f"`{item}`" for item in items)

    lines = ["### records-common", "",
             "The shipped preset `allowlists/records-common.yaml`, as it loads (tests/test_layout.py",
             "compares this list with it). Record classes:", ""]
    lines += [f"- `{record.name}` ({record.reason}): {code(record.patterns)}" for record in PRESET.records]
    lines += ["", f"Dated file names: {'yes' if PRESET.dated_filenames else 'no'}. Dated sections: "
              f"{code(tuple(p.pattern for p in PRESET.sections))}.", "",
              f"Excluded: {code(PRESET.exclude)}.", "", ""]
    return "\n".join(lines)


def test_the_preset_is_not_restated_by_hand_in_the_docs() -> None:
    text = (ROOT / "docs" / "configuration.md").read_text()
    start = text.index("### records-common")
    section = text[start:text.index("\n## ", start) + 1]
    assert section == _preset_section(), f"docs/configuration.md is stale; write:\n{_preset_section()}"


def test_init_names_the_preset_s_record_classes() -> None:
    """`renamer init`'s `extends: [records-common]   # ...` comment lists every record class of the
    preset, in order (a name or its plural)."""
    line = next(line for line in render_allowlist(Proposal([])).splitlines() if line.startswith("extends:"))
    said = [word.strip() for word in line.split("#", 1)[1].split(",")]
    names = [record.name for record in PRESET.records]
    assert len(said) == len(names) and all(w in (n, n + "s") for w, n in zip(said, names, strict=True)), line
