"""The reference documents are generated: regenerating them changes nothing, and the
database carries the same descriptions (COMMENT ON)."""

import re
from pathlib import Path

import pytest

from cosydb import catalog, database, docs, tables

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


@pytest.mark.parametrize(
    "name, generate",
    [
        ("properties.md", lambda: docs.properties_markdown(catalog.load())),
        ("schema.md", docs.schema_markdown),
    ],
)
def test_generated_docs_have_not_drifted(name, generate):
    written = (DOCS / name).read_text()
    assert written == generate(), f"docs/{name} differs from its sources; regenerate it: cosydb-check --fix"


def test_every_entry_table_and_object_is_documented():
    properties, schema = (DOCS / "properties.md").read_text(), (DOCS / "schema.md").read_text()
    for name in catalog.load():
        assert f"### {name}\n" in properties, name
    for name in tables.stored():
        assert f"### {name}\n" in schema, name


def test_every_cited_document_is_in_the_repository():
    """A document named in the code or the docs (``docs/x.md``, ``reference/y.md``, a link
    ``(x.md)`` inside docs/) exists in the repository: a reader can open what is cited."""
    cited = re.compile(r"(?<![\w./-])((?:docs|reference)/[\w./-]+\.(?:md|png))")
    sources = [ROOT / "README.md", *DOCS.glob("*.md")]
    sources += [
        p for folder in ("cosydb", "sql", "properties", "loaders", "tests") for p in (ROOT / folder).rglob("*.*")
    ]
    missing = set()
    for source in sources:
        if source.suffix not in {".md", ".py", ".sql", ".asl", ".j2"} or source == Path(__file__):
            continue
        text = source.read_text(errors="replace")
        missing |= {(source.name, name) for name in cited.findall(text) if not (ROOT / name).exists()}
        if source.parent == DOCS:  # links relative to docs/
            links = re.findall(r"\]\(([\w.-]+\.(?:md|png))(?:#[\w-]*)?\)", text)
            missing |= {(source.name, name) for name in links if not (DOCS / name).exists()}
    assert not missing, sorted(missing)
    assert (DOCS / "wait-states.md").read_text().startswith("# Wait states")


def test_the_database_describes_its_tables_and_views(real_db):
    con = database.connect(real_db("scorep-late_sender"))
    try:
        comments = dict(
            ((t, c), m)
            for t, c, m in con.execute("SELECT table_name, column_name, comment FROM duckdb_columns()").fetchall()
        )
        views = dict(con.execute("SELECT view_name, comment FROM duckdb_views() WHERE NOT internal").fetchall())
    finally:
        con.close()
    for table in tables.REGISTRY.values():
        assert views[table.name] == " ".join(table.doc.split())
        for field in table.schema:
            assert comments[(table.name, field.name)] == (tables.doc_of(field) or None)
    assert views["messages"].startswith("sendptr (CRE report")
    assert views["callpaths"].startswith("The call-path tree")
