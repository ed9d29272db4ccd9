"""renamer init: scaffold renamer.yaml and an allowlist from where the old values occur.

Proposals, not verdicts: record classes get a reason to edit, and whatever
looks neither like current state nor like history is left unclassified (and
listed) so `verify` keeps pointing at it until someone decides. The use case:
the pairs given and the files written; the proposal is `scaffold_propose.py`'s,
the text `scaffold_render.py`'s.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from renamer import lazy_re
from renamer.allowlist_load import load_allowlists
from renamer.atomic import save
from renamer.config_load import load_config
from renamer.config_renames import pair_problem
from renamer.errors import ConfigError, UnsafeError
from renamer.scaffold_place import Proposal
from renamer.scaffold_propose import propose
from renamer.scaffold_render import render_allowlist, render_config

_MOVE_NAME = lazy_re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}\Z")


def parse_pairs(values: tuple[str, ...]) -> list[tuple[str, str]]:
    pairs = []
    for value in values:
        old, sep, new = value.partition("=")
        old, new = old.strip(), new.strip()
        if not sep or not old or not new:
            raise ConfigError(f"--from {value!r}: expected OLD=NEW, e.g. --from ana-ml2=fv-ml1")
        why = pair_problem(old, new)  # what renamer.yaml's renames would refuse, refused first
        if why:
            raise ConfigError(f"--from {value!r}: {why}; nothing written")
        pairs.append((old, new))
    if not pairs:
        raise ConfigError("init needs at least one --from OLD=NEW")
    return pairs


def write_scaffold(root: Path, pairs: list[tuple[str, str]], name: str | None, force: bool,
                   today: dt.date) -> tuple[Proposal, list[Path]]:
    if name is not None and not _MOVE_NAME.match(name):  # it names a file and goes into YAML
        raise ConfigError(f"--name {name!r}: a move name is letters, digits, '.', '_' and '-' "
                          "(it names allowlists/<name>.yaml)")
    slug = name or re.sub(r"[^a-z0-9-]+", "-", f"{pairs[0][1]}-move".lower()).strip("-")
    allowlist_rel = f"allowlists/{slug}.yaml"
    targets = [root / "renamer.yaml", root / allowlist_rel]
    existing = [p for p in targets if p.exists()]
    if existing and not force:
        raise UnsafeError(f"{existing[0]}: already exists; pass --force to overwrite")
    proposal = propose(root, pairs, "renamer.yaml", allowlist_rel)
    config_text = render_config(slug, pairs, allowlist_rel, today)
    allowlist_text = render_allowlist(proposal)
    folders = [f for f in (targets[1].parent,) if not f.exists()]
    save(targets[1], allowlist_text.encode(), make_folder=True)
    save(targets[0], config_text.encode())
    try:  # what init writes must load: fail here, not at the first sweep
        load_allowlists((targets[1],), str)
        load_config(targets[0], root)
    except ConfigError as exc:
        for path in targets:  # nothing half-written: never leave a scaffold the sweep refuses
            if path not in existing:
                path.unlink(missing_ok=True)
        for folder in folders:
            folder.rmdir()
        # the file the error names is gone: say it is what init would have written
        raise ConfigError(f"init would write a configuration that does not load ({exc}); nothing written",
                          lines=[f"init would write a configuration that does not load: {line}"
                                 for line in exc.lines] + ["nothing written"]) from None
    return proposal, targets
