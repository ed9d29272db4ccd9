"""Case 95: secrets never reach verify, audit or SARIF output."""

from __future__ import annotations

from tests.adversarial.harness import Outcome, Scratch, case, no_crash, ok, require, require_none

# Each line holds the old host (so it is reported) and one secret in a form the report leaked.
SECRETS = {
    "app.env": ("DATABASE_URL=postgres://app:Xy/9+zQ7wRt@ana-ml2:5432/db\n"
                "REDIS_URL=redis://:p@ssK3yvNm@ana-ml2:6379\n", ["Xy/9+zQ7wRt", "p@ssK3yvNm"]),
    "labels.yaml": ("labels: {host: ana-ml2, password: Lq8vS3cTbx}\n", ["Lq8vS3cTbx"]),
    "tokens.json": ('{"host": "ana-ml2", "accessToken": "Wm4cT0kZ9p", "authToken": "Hy6tQ8rVnk"}\n',
                    ["Wm4cT0kZ9p", "Hy6tQ8rVnk"]),
    "compose.yaml": ("environment:\n  - PG_DSN=host=ana-ml2 user=app password=Pd5nS3cJqe\n", ["Pd5nS3cJqe"]),
    "run.sh": ("mysql -h ana-ml2 -pMz3rPw7Lsd\ncurl -u admin:Cu9lS3cPxa http://ana-ml2/\n"
               "curl -H 'Authorization: Bearer Bx2rT0kXvq' http://ana-ml2/\n",
               ["Mz3rPw7Lsd", "Cu9lS3cPxa", "Bx2rT0kXvq"]),
    ".netrc": ("machine ana-ml2 login app password Nt4rS3cYwe\n", ["Nt4rS3cYwe"]),
    ".pgpass": ("ana-ml2:5432:db:app:Pg7pS3cKzu\n", ["Pg7pS3cKzu"]),
}
REPORTS = [["verify"], ["verify", "--format", "json"], ["verify", "--format", "sarif"], ["audit"],
           ["audit", "--format", "json"], ["audit", "--format", "sarif"], ["audit", "--format", "markdown"]]


def _halves(secret: str) -> list[str]:
    """The secret and both its halves: a partly masked secret still leaks."""
    middle = len(secret) // 2
    return [secret, secret[:middle], secret[middle:]]


@case(95, "secrets", "masked")
def case_95(s: Scratch) -> Outcome:
    """verify/audit/sarif masking"""
    root = s.repo({rel: text for rel, (text, _) in SECRETS.items()})
    leaks: dict[str, list[str]] = {}
    for args in REPORTS:
        result = s.cli(root, *args)
        no_crash(result)
        require("ana-ml2" in result.stdout, f"{' '.join(args)} reports nothing")
        for rel, (_, secrets) in SECRETS.items():
            for secret in secrets:
                if any(part in result.output for part in _halves(secret)):
                    leaks.setdefault(f"{rel}: {secret}", []).append(" ".join(args))
    require_none([f"{where} (in {len(reports)} of {len(REPORTS)} reports: {', '.join(reports)})"
                  for where, reports in leaks.items()], "leaked")
    count = sum(len(secrets) for _, secrets in SECRETS.values())
    return ok(f"{count} secrets in {len(SECRETS)} files masked in all {len(REPORTS)} report formats")
