"""Render the SQL files of ``sql/`` and create them as views in dependency order.

Each file ``sql/<name>.sql`` defines one object called ``<name>``: a SELECT
(created as a view) or, when the file starts with ``-- macro:``, the body of a
``CREATE MACRO`` statement. Files name the objects they use as
``{{ ref('name') }}``; the references form the dependency graph, so objects
are created parents first and a missing or cyclic reference is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources

import duckdb
import jinja2

_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


@dataclass
class SqlObject:
    name: str
    source: str
    kind: str  # "view" or "macro"
    refs: list[str] = field(default_factory=list)
    sql: str = ""


def _render(obj: SqlObject, known: set[str]) -> None:
    def ref(name: str) -> str:
        if name not in known:
            raise ValueError(f"sql/{obj.name}.sql: ref('{name}') names no table or view")
        if name not in obj.refs:
            obj.refs.append(name)
        return name

    obj.sql = _ENV.from_string(obj.source).render(ref=ref)


def load_objects(package: str = "cosydb.sql") -> dict[str, SqlObject]:
    """All SQL objects of a package directory, keyed by name."""
    objects = {}
    for entry in sorted(resources.files(package).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".sql"):
            source = entry.read_text()
            kind = "macro" if source.lstrip().startswith("-- macro:") else "view"
            objects[entry.name[:-4]] = SqlObject(entry.name[:-4], source, kind)
    return objects


def ordered(objects: dict[str, SqlObject], base_tables: set[str]) -> list[SqlObject]:
    """Render every object and return them parents first."""
    known = base_tables | set(objects)
    for obj in objects.values():
        _render(obj, known)
    done: set[str] = set(base_tables)
    result: list[SqlObject] = []
    visiting: set[str] = set()

    def visit(obj: SqlObject) -> None:
        if obj.name in done:
            return
        if obj.name in visiting:
            raise ValueError(f"sql/{obj.name}.sql: circular ref()")
        visiting.add(obj.name)
        for dep in obj.refs:
            if dep in objects:
                visit(objects[dep])
        visiting.discard(obj.name)
        done.add(obj.name)
        result.append(obj)

    for obj in objects.values():
        visit(obj)
    return result


def create_all(con: duckdb.DuckDBPyConnection, base_tables: set[str], package: str = "cosydb.sql") -> list[str]:
    """Create every object of ``package`` on ``con``; returns their names in creation order."""
    names = []
    for obj in ordered(load_objects(package), base_tables):
        if obj.kind == "macro":
            con.execute(f"CREATE OR REPLACE MACRO {obj.sql.strip().rstrip(';')}")
        else:
            con.execute(f"CREATE OR REPLACE VIEW {obj.name} AS\n{obj.sql.strip().rstrip(';')}")
        names.append(obj.name)
    return names
