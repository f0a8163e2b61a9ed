"""How the ASL report's own text is read where it departs from its grammar and names
(docs/asl.md, "Read as the report writes it"): each place a ``Reading`` that ``cosydb asl
check`` lists. The compiler reads a name nothing defines through ``spelling`` (a local name
in another spelling) and ``mpi_functions`` (an unquoted MPI function); ``leniently`` reads
the syntax tree before the compiler sees it."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import lark


@dataclass(frozen=True)
class Reading:
    """A place where a specification departs from the report's grammar or names in a way the
    report's own text does, and how the checker reads it."""

    path: str
    line: int
    column: int
    how: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.how}"


def leniently(tree: lark.Tree, parameters: dict, say, error) -> lark.Tree:
    """``tree`` with the report's departures from its grammar read: a parameter of
    ``parameters`` (supplied_data.yaml's, by lower-case name) without a type (``RankBasis``)
    has the class given there; a property's body may lack its opening '{'. Each is said
    (``say(node, how)``); an untyped parameter of another name is an ``error(node, problem)``
    and left out of its parameters."""
    for node in tree.iter_subtrees():
        if node.data == "untyped_param":
            name = node.children[0]
            spec = parameters.get(name.lower())
            if spec is None:
                error(node, f"parameter '{name}' has no type (a parameter is 'type name')")
                continue
            say(node, f"parameter '{name}' without a type: read as '{spec['class']} {name}' (supplied_data.yaml)")
            node.data, node.children = "param", [_named_type(spec["class"]), name]
        elif node.data in ("property", "template"):
            opening = [c for c in node.children if isinstance(c, lark.Tree) and c.data == "opening"]
            if not opening:
                body = next(c for c in node.children if isinstance(c, lark.Tree) and c.data == "body")
                say(body, "the body's opening '{' is missing: read as written")
            node.children = [c for c in node.children if c not in opening]
    return tree


def spelling(name: str) -> str:
    """``name`` without case, underscores and a plural's 's': max_wait and MaxWait, Cost and Costs."""
    return name.lower().replace("_", "").removesuffix("s")


@functools.cache
def mpi_functions(lower: bool = False) -> frozenset[str]:
    """The C names of the MPI standard's procedures (the MPI Forum's pympistandard data), or
    those names in lower case."""
    if lower:
        return frozenset(name.lower() for name in mpi_functions())
    import pympistandard

    pympistandard.use_api_version(1)
    procedures = pympistandard.PROCEDURES.values()
    return frozenset(p.express.iso_c.name for p in procedures if p.express.iso_c is not None)  # not Fortran-only


def in_order(readings: list[Reading]) -> list[Reading]:
    """Each reading once (a template's are met at each of its properties), by line and column."""
    return sorted(set(readings), key=lambda r: (r.line, r.column, r.how))


def _named_type(class_name: str) -> lark.Tree:
    """The syntax tree of the type ``class_name``."""
    return lark.Tree("named_type", [lark.Tree("type_name", [lark.Token("NAME", class_name)])])
