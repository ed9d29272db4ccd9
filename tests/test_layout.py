"""The house rules of docs/architecture.md, checked on the source: layers, cycles, deferred imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import click
import pytest

from renamer.cli import COMMANDS, cli

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
    return found


GRAPH = {name: {m for m in _imports(path, top_level=True) if m in MODULES} for name, path in MODULES.items()}


def _cycle() -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for target in sorted(GRAPH[name]):
            if state.get(target) == 1:
                return [*stack[stack.index(target):], target]
            if target not in state and (found := walk(target)):
                return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(GRAPH):
        if name not in state and (found := walk(name)):
            return found
    return None


def test_no_import_cycle() -> None:
    assert _cycle() is None


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
    if name in ("renamer.sweep.run", "renamer.dns.run", "renamer.probe.run", "renamer.scaffold"):
        return 2
    if name.startswith("renamer.report"):
        return 1
    return 0


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_imports_point_down(name: str) -> None:
    upward = sorted(t for t in GRAPH[name] if _layer(t) > _layer(name))
    assert upward == []


@pytest.mark.parametrize(("library", "allowed"), [
    pytest.param("git", {"renamer.vcs"}, id="gitpython"),
    pytest.param("dns", {"renamer.dns.query"}, id="dnspython"),
    pytest.param("libcst", {"renamer.formats.python_cst"}, id="libcst"),
    pytest.param("ruamel", {"renamer.formats.yaml_source", "renamer.formats.yaml_rt", "renamer.formats.yaml_edit"},
                 id="ruamel"),
    pytest.param("click", {n for n in MODULES if n.startswith("renamer.cli")}, id="click"),
    pytest.param("pathspec", {"renamer.classify", "renamer.ignore"}, id="pathspec"),
    pytest.param("multiprocessing", {"renamer.forked"}, id="fork-pool"),
    pytest.param("ansible", {"renamer.dns.ansible_inventory"}, id="ansible"),
])
def test_third_party_libraries_have_one_home(library: str, allowed: set[str]) -> None:
    users = {name for name, path in MODULES.items()
             if any(m == library or m.startswith(library + ".")
                    for m in _imports(path, top_level=True) | _imports(path, top_level=False))}
    assert users <= allowed


def test_the_sweep_and_the_dns_wing_do_not_import_each_other() -> None:
    for name, targets in GRAPH.items():
        if name.startswith("renamer.sweep"):
            assert not any(t.startswith("renamer.dns") for t in targets), name
        if name.startswith("renamer.dns"):
            assert not any(t.startswith("renamer.sweep") for t in targets), name


# The deferred imports docs/architecture.md lists, each with its measured reason.
DEFERRED = {
    "renamer": {"renamer.api"},
    "renamer.vcs": {"git"},
    "renamer.formats.python_cst": {"libcst", "libcst.metadata"},
    "renamer.dns.ansible_inventory": {"ansible.inventory.manager", "ansible.parsing.dataloader",
                                      "ansible.vars.manager"},
}


def test_imports_are_at_module_top_except_the_documented_ones() -> None:
    deferred = {name: _imports(path, top_level=False) for name, path in MODULES.items()}
    assert {name: found for name, found in deferred.items() if found} == DEFERRED


def test_every_dns_module_is_named_in_the_architecture() -> None:
    text = (PACKAGE.parent / "docs" / "architecture.md").read_text()
    folder = PACKAGE / "dns"
    missing = [str(p.relative_to(folder)) for p in sorted(folder.rglob("*.py"))
               if p.name != "__init__.py" and folder / "playbook" not in p.parents
               and f"`{p.relative_to(folder)}`" not in text]
    assert missing == []


def test_help_loads_no_command() -> None:
    code = ("import sys\nimport renamer.cli\n"
            "print(sorted(m for m in sys.modules if m.startswith(('renamer.', 'ruamel', 'git', 'dns', "
            "'libcst', 'pathspec'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == str(["renamer.cli", "renamer.cli.boundary", "renamer.cli.options",
                                       "renamer.cli.output", "renamer.debug", "renamer.errors"])


def test_command_table_matches_each_command() -> None:
    ctx = click.Context(cli)
    for name, (_, _, short) in COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None and command.name == name
        assert (command.help or "").strip().splitlines()[0] == short


def test_neither_wing_imports_the_probe() -> None:
    for name, targets in GRAPH.items():
        if name.startswith(("renamer.sweep", "renamer.dns")):
            assert not any(t.startswith("renamer.probe") for t in targets), name
