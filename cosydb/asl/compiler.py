"""ASL specifications to catalog entries: each PROPERTY (and each instantiation of a
PROPERTY TEMPLATE) becomes one property whose SELECT yields the catalog's result row
(condition, confidence, severity per context) over the data model as
``supplied_data.yaml`` maps it. Checking is compiling without keeping the SQL: every
problem is an ``AslError`` with its line and column, and compiling goes on after one,
so that ``cosydb asl check`` lists them all.

How ASL reads as SQL:
- a property's context parameters (a Region r, a Process p) range over their class's
  relation: one result row per context; the Experiment is the loaded one; a parameter
  of ``parameters:`` (RankBasis) is bound to its object, one of a primitive type there with
  values (String var) ranges over them, named by the row's condition_id;
- functions, constants and template function parameters are inlined where they are
  used (ASL functions have no side effects), choosing an overload by its arity;
- ``{x IN S WITH p}`` is a subquery over S's relation; ``UNIQUE(S).a`` reads attribute
  a of S's element (``any_value``: the report's "selects arbitrarily one element");
  ``SUM/COUNT/MAX/MIN/AVG/STDEV(e WHERE x IN S)`` an aggregate over it;
  ``FORALL/EXISTS/NEXISTS x IN S, y IN T SUCH THAT p`` (NOT) EXISTS subqueries; the SUM of no
  element is 0;
- objects compare by their key; ``typeof(o) == C`` holds when o is a C (or a subclass),
  and in ``A AND B`` B reads o as a C after A tests it, as a function's parameter of class
  C reads its argument (where C's objects live in another relation: by o's key);
- an attribute of several values (a call path's roles) equals a value that is one of them;
- a conjunct of every condition that tests only what the context is (its class, name,
  enum attributes) delimits the rows; several conditions merge as the MAX over those
  that hold;
- a LET that is one aggregate over a set is a lateral query per context;
- a metaproperty reads the rows of the property it names, has rows where that has, and
  a template's context takes the narrower class of the property it is passed to;
- ``PATTERN_MATCHES(P(args), trace)`` is a subquery with a row per ROOT event that P's
  CONSTRAINT admits, its EXPORT definitions as columns;
- ``a / b`` is NULL where b is 0, as every ratio of the catalog.
The SQL runs on DuckDB and, translated, on Spark, which resolves an outer column one
query out only: where a property is read at each row of a quantifier's set, Spark's form
joins it to the set. See docs/asl.md.

The passes, a module each: ``declarations`` reads the specification's items by name (the
symbol table the others read); ``expressions`` checks each expression and translates it
to a ``values.Val``, its type and SQL (the data model's objects: ``objects``, a pattern's
matches: ``patterns``, another property's rows: ``metaproperties``); ``properties`` makes
a property's result rows of those; ``entries`` the catalog entries. ``problems`` collects
what they find, ``query`` what the SQL of a unit collects, ``spark_forms`` holds Spark's
forms. This module runs them: ``check``, ``checked``, ``compile_text``.
"""

from __future__ import annotations

from pathlib import Path

from .declarations import Specification, params
from .entries import Entry, entries
from .expressions import Expressions
from .model import PRIMITIVES, type_of
from .parser import AslError
from .patterns import compile_pattern
from .properties import compile_property
from .readings import Reading, in_order
from .values import ERROR, Val


def compile_specification(spec: Specification) -> list[Entry]:
    """The entries of a specification's properties (none of one with a problem); its
    functions, patterns and templates are checked even where no property uses them (those
    of other specifications: in their files)."""
    for overloads in spec.functions.values():
        for definition in [d for d in overloads if spec.own(d)]:
            expressions = Expressions(spec)
            scope = {pname.lower(): expressions.symbol(ptype, pname) for ptype, pname, _ in definition.params}
            value = expressions.expr(definition.body, scope) if definition.body is not None else ERROR
            if definition.type is None:
                expressions.untyped(definition, value, "type name ... = expr;")
    for pattern in spec.patterns.values():
        expressions = Expressions(spec)
        scope = {pname.lower(): expressions.symbol(ptype, pname) for ptype, pname, _ in params(pattern.children[1])}
        compile_pattern(expressions, pattern, scope)
    for template in [t for t in spec.templates.values() if spec.own(t)]:
        for kind, _, node in template.template_params:  # the classes of a property parameter
            for typed in node.children[1].children if kind == "property" else []:
                ptype = type_of(typed.children[0])
                if isinstance(ptype, str) and ptype not in PRIMITIVES.values() and spec.model.cls(ptype) is None:
                    spec.problems.error(typed, f"unknown class '{ptype}'")
        signatures = {
            pname.lower(): Val("signature", type=type_of(node.children[0]) if kind == "function" else None, cls=kind)
            for kind, pname, node in template.template_params
        }
        compile_property(spec, template, signatures)
    compiled = []
    for prop in spec.properties.values():
        errors = len(spec.problems.errors)
        query = compile_property(spec, prop)
        if len(spec.problems.errors) == errors:
            compiled += entries(prop, query)
    return compiled


def check(path: str | Path, text: str, shared: list[tuple] = ()) -> list[AslError]:
    """Every problem of an ASL specification (a syntax error stops at the first); ``shared``:
    (path, text) of the specifications read before it, whose functions and templates it
    may use."""
    return checked(path, text, shared)[0]


def checked(path: str | Path, text: str, shared: list[tuple] = ()) -> tuple[list[AslError], list[Reading]]:
    """Every problem of an ASL specification, as ``check``, and every place it is read as the
    report writes it, not as its grammar does (``Reading``), each in the order of the text."""
    try:
        spec = Specification(path, text, shared)
    except AslError as error:
        return [error], []
    compile_specification(spec)
    unique = {(e.line, e.column, e.problem): e for e in spec.problems.errors}  # a template's, once
    return [unique[key] for key in sorted(unique)], in_order(spec.problems.readings)


def compile_text(path: str | Path, text: str, shared: list[tuple] = ()) -> tuple[list[Entry], list[Reading]]:
    """The entries of an ASL specification and the places read as the report writes them;
    its first problem raises ``AslError``. ``shared``: as ``check``'s."""
    spec = Specification(path, text, shared)
    compiled = compile_specification(spec)
    if spec.problems.errors:
        raise min(spec.problems.errors, key=lambda e: (e.line, e.column))
    return compiled, in_order(spec.problems.readings)
