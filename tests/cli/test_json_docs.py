"""docs/cli.md's JSON section names exactly the top-level fields each command prints."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.campaign import render as campaign_render
from renamer.campaign.results import CampaignApply, CampaignPlan, CampaignPush, CampaignStatus
from renamer.cli.json_docs import DOCUMENTS
from renamer.dns import queries
from renamer.dns.report import status_document, verify_json
from renamer.dns.run import plan_document
from renamer.documents import versioned
from renamer.report.machine import undo_data
from renamer.report.probe import document
from renamer.sweep.undo import UndoPlan
from tests.conftest import Result

FILES = {"runbook.md": "ssh ana-ml2\n"}
ARGV = {
    "renamer verify --format json": ["verify", "--format", "json"],
    "renamer verify --staged/--since --format json": ["verify", "--staged", "--format", "json"],
    "renamer audit --format json": ["audit", "--format", "json"],
    "renamer audit --prune --format json": ["audit", "--prune", "--format", "json"],
    "renamer sweep --format json": ["sweep", "--dry-run", "--format", "json"],
    "renamer explain --format json": ["explain", "runbook.md", "--format", "json"],
    "renamer log --format json": ["log", "--format", "json"],
}
BUILT = {  # the DNS, probe and campaign documents, from the functions that build them (no resolver asked)
    "renamer campaign plan --format json": lambda: campaign_render.plan_data(CampaignPlan("m", "renamer/m", ())),
    "renamer campaign apply --format json": lambda: campaign_render.apply_data(
        CampaignApply(CampaignPlan("m", "renamer/m", ()))),
    "renamer campaign push --format json": lambda: campaign_render.push_data(CampaignPush("m", None, ())),
    "renamer campaign status --format json": lambda: campaign_render.status_data(CampaignStatus("m", "renamer/m")),
    "renamer dns plan --format json": lambda: plan_document([]),
    "renamer dns verify --format json": lambda: json.loads(verify_json([])),
    "renamer probe --format json": lambda: document([], [], True),
    # `undo` needs a recorded move (tests/cli/test_undo.py prints each status); here, one not yet planned
    "renamer undo --format json": lambda: undo_data(UndoPlan("m", "0" * 40, None), dry_run=True, commit=None,
                                                    verified=None),
    "renamer dns who-asks --format json": lambda: versioned(queries.document(
        queries.WhoAsks(dt.datetime.now(dt.UTC), (), [], []))),
    "renamer dns status --format json": lambda: status_document([]),
}


def test_every_document_is_documented() -> None:
    assert set(DOCUMENTS) == set(ARGV) | set(BUILT)


@pytest.mark.parametrize("command", sorted(ARGV))
def test_the_fields_are_the_ones_printed(command: str, repo: Callable[..., Path],
                                         run: Callable[..., Result]) -> None:
    printed = json.loads(run(repo(FILES), *ARGV[command]).stdout)
    assert list(printed) == list(DOCUMENTS[command])


@pytest.mark.parametrize("command", sorted(BUILT))
def test_the_built_fields_are_documented(command: str) -> None:
    assert list(BUILT[command]()) == list(DOCUMENTS[command])
