"""``cosydb info``: what a database holds, per experiment."""

from __future__ import annotations

import duckdb


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params=None) -> list[dict]:
    return con.execute(sql, params or []).to_arrow_table().to_pylist()


def warnings(con: duckdb.DuckDBPyConnection, experiment_id: int) -> list[dict]:
    """The experiment's load warnings per check and detail: total count and locations affected."""
    return _rows(
        con,
        """
        SELECT "check", detail, sum(count)::BIGINT AS count, count(DISTINCT location_id) AS locations
        FROM load_warnings WHERE experiment_id = ? GROUP BY ALL ORDER BY "check", detail""",
        [experiment_id],
    )


def warning_text(w: dict) -> str:
    """One grouped warning: 'clock_condition: 10 x receive completed before ... on 3 location(s)'."""
    return f"{w['check']}: {w['count']} x {w['detail']}" + (
        f" on {w['locations']} location(s)" if w["locations"] else ""
    )


def describe(con: duckdb.DuckDBPyConnection) -> list[dict]:
    """One dict per experiment: metadata, sizes, event counts by type (a profile: its metrics), warnings."""
    result = []
    for exp in _rows(con, "SELECT * FROM experiments ORDER BY experiment_id"):
        eid = [exp["experiment_id"]]
        exp["ranks"] = con.execute(
            "SELECT count(DISTINCT rank) FROM locations WHERE experiment_id = ?", eid
        ).fetchone()[0]
        exp["regions"] = con.execute("SELECT count(*) FROM regions WHERE experiment_id = ?", eid).fetchone()[0]
        exp["callpaths"] = con.execute("SELECT count(*) FROM callpaths WHERE experiment_id = ?", eid).fetchone()[0]
        if exp["is_profile"]:  # the longest-running location's time in the call-tree roots
            exp["duration_s"] = con.execute(
                """
                SELECT coalesce(max(s), 0) FROM (
                    SELECT sum(p.incl_s) AS s
                    FROM callpath_profile p JOIN callpaths c USING (experiment_id, callpath_id)
                    WHERE experiment_id = ? AND c.parent_id IS NULL GROUP BY p.location_id)""",
                eid,
            ).fetchone()[0]
            exp["profile_metrics"] = [
                name
                for (name,) in con.execute(
                    "SELECT name FROM profile_metrics WHERE experiment_id = ? AND loaded ORDER BY metric_id", eid
                ).fetchall()
            ]
        else:
            exp["duration_s"] = (
                (exp["last_time"] - exp["first_time"]) / exp["timer_resolution"]
                if exp.get("first_time") is not None
                else 0.0
            )
        exp["event_types"] = _rows(
            con,
            """
            SELECT type, sum(count)::BIGINT AS count, bool_and(has_payload) AS has_payload
            FROM record_counts WHERE experiment_id = ? GROUP BY type ORDER BY count DESC, type""",
            eid,
        )
        exp["warnings"] = warnings(con, exp["experiment_id"])
        result.append(exp)
    return result
