"""What the SQL of one unit (a property, or a function, pattern or template checked on its
own) collects while its expressions are translated."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .values import Source

#: SQL keywords an alias made from an ASL name must not be.
_RESERVED = {"all", "and", "as", "asc", "by", "case", "desc", "do", "else", "end", "from", "group", "in", "is", "not"}
_RESERVED |= {"null", "on", "or", "order", "select", "table", "then", "to", "union", "user", "when", "where", "with"}


@dataclass
class Query:
    """The aliases taken, the LET constants as lateral joins, the catalog parameters read,
    what an experiment must have (catalog.REQUIREMENTS) and the rows each variable ranges
    over (by its alias)."""

    aliases: set[str] = field(default_factory=set)
    lets: list[str] = field(default_factory=list)
    params: dict = field(default_factory=dict)  # p_name -> {default, type, doc}
    requires: list[str] = field(default_factory=list)
    bound: dict[str, Source] = field(default_factory=dict)

    def alias(self, name: str) -> str:
        """A fresh alias made from ``name``."""
        base = re.sub(r"\W", "_", name.lower())
        base = base + "_" if base in _RESERVED else base
        alias, n = base, 1
        while alias in self.aliases:
            n += 1
            alias = f"{base}_{n}"
        self.aliases.add(alias)
        return alias

    def require(self, requirements) -> None:
        """Note what reading something needs of an experiment (a mapping's ``requires``)."""
        self.requires += [r for r in requirements or () if r not in self.requires]
