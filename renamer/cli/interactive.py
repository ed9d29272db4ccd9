"""The prompts of `renamer sweep --interactive`, like `git add -p`: one line at a time."""

from __future__ import annotations

import click

from renamer.cli.output import Output
from renamer.masking import mask_line
from renamer.sweep.interactive import Choices, Hunk, marker_problem
from renamer.words import plural

HELP = """\
y - rewrite this line
n - not now: leave it as it is; it stays a residual, which verify reports
k - keep it for good: asks why, and writes a keep rule into the allowlist
K - keep it for good with the inline marker, in a comment on the line itself (asks why)
s - not now, for this line and the rest of this file
q - quit: keep the answers given so far (as git add -p does), leave the rest for later
? - this help
"""
RENAME_HELP = """\
y - rename the file
n - not now: the file keeps its name (its lines are asked next)
s - not now, for this file and every line of it
q - quit: keep the answers given so far, leave the rest for later
? - this help
"""


class Asker:
    """Asks for each hunk on the terminal; the answers become Choices (None: quit)."""

    def __init__(self, out: Output, marker: str, can_keep: str | None) -> None:
        self.out = out
        self.marker = marker
        self.can_keep = can_keep  # why `k` cannot write a keep rule (no allowlist file), or None

    def __call__(self, hunks: list[Hunk], read: dict[str, bytes]) -> Choices | None:
        choices = Choices()
        skipped: str | None = None
        for number, hunk in enumerate(hunks, 1):
            if hunk.path == skipped:
                continue
            self._show(hunk, number, len(hunks))
            answer = self._answer(hunk, read, choices)
            if answer == "q":
                given = len(choices.accepted) + len(choices.kept) + len(choices.marked)
                if not given:
                    self.out.info("quit: nothing written")
                    return None
                self.out.info(f"quit: keeping the {plural(given, 'answer')} given; "
                              "the other lines are left for later")
                return choices
            if answer == "s":
                skipped = hunk.path
        return choices

    def _show(self, hunk: Hunk, number: int, total: int) -> None:
        out = self.out
        if hunk.is_rename:
            out.echo(f"\n({number}/{total}) {hunk.path}: rename to {hunk.new_path}\n")
            return
        old = hunk.before.decode("utf-8", "replace")
        new = hunk.after.decode("utf-8", "replace")
        diff = f"-{mask_line(old)}\n+{mask_line(new)}\n".encode()
        out.echo(f"\n({number}/{total}) {hunk.path}:{hunk.line}\n")
        out.write_bytes(out.color_diff(diff))

    def _answer(self, hunk: Hunk, read: dict[str, bytes], choices: Choices) -> str:
        options = "y,n,s,q,?" if hunk.is_rename else "y,n,k,K,s,q,?"
        key = (hunk.path, hunk.line)
        while True:
            question = "Rename this file" if hunk.is_rename else "Rewrite this line"
            answer = click.prompt(f"{question} [{options}]", default="", show_default=False,
                                  prompt_suffix="? ", err=True).strip()
            if answer == "y":
                choices.accepted.add(key)
                return answer
            if answer in ("n", "s", "q"):
                return answer
            if answer == "k" and not hunk.is_rename:
                if self.can_keep is not None:
                    self.out.info(self.can_keep)
                    continue
                choices.kept[key] = self._reason()
                return answer
            if answer == "K" and not hunk.is_rename:
                data = read[hunk.path]
                problem = marker_problem(hunk.path, data, hunk.line, self.marker)  # before asking why
                reason = self._reason() if problem is None else ""
                problem = problem or marker_problem(hunk.path, data, hunk.line, f"{self.marker}: {reason}")
                if problem is not None:
                    self.out.info(problem)
                    continue
                choices.marked[key] = reason
                return answer
            self.out.info((RENAME_HELP if hunk.is_rename else HELP).rstrip("\n"))

    def _reason(self) -> str:
        while True:
            reason = click.prompt("Why must the old name stay (the reason goes into the allowlist)",
                                  default="", show_default=False, prompt_suffix=": ", err=True).strip()
            if reason:
                return " ".join(reason.split())
            self.out.info("a reason is required: every exemption says why the old name stays")
