"""The compiled SQL's forms for Spark, which resolves an outer column one query out only:
where a property is read at each row of a quantifier's set, Spark's form joins its row to
the set's (a subquery would nest in the one over the set; DuckDB joins no outer column)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .values import Source


def on_spark(spark: str, other: str) -> str:
    """SQL that is ``spark`` where the catalog renders for Spark, else ``other``."""
    return "{% if engine == 'spark' %}" + spark + ("{% else %}" + other if other else "") + "{% endif %}"


def joined_part(ranging: Source, table: str, alias: str, where: list[str], part: str, sql: str) -> str:
    """``part`` of the row of ``{ref:table} as alias`` that ``where`` selects, read at each row
    of ``ranging``: on Spark that row joined to the set's (one join per row of a property:
    another part reads the join already there), elsewhere ``sql``."""
    on = " and ".join(where)
    pattern = re.escape(on).replace(re.escape(f"{alias}."), r"\1\.")
    joined = re.compile(rf"left join \{{ref:{re.escape(table)}\}} as (\w+) on {pattern}$")
    found = next((m for m in map(joined.match, ranging.joins) if m), None)  # another part's row
    if found is None:
        ranging.joins.append(f"left join {{ref:{table}}} as {alias} on {on}")
    return on_spark(f"{found.group(1) if found else alias}.{part}", sql)
