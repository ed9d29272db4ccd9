"""Regular expressions compiled when first used, not when their module is imported.

renamer's modules hold some 1,500 patterns at module level; compiling them all at import was
0.23 s of CPU in every run (0.50 s of a sweep's 0.52 s import, measured on 2 cores), most of
them for formats a given repo never holds. `compile` returns a stand-in that compiles on its
first use and then answers as the compiled pattern does: its methods are the compiled
pattern's own bound methods, kept on the stand-in, so a later call costs what a compiled
pattern's does.

Only a pattern used through its attributes may be one (`X.search(...)`, `X.pattern`): `re`'s
own functions (`re.search(X, ...)`) and `isinstance(X, re.Pattern)` take only a real pattern.
`pending()` lists every stand-in made so far; a test compiles them all, so a pattern that does
not compile still fails the suite, as it did at import.
"""

from __future__ import annotations

import re
from typing import Any, cast, overload

# The compiled pattern's attributes that a stand-in keeps once compiled.
_KEPT = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner",
         "flags", "groups", "groupindex")

_MADE: list[_Lazy] = []


class _Lazy:
    """A pattern compiled on first use; then its `_KEPT` attributes are the compiled one's."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only called for what the instance does not hold yet
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = self.compiled()
        return getattr(compiled, name)

    def compiled(self) -> re.Pattern[Any]:
        compiled = re.compile(self.pattern, self._flags)
        for attribute in _KEPT:
            setattr(self, attribute, getattr(compiled, attribute))
        return compiled

    # Equal and hashed as compiled patterns are: by pattern and flags.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Lazy) and (self.pattern, self._flags) == (other.pattern, other._flags)

    def __hash__(self) -> int:
        return hash((self.pattern, self._flags))

    def __reduce__(self) -> tuple[Any, tuple[str | bytes, int]]:
        return compile, (self.pattern, self._flags)

    def __repr__(self) -> str:
        return f"lazy_re.compile({self.pattern!r}, {self._flags!r})"


@overload
def compile(pattern: str, flags: int = 0) -> re.Pattern[str]: ...
@overload
def compile(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]: ...
def compile(pattern: str | bytes, flags: int = 0) -> re.Pattern[Any]:
    """re.compile(pattern, flags), done when the pattern is first used."""
    made = _Lazy(pattern, int(flags))
    _MADE.append(made)
    return cast("re.Pattern[Any]", made)


def pending() -> list[tuple[str | bytes, int]]:
    """Every pattern made through `compile` so far, as (pattern, flags)."""
    return [(made.pattern, made._flags) for made in _MADE]
