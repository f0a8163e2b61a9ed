"""Jinja globals for linting cosydb SQL with sqlfluff (see .sqlfluff: library_path).

Stand-ins for what cosydb/sqlviews.py (ref, config, in_slice) and cosydb/evaluator.py (ref,
has, baseline_ref, catalog_tree) pass to their templates: each renders a plain relation name
so that the linter sees ordinary SQL.
"""


def ref(name):
    return name


def baseline_ref(name):
    return f"baseline_{name}"


def config(materialized="view", partitioned=False, sliced_by=None):
    return ""


def in_slice(key):
    return "true"


def has(requirement):
    return True


def catalog_tree(roots):
    """Two entries in the shape of the engine's catalog_tree(): a category and a property."""
    return [
        dict(name=roots[0], parent=None, unit="s", kind="category", depth=0, evaluable=True),
        dict(name="mpi_latesender", parent=roots[0], unit="s", kind="property", depth=1, evaluable=True),
    ]
