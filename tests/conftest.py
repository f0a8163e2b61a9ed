"""Shared helpers: build a constructed trace, load it, query it."""

from pathlib import Path

import pytest

from cosydb import database
from cosydb.fixtures.generator import TraceBuilder
from cosydb.load import load

TRACES = Path(__file__).resolve().parents[2] / "shared" / "traces"


def load_built(builder: TraceBuilder, tmp_path: Path, name: str = "run"):
    """Write ``builder``'s trace, load it, and return an open read-only connection."""
    anchor = builder.write(tmp_path / name)
    db = tmp_path / f"{name}.cosydb"
    load(anchor, db)
    return database.connect(db)


def rows(con, sql, params=None):
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


@pytest.fixture
def builder():
    return TraceBuilder


def real_trace(name: str) -> Path:
    path = TRACES / name
    if not path.exists():
        pytest.skip(f"{path} not present")
    return path
