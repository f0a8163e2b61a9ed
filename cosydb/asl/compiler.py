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
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import lark

from .model import PRIMITIVES, DataModel, SetOf, builtin, type_of
from .parser import AslError, parse
from .readings import Reading, in_order, leniently, mpi_functions, spelling

NUMERIC = {"int", "float"}
AGGREGATES = {"sum": "sum", "count": "count", "max": "max", "min": "min", "avg": "avg", "stdev": "stddev_pop"}
#: Functions of the language itself (report §3.1) and of arithmetic.
BUILTINS = {"unique", "union", "intersection", "typeof", "condition", "confidence", "severity", "sqrt", "exp", "abs"}
#: The columns of a result row.
RESULT_COLUMNS = ("callpath_id", "region_id", "location_id", "condition_id", "condition", "confidence", "severity")
RESULT_COLUMNS += ("value", "details")
#: SQL keywords an alias made from an ASL name must not be.
_RESERVED = {"all", "and", "as", "asc", "by", "case", "desc", "do", "else", "end", "from", "group", "in", "is", "not"}
_RESERVED |= {"null", "on", "or", "order", "select", "table", "then", "to", "union", "user", "when", "where", "with"}


@dataclass
class Source:
    """The rows of a set: ``relation AS alias WHERE where``; ``element`` is a class name
    (rows are objects) or a primitive type (rows hold one column, value)."""

    relation: str
    alias: str
    where: list[str]
    element: object
    joins: list[str] = field(default_factory=list)  # the rows of properties read at each row

    def rebind(self, alias: str) -> Source:
        """The same rows under another alias."""

        def renamed(texts: list[str]) -> list[str]:
            return [re.sub(rf"\b{re.escape(self.alias)}\.", f"{alias}.", t) for t in texts]

        return Source(self.relation, alias, renamed(self.where), self.element, renamed(self.joins))

    def source(self) -> str:
        """The FROM item: ``relation AS alias`` with its joins (Spark's: ``_on_spark``)."""
        return " ".join([f"{self.relation} as {self.alias}", *(_on_spark(j, "") for j in self.joins)])

    def rows(self, select: str, extra: list[str] = ()) -> str:
        """``select <select> from <the rows> [where ...]`` (``extra``: more conditions)."""
        where = [*self.where, *extra]
        return f"select {select} from {self.source()}" + (f" where {' and '.join(where)}" if where else "")


@dataclass
class Val:
    """A compiled expression. kind: scalar (sql, type), object (sql = its key; many: the
    key SQL may return several rows), row (sql = the alias of a row of cls), set (src),
    unique (src: the element of a one-element set), class (a class name as a value),
    typeof (sql: the object whose class is asked), property (a property applied to
    arguments), function (a template's function parameter bound to a function), or
    error (already reported)."""

    kind: str
    sql: str = ""
    type: object = None
    cls: str | None = None
    src: Source | None = None
    many: bool = False
    args: list = field(default_factory=list)
    keys: dict = field(default_factory=dict)  # a reference to one of several classes: class -> key SQL
    query: tuple | None = None  # a scalar that is one aggregate over a set: (its Source, the aggregate)
    named: str | None = None  # an unquoted MPI function's name: the Function, compared with a String its name
    baseline: bool = False  # the --baseline experiment (an Experiment parameter bound to it)


ERROR = Val("error")


@dataclass
class Definition:
    name: str
    type: object
    params: list  # [(type, name, node)]
    body: lark.Tree | None
    node: lark.Tree | None = None


@dataclass
class PropertyDef:
    name: str
    params: list  # [(type, name, node)]
    body: lark.Tree
    node: lark.Tree
    template_params: list = field(default_factory=list)  # [("function"|"property", name, node)]
    source: str = ""
    bindings: dict = field(default_factory=dict)  # an instantiation's: template parameter -> Val


@dataclass
class Entry:
    """A compiled property: its name, SQL (Jinja: ref() to catalog objects), ASL text,
    the line it starts on, and the unit of its value."""

    name: str
    sql: str
    asl: str
    line: int
    unit: str
    params: dict = field(default_factory=dict)  # catalog parameters: p_name -> {default, type, doc}
    kind: str = "property"  # or pattern: the rows per instance of a property of an event
    columns: dict = field(default_factory=dict)  # a pattern's columns
    info: str = ""  # its one line, where the comment above the property is another's
    requires: list = field(default_factory=list)  # what the experiment must have (catalog.REQUIREMENTS)


#: The report's global definitions (Summary, Duration, ...), which every specification sees.
PRELUDE = Path(__file__).with_name("prelude.asl")


class Compiler:
    def __init__(self, path: str | Path, text: str, model: DataModel | None = None, shared: list[tuple] = ()):
        """``shared``: (path, text) of specifications read before this one, whose functions and
        templates it may use (after the prelude's); it may define its own of the same name
        instead."""
        self.path = str(path)
        self.text = text
        self.model = model or builtin()
        self.errors: list[AslError] = []
        self.functions: dict[str, list[Definition]] = {}
        self.templates: dict[str, PropertyDef] = {}
        self.properties: dict[str, PropertyDef] = {}
        self.patterns: dict[str, lark.Tree] = {}  # compiled where PATTERN_MATCHES reads them
        self.aliases: set[str] = set()
        self.lets: list[str] = []  # the LET constants of the property being compiled, as lateral joins
        self.params: dict = {}  # the catalog parameters it reads (constants bound to parameters)
        self.let_values: dict = {}  # its LET constants compiled so far: id(definition) -> Val
        self.bound: dict[str, Source] = {}  # the rows a variable ranges over, by its alias
        self.instance: str | None = None  # the key of the event a property of an event is of
        self.requires: list[str] = []  # what the property being compiled reads needs (mappings' requires)
        self.expected: list = [None]  # the class of the function whose body is compiled (None: no class)
        self.names: dict[str, str] = {}  # the parameters of the property being compiled, by lower-case name
        self.shared: set[int] = set()  # the ids of the functions and templates of other specifications
        # what those ids and own_nodes' name, alive as long as the compiler: an object that
        # died (a shared function replaced) would leave its id to a new one
        self.alive: list = []
        self.readings: list[Reading] = []  # where this specification is read leniently
        for shared_path, shared_text in [(PRELUDE, PRELUDE.read_text()), *shared]:
            self._share(shared_path, shared_text)
        tree = parse(text, path)
        self.own_nodes = {id(node) for node in tree.iter_subtrees()}  # a reading elsewhere is its file's
        self.alive.append(tree)
        self._collect(leniently(tree, self.model.parameters, self.reading, self.error))

    # -- errors -------------------------------------------------------------------------

    def error(self, node, problem: str) -> Val:
        line, column = _position(node)
        self.errors.append(AslError(self.path, line, column, problem))
        return ERROR

    def reading(self, node, how: str) -> None:
        """Say how ``node`` of this specification is read (not one of a shared template's or
        function's: that file's own check says it)."""
        if id(node) in self.own_nodes:
            line, column = _position(node)
            self.readings.append(Reading(self.path, line, column, how))

    # -- the specification's items ------------------------------------------------------

    def _share(self, path: str | Path, text: str) -> None:
        """Take the functions and templates of another specification (the prelude, a file read
        before this one); its properties are its own. A function replaces an earlier one of
        the same name and number of parameters."""
        own, self.text = self.text, text  # a template keeps its own file's text
        for item in leniently(parse(text, path), self.model.parameters, _unsaid, _unsaid).children:  # its own check's
            if item.data == "definition":
                definition = _definition(item)
                self._define(definition)
                self.shared.add(id(definition))
                self.alive.append(definition)
            elif item.data == "template":
                template = self._property(item)
                self.templates[template.name.lower()] = template
                self.shared.add(id(template))
                self.alive.append(template)
        self.text = own

    def _define(self, definition: Definition) -> None:
        """Add a function; it replaces a shared one of the same name and number of parameters."""
        overloads = self.functions.setdefault(definition.name.lower(), [])
        overloads[:] = [o for o in overloads if id(o) not in self.shared or len(o.params) != len(definition.params)]
        overloads.append(definition)

    def _collect(self, tree: lark.Tree) -> None:
        for item in tree.children:
            kind = item.data
            if kind == "definition":
                self._define(_definition(item))  # one without a type: its expression's (compile)
            elif kind in ("property", "template"):
                prop = self._property(item)
                table = self.templates if kind == "template" else self.properties
                defined = table.get(prop.name.lower())
                if (defined is not None and id(defined) not in self.shared) or prop.name.lower() in self.properties:
                    self.error(item, f"'{prop.name}' is defined twice")
                table[prop.name.lower()] = prop
            elif kind == "instantiation":
                self._instantiate(item)
            elif kind == "class_def":
                self.error(item, "a class of the data model belongs in the data model (cosydb/asl/data_model.asl)")
            elif kind == "pattern":
                name = str(item.children[0])
                if name.lower() in self.patterns:
                    self.error(item, f"'{name}' is defined twice")
                self.patterns[name.lower()] = item

    def _property(self, node: lark.Tree) -> PropertyDef:
        children = list(node.children)
        name = str(children.pop(0))
        template_params = []
        if node.data == "template":
            for param in children.pop(0).children:
                kind = "function" if param.data == "function_param" else "property"
                pname = str(param.children[1] if kind == "function" else param.children[0])
                template_params.append((kind, pname, param))
        params = _params(children.pop(0))
        return PropertyDef(name, params, children.pop(0), node, template_params, _source(self.text, node))

    def _instantiate(self, node: lark.Tree) -> None:
        template_name, arguments, name = str(node.children[0]), node.children[1].children, str(node.children[2])
        template = self.templates.get(template_name.lower())
        if template is None:
            self.error(node, f"unknown property template '{template_name}'")
            return
        if len(arguments) != len(template.template_params):
            self.error(
                node,
                f"template '{template.name}' takes {len(template.template_params)} argument(s), given {len(arguments)}",
            )
            return
        bound = {}
        for (kind, pname, _), argument in zip(template.template_params, arguments, strict=True):
            table = self.functions if kind == "function" else self.properties
            if str(argument).lower() not in table:
                what = "function" if kind == "function" else "property"
                self.error(argument, f"unknown {what} '{argument}' for template parameter {pname}")
                return
            bound[pname.lower()] = Val(kind, sql=str(argument).lower())
        if name.lower() in self.properties:
            self.error(node, f"'{name}' is defined twice")
        narrowed = self._narrowed(template, bound)
        params = [(narrowed.get(pname.lower(), ptype), pname, pnode) for ptype, pname, pnode in template.params]
        self.properties[name.lower()] = PropertyDef(
            name, params, template.body, node, [], _source(self.text, node) + "\n" + template.source, bound
        )

    def _narrowed(self, template: PropertyDef, bound: dict) -> dict:
        """Template parameter -> the narrower class of the bound property's parameter it is
        passed to: OnAllProcesses<FrequentCommInProcess> ranges its ``Region r`` over the
        Functions FrequentCommInProcess is defined on."""
        declared = {pname.lower(): ptype for ptype, pname, _ in template.params}
        narrowed: dict = {}
        for call in template.body.find_data("call"):
            applied = bound.get(str(call.children[0]).lower())
            prop = self.properties.get(applied.sql) if applied is not None and applied.kind == "property" else None
            if prop is None:
                continue
            for argument, (ptype, _, _) in zip(call.children[1].children, prop.params, strict=False):
                if not (isinstance(argument, lark.Tree) and argument.data == "name"):
                    continue
                pname = str(argument.children[0]).lower()
                own = narrowed.get(pname, declared.get(pname))
                if isinstance(own, str) and isinstance(ptype, str) and self.model.cls(ptype) and self.model.cls(own):
                    if self.model.is_subclass(ptype, own) and not self.model.is_subclass(own, ptype):
                        narrowed[pname] = ptype
        return narrowed

    # -- compiling ----------------------------------------------------------------------

    def compile(self) -> list[Entry]:
        for overloads in self.functions.values():  # checked even where no property calls them
            for definition in [d for d in overloads if id(d) not in self.shared]:  # others: in their file
                self.aliases = set()
                scope = {pname.lower(): self._symbol(ptype, pname) for ptype, pname, _ in definition.params}
                value = self.expr(definition.body, scope) if definition.body is not None else ERROR
                if definition.type is None:
                    self._untyped(definition, value, "type name ... = expr;")
        for pattern in self.patterns.values():  # checked even where no property reads them
            self.aliases, self.bound = set(), {}
            scope = {pname.lower(): self._symbol(ptype, pname) for ptype, pname, _ in _params(pattern.children[1])}
            self._compile_pattern(pattern, scope)
        for template in [t for t in self.templates.values() if id(t) not in self.shared]:
            self.aliases, self.lets = set(), []
            scope = {}
            for kind, _, node in template.template_params:  # the classes of a property parameter
                for typed in node.children[1].children if kind == "property" else []:
                    ptype = type_of(typed.children[0])
                    if isinstance(ptype, str) and ptype not in PRIMITIVES.values() and self.model.cls(ptype) is None:
                        self.error(typed, f"unknown class '{ptype}'")
            for kind, pname, node in template.template_params:
                returns = type_of(node.children[0]) if kind == "function" else None
                scope[pname.lower()] = Val("signature", type=returns, cls=kind)
            self._compile_property(template, scope)
        entries = []
        for prop in self.properties.values():
            errors = len(self.errors)
            sql, unit = self._compile_property(prop)
            if len(self.errors) > errors:
                continue
            line, params = _position(prop.node)[0], dict(self.params)
            if self.instance is None:
                entries.append(Entry(prop.name, sql, prop.source, line, unit, params, requires=list(self.requires)))
                continue
            # a property of an event: its rows per event (a pattern), and per call path and
            # location the most severe event's
            instances = _instances(prop.name)
            info = f"{prop.name} at each event (a region instance), before its most severe per call path and location."
            requires = list(self.requires)
            entries.append(
                Entry(instances, sql, prop.source, line, unit, params, "pattern", INSTANCE_COLUMNS, info, requires)
            )
            most_severe = _most_severe(instances)
            entries.append(Entry(prop.name, most_severe, prop.source, line, unit, params, requires=requires))
        return entries

    def _untyped(self, definition: Definition, value: Val, form: str) -> None:
        """A definition without a type (the report's cost functions): its expression's, if that
        is a value of a primitive type (int, float, ...), else an error."""
        if value.kind == "scalar" and value.type in PRIMITIVES.values():
            definition.type = value.type
            self.reading(definition.node, f"'{definition.name}' has no type: read as {value.type}, its expression's")
        elif value.kind != "error":
            self.error(definition.node, f"'{definition.name}' has no type (a definition is '{form}')")

    def _alias(self, name: str) -> str:
        base = re.sub(r"\W", "_", name.lower())
        base = base + "_" if base in _RESERVED else base
        alias, n = base, 1
        while alias in self.aliases:
            n += 1
            alias = f"{base}_{n}"
        self.aliases.add(alias)
        return alias

    def _relation(self, class_name: str, node) -> tuple[str, str | None, list[str], str | None] | None:
        """The relation (SQL), key, class filter (SQL with {row}) and result column of a class."""
        mapping = self.model.mapping(class_name)
        if mapping is None:
            self.error(node, f"class {class_name} has no mapping in the supplied data specification")
            return None
        if not mapping.relation:
            self.error(node, f"class {class_name} is supplied only as an attribute of another class's object")
            return None
        self._require(mapping.requires)
        return mapping.sql, mapping.key, mapping.filters, mapping.result_column

    def _require(self, requirements) -> None:
        """Note what the property being compiled needs of an experiment (catalog.REQUIREMENTS)."""
        self.requires += [r for r in requirements or () if r not in self.requires]

    def _symbol(self, ptype, pname: str) -> Val:
        """A parameter of a definition checked on its own: a row of its class, or a value."""
        if isinstance(ptype, str) and self.model.cls(ptype) is not None:
            return Val("row", sql=self._alias(pname), cls=self.model.cls(ptype).name)
        if isinstance(ptype, SetOf):
            return Val("set", src=Source("(select 1)", self._alias(pname), [], ptype.element))
        return Val("scalar", sql="null", type=ptype)

    def _compile_property(self, prop: PropertyDef, bindings: dict | None = None) -> tuple[str, str]:
        self.aliases, self.lets, self.params, self.let_values = set(), [], {}, {}
        self.bound, self.instance, self.requires = {}, None, []
        self.valued, self.context_tests = None, []  # a context of values (String var) and its tests
        env: dict[str, object] = dict(bindings if bindings is not None else prop.bindings)
        contexts, keys = [], {"callpath_id": "null::bigint", "region_id": "null::bigint", "location_id": "null::bigint"}
        self.contexts = []
        self.names = {pname.lower(): pname for _, pname, _ in prop.params}
        for ptype, pname, pnode in prop.params:
            bound = self._parameter(ptype, pname, pnode, contexts, keys)
            env[pname.lower()] = bound
            if bound.kind == "row":
                self.contexts.append(pname)
        children = prop.body.children
        if children and children[0].data == "local_defs":
            for definition in children[0].children:
                d = _definition(definition)  # a type left out (as the report's templates do): the expression's
                if d.params:
                    self.error(definition, f"'{d.name}': a local definition is a constant, without parameters")
                env[d.name.lower()] = ("let", d, dict(env))
            children = children[1:]
        conditions, confidences, severities = children
        condition_list = []
        for cond in conditions.children:
            cond_id = _cond_id(cond.children[0]) if len(cond.children) == 2 else None
            expr = self.boolean(cond.children[-1], env)
            condition_list.append((cond_id, expr))
        ids = [c for c, _ in condition_list if c]
        if ids and len(ids) != len(condition_list):
            self.error(conditions, "either every condition has an id or none has")
        if len(set(ids)) != len(ids):
            self.error(conditions, "a condition id is given twice")
        # typeof tests of a context in every condition delimit the rows
        common = None
        context_names = {pname.lower() for pname in self.contexts}
        for cond in conditions.children:
            texts = {
                _source(self.text, c): c
                for c in _conjuncts(cond.children[-1])
                if _is_context_guard(c, context_names, self.model)
            }
            common = texts if common is None else {t: c for t, c in common.items() if t in texts}
        guards = self._conjunction((common or {}).values(), env) + self._built_on(prop, env, context_names)
        guards = self.context_tests + guards
        confidence = self._guarded(confidences, env, ids, "confidence")
        severity = self._guarded(severities, env, ids, "severity")
        rows = []
        lets = "".join(f"\n    {let}" for let in self.lets)
        # a context of values is named by condition_id (with several conditions: in the merge)
        valued = self.valued if len(condition_list) > 1 else None
        extra = ", context_value" if valued else ""
        for cond_id, condition in condition_list:
            conf_sql = (confidence.get(cond_id) or confidence.get(None) or ("null",))[0]
            sev_sql, value_sql, denominator, _ = (
                severity.get(cond_id) or severity.get(None) or ("null", None, None, None)
            )
            if denominator is not None:  # not evaluable where the severity's denominator is 0
                condition = f"case when ({denominator}) <> 0 then {condition} end"
            rows.append(
                f"select {', '.join(RESULT_COLUMNS)}{', event_key' if self.instance else ''}{extra}\n"
                "from (\n"
                "    select\n"
                + (f"        {self.instance} as event_key,\n" if self.instance else "")
                + (f"        {valued} as context_value,\n" if valued else "")
                + f"        {keys['callpath_id']} as callpath_id,\n"
                f"        {keys['region_id']} as region_id,\n"
                f"        {keys['location_id']} as location_id,\n"
                f"        {_condition_id(cond_id, None if valued else self.valued)}::varchar as condition_id,\n"
                f"        {condition} as condition,\n"
                f"        ({conf_sql})::double as confidence,\n"
                f"        ({sev_sql})::double as severity,\n"
                f"        ({value_sql or 'null'})::double as value,\n"
                "        null::varchar as details\n"
                f"    from {' cross join '.join(contexts) if contexts else '(select 1)'}{lets}\n"
                + (f"    where {' and '.join(guards)}\n" if guards else "")
                + ")"
            )
        units = {unit for _, _, _, unit in severity.values()}
        unit = units.pop() if len(units) == 1 and None not in units else "ratio"
        if self.instance and len(rows) > 1:
            self.error(conditions, "a property of an event has one condition")
        if len(rows) == 1:
            return _jinja(self._with_relations(rows[0])), unit
        # several conditions: the property holds where one does, its confidence and severity
        # the MAX over those that hold (report, figure 3.2), condition_id lists them (most
        # severe, then most confident first), and then the context's value (``Cond1,Cond2:x``)
        ids = "string_agg(condition_id, ',' order by severity desc, confidence desc, condition_id)"
        ids += " filter (where condition)"
        if valued:
            ids = f"coalesce({ids} || ':', '') || context_value"
        merged = (
            "select\n"
            "    callpath_id,\n"
            "    region_id,\n"
            "    location_id,\n"
            f"    {ids} as condition_id,\n"
            "    bool_or(condition) as condition,\n"
            "    coalesce(max(confidence) filter (where condition), max(confidence)) as confidence,\n"
            "    coalesce(max(severity) filter (where condition), max(severity)) as severity,\n"
            "    coalesce(arg_max(value, severity) filter (where condition), arg_max(value, severity)) as value,\n"
            "    null::varchar as details\n"
            "from (\n" + "\n\nunion all\n\n".join(rows) + "\n)\n"
            f"group by callpath_id, region_id, location_id{extra}"
        )
        return _jinja(self._with_relations(merged)), unit

    def _with_relations(self, sql: str) -> str:
        """``sql`` preceded by a CTE per subquery relation it reads ({rel:Class})."""
        owners = dict.fromkeys(re.findall(r"\{(relb?):(\w+)\}", sql))
        if not owners:
            return sql
        mappings = {o: self.model.mapping(o) for _, o in owners}
        ctes = ",\n\n".join(
            f"{_cte(o, kind)} as {(mappings[o].baseline if kind == 'relb' else mappings[o].relation).strip()}"
            for kind, o in owners
        )
        return f"with {ctes}\n\n" + re.sub(r"\{(relb?):(\w+)\}", lambda m: _cte(m.group(2), m.group(1)), sql)

    def _event_columns(self, ptype) -> dict:
        """The result columns an object of class ``ptype`` names as a context if it is an
        event (supplied_data.yaml: ``context``), else none."""
        mapping = self.model.mapping(ptype) if isinstance(ptype, str) and self.model.cls(ptype) else None
        return mapping.context if mapping is not None else {}

    def _event_context(self, prop: PropertyDef) -> dict:
        """The result columns an event parameter of ``prop`` names (none: no event)."""
        return next((c for c in (self._event_columns(ptype) for ptype, _, _ in prop.params) if c), {})

    def _built_on(self, prop: PropertyDef, env, context_names: set) -> list[str]:
        """A metaproperty is defined where the property it is built on is: per property bound
        to the template and applied to contexts, its rows name the context (built on a
        property of events: where it has events of the metaproperty's call path and
        process)."""
        wanted: dict = {}  # (the rows' entry, their tests over {x}: a row of it)
        for call in prop.body.find_data("call"):
            applied = prop.bindings.get(str(call.children[0]).lower())
            target = self.properties.get(applied.sql) if applied is not None and applied.kind == "property" else None
            if target is None:
                continue
            event = self._event_context(target)
            if event:  # its events: of the context's call path and process, with a value (as _most_severe)
                columns = {self.model.mapping(env[n].cls).result_column: n for n in context_names}
                tests = [f"{{x}}.{c} = {self._key(env[columns[c]], call)[0]}" for c in event if c in columns]
                if tests:
                    wanted[(_instances(target.name), (*tests, "{x}.value is not null"))] = None
                continue
            tests = []
            for argument, (ptype, _, _) in zip(call.children[1].children, target.params, strict=False):
                if not (isinstance(argument, lark.Tree) and argument.data == "name"):
                    continue
                name = str(argument.children[0]).lower()
                if name not in context_names or self.model.mapping(ptype) is None:
                    continue
                key = self._key(env[name], call)
                if key is not None:
                    tests.append(f"{{x}}.{self.model.mapping(ptype).result_column} = {key[0]}")
            if tests:
                wanted[(target.name, tuple(tests))] = None
        guards = []
        for name, tests in wanted:
            alias = self._alias("x")
            on = " and ".join(test.replace("{x}", alias) for test in tests)
            guards.append(f"exists (select 1 from {{ref:{name}}} as {alias} where {on})")
        return guards

    def _parameter(self, ptype, pname: str, node, contexts: list, keys: dict) -> Val:
        if ptype in PRIMITIVES.values():
            return self._value_context(ptype, pname, node, contexts, keys)
        if isinstance(ptype, SetOf) or self.model.cls(ptype) is None:
            return self.error(node, f"parameter {pname}: unknown class '{ptype}'")
        found = self.model.parameter(pname)
        if found is not None:
            supplied, binding = found
            if supplied.lower() != pname.lower():
                self.reading(
                    node, f"parameter '{pname}' read as {supplied}, the parameter of that name in another spelling"
                )
            if not self.model.is_subclass(binding["class"], ptype) and not self.model.is_subclass(
                ptype, binding["class"]
            ):
                return self.error(node, f"parameter {pname} is a {binding['class']}, not a {ptype}")
            self._require(binding.get("requires"))
            if binding.get("experiment") == "baseline":  # the --baseline experiment
                return Val("object", sql="", cls=ptype, baseline=True)
            return Val("object", sql=binding["key"], cls=ptype, many=True)
        if self.model.is_subclass(ptype, "Experiment") or self.model.is_subclass(ptype, "Application"):
            return Val("object", sql="", cls=ptype)  # the loaded one
        found = self._relation(ptype, node)
        if found is None:
            return ERROR
        relation, key, filters, column = found
        alias = self._alias(pname)
        where = " and ".join(f.replace("{row}", alias) for f in filters)
        contexts.append(
            f"(select * from {relation} as {alias} where {where}) as {alias}" if where else f"{relation} as {alias}"
        )
        event = self._event_columns(ptype)
        if self.instance is not None or (event and any(k != "null::bigint" for k in keys.values())):
            return self.error(node, f"parameter {pname}: a property of an event has no other context")
        if event:  # an event: a row per event, named by its call path and location
            keys.update({c: f"{alias}.{source}" for c, source in event.items()})
            self.instance = f"{alias}.{key}"
            return Val("row", sql=alias, cls=ptype)
        if column is None or keys[column] != "null::bigint":
            return self.error(node, f"parameter {pname}: a {ptype} is no context of a result row (or is given twice)")
        keys[column] = f"{alias}.{key}"
        return Val("row", sql=alias, cls=ptype)

    def _value_context(self, ptype, pname: str, node, contexts: list, keys: dict) -> Val:
        """A parameter of a primitive type whose values supplied_data.yaml gives (``String
        var``: the variables of a call path's region): a context, a row per value of the
        context it belongs to (``per``: a result column another parameter sets), named by
        the result row's condition_id."""
        found = self.model.parameter(pname)
        spec = found[1] if found is not None else {}
        if "values" not in spec:
            return self.error(node, f"parameter {pname}: a {ptype} has no values to range over (supplied_data.yaml)")
        if spec.get("class") != ptype:
            return self.error(node, f"parameter {pname} is a {spec.get('class')}, not a {ptype}")
        per = spec["per"]
        if keys.get(per, "null::bigint") == "null::bigint":
            return self.error(node, f"parameter {pname}: its values are those of a {per}: name that context first")
        if self.valued is not None:
            return self.error(node, f"parameter {pname}: a result row names one context of values")
        self._require(spec.get("requires"))
        alias = self._alias(pname)
        contexts.append(f"{spec['values'].strip()} as {alias}")
        self.context_tests.append(f"{alias}.{per} = {keys[per]}")
        self.valued = f"{alias}.value"
        return Val("scalar", sql=self.valued, type=ptype)

    def _guarded(self, node: lark.Tree, env, ids: list, what: str) -> dict:
        """cond id (or None) -> (SQL, value SQL, denominator SQL, unit) of a CONFIDENCE or
        SEVERITY: a severity that is a ratio a / b has the value a (in seconds where b is a
        duration, else a count: cache misses per load and store), and it is not evaluable
        where b is 0 or unknown."""
        values = node.children[0]
        entries = values.children[1:] if values.data == "max_of" else [values]
        result: dict = {}
        for entry in entries:
            guard = _cond_id(entry.children[0]) if len(entry.children) == 2 else None
            if guard is not None and guard not in ids:
                self.error(entry, f"{what}: no condition has the id '{guard}'")
            expr = entry.children[-1]
            compiled = self.numeric(expr, env)
            value = denominator = unit = None
            if (
                what == "severity"
                and expr.data == "product"
                and len(expr.children) >= 3
                and str(expr.children[-2]) == "/"
            ):  # a / b, or a * ... / b (nr_executions * parallel_region_cost / duration): its value a * ...
                numerator = expr.children[0] if len(expr.children) == 3 else lark.Tree("product", expr.children[:-2])
                value, denominator = self.numeric(numerator, env), self.numeric(expr.children[-1], env)
                unit = "s" if "duration(" in _source(self.text, expr.children[-1]).lower() else "count"
            if guard in result:
                previous = result[guard]
                compiled = f"greatest({previous[0]}, {compiled})"
                value = denominator = unit = None
            result[guard] = (compiled, value, denominator, unit)
        return result

    # -- expressions --------------------------------------------------------------------

    def boolean(self, node, env) -> str:
        value = self.expr(node, env)
        if value.kind == "error":
            return "null"
        if value.kind != "scalar" or value.type != "boolean":
            self.error(node, f"expected a condition (boolean), found {_describe(value)}")
            return "null"
        return value.sql

    def numeric(self, node, env) -> str:
        value = self.expr(node, env)
        if value.kind == "error":
            return "null"
        if value.kind != "scalar" or value.type not in NUMERIC:
            self.error(node, f"expected a number, found {_describe(value)}")
            return "null"
        return value.sql

    def expr(self, node, env) -> Val:
        method = getattr(self, f"_{node.data}", None) if isinstance(node, lark.Tree) else None
        if method is None:
            return self.error(node, f"{getattr(node, 'data', node)} is not supported yet")
        return method(node, env)

    def _number(self, node, env) -> Val:
        text = str(node.children[0])
        return Val("scalar", sql=text, type="float" if re.search(r"[.eE]", text) else "int")

    def _string(self, node, env) -> Val:
        return Val("scalar", sql=_string(str(node.children[0])[1:-1]), type="String")

    def _name(self, node, env) -> Val:
        name = str(node.children[0])
        bound = env.get(name.lower())
        if isinstance(bound, tuple):  # a LET constant: compiled where first used, once
            _, definition, scope = bound
            if id(definition) not in self.let_values:
                value = self.expr(definition.body, scope)
                if value.kind == "scalar" and value.query:  # computed once per context
                    # in a lateral join, the aggregate over a set its query itself: correlated
                    # to the context one level deep, as Spark resolves it (an expression over
                    # several is written where it is read)
                    alias = self._alias(definition.name)
                    self.lets.append(
                        f"cross join lateral ({value.query[0].rows(f'{value.query[1]} as value')}) as {alias}"
                    )
                    value = Val("scalar", sql=f"{alias}.value", type=value.type)
                self.let_values[id(definition)] = value
            return self.let_values[id(definition)]
        if bound is not None:
            return bound
        if name.lower() in self.model.constants:
            spec = self.model.constants[name.lower()]
            if "class" in spec:
                return Val("object", sql=str(spec["key"]), cls=spec["class"])
            if "parameter" in spec:  # a threshold the user sets: --param p_name=value
                sql_type = {"float": "DOUBLE", "int": "BIGINT", "boolean": "BOOLEAN"}.get(spec["type"], "VARCHAR")
                self.params[spec["parameter"]] = {"default": spec["default"], "type": sql_type, "doc": spec["doc"]}
                return Val("scalar", sql=f"${spec['parameter']}", type=spec["type"])
            return Val("scalar", sql=str(spec["sql"]), type=spec["type"])
        if self.model.cls(name) is not None:
            return Val("class", cls=self.model.cls(name).name)
        if name.lower() in self.model.sets:  # a supplied set of no arguments (TRACE)
            return self._supplied_set(name.lower(), node, [], env)
        if name.lower() in self.model.enum_values:
            return Val("scalar", sql=_string(name), type=self.model.enum_values[name.lower()])
        if name.lower() in self.functions:
            overloads = self.functions[name.lower()]
            constants = [d for d in overloads if not d.params]
            if constants:
                return self.expr(constants[0].body, {})
            return self.error(node, f"'{name}' is a function: call it with its arguments")
        return self._unknown_name(node, name, env)

    def _unknown_name(self, node, name: str, env) -> Val:
        """A name nothing defines, read as the report's text means it where that is certain:
        a local name written in another spelling (``max_wait`` for the LET's ``MaxWait``,
        ``Cost`` for ``Costs``), an MPI function's name left unquoted (``MPI_Barrier``: the
        string); else an error."""
        near = [key for key in env if isinstance(key, str) and spelling(key) == spelling(name)]
        if len(near) == 1:
            bound = env[near[0]]
            written = bound[1].name if isinstance(bound, tuple) else self.names.get(near[0], near[0])
            self.reading(node, f"'{name}' read as '{written}', the name defined here in another spelling")
            return self._name(lark.Tree("name", [lark.Token("NAME", written)]), env)
        if name in mpi_functions():
            self.reading(node, f"unquoted {name} read as the MPI function of that name (its name beside a String)")
            mapping = self.model.mapping("Function")
            alias = self._alias("function")
            where = [f.replace("{row}", alias) for f in mapping.filters]
            where.append(f"{alias}.{mapping.attributes['name']} = {_string(name)}")
            sql = f"(select {alias}.{mapping.key} from {mapping.sql} as {alias} where {' and '.join(where)})"
            return Val("object", sql=sql, cls=self.model.cls("Function").name, many=True, named=name)
        return self.error(node, f"unknown name '{name}'")

    def _not_(self, node, env) -> Val:
        return Val("scalar", sql=f"not ({self.boolean(node.children[0], env)})", type="boolean")

    def _or_expr(self, node, env) -> Val:
        return Val("scalar", sql="(" + " or ".join(self.boolean(c, env) for c in node.children) + ")", type="boolean")

    def _and_expr(self, node, env) -> Val:
        """A conjunction; after ``typeof(x) == C`` the conjuncts to its right read x as a C
        (the report's ``typeof(x.region)==FuncCall AND typeof(x.region.CalledFunc)==...``)."""
        return Val("scalar", sql="(" + " and ".join(self._conjunction(node.children, env)) + ")", type="boolean")

    def _conjunction(self, conjuncts, env) -> list[str]:
        """The SQL of each conjunct, those after ``typeof(x) == C`` reading x as a C."""
        parts = []
        for child in conjuncts:
            parts.append(self.boolean(child, env))
            narrowed = _typeof_test(child)
            if narrowed is not None and self.model.cls(narrowed[1]) is not None:
                env = {**env, ("narrow", _source(self.text, narrowed[0]).lower()): self.model.cls(narrowed[1]).name}
        return parts

    def _neg(self, node, env) -> Val:
        return Val("scalar", sql=f"(-{self.numeric(node.children[0], env)})", type="float")

    def _arithmetic(self, node, env) -> Val:
        parts = node.children
        sql = self.numeric(parts[0], env)
        kind = "int"
        for op, operand in zip(parts[1::2], parts[2::2], strict=True):
            right = self.numeric(operand, env)
            if str(op) == "/":
                sql, kind = f"{sql} / nullif({right}, 0)", "float"
            else:
                sql = f"{sql} {op} {right}"
        types = {self.expr(p, env).type for p in parts[::2]} if kind == "int" else {"float"}
        return Val("scalar", sql=f"({sql})", type="int" if types == {"int"} else "float")

    _sum = _arithmetic
    _product = _arithmetic

    def _comparison(self, node, env) -> Val:
        left, op, right = self.expr(node.children[0], env), str(node.children[1]), self.expr(node.children[2], env)
        if "error" in (left.kind, right.kind):
            return Val("scalar", sql="null", type="boolean")
        # a name both a class and an enum value (Send, Receive) compared with a value: the value
        left, right = (
            Val("scalar", sql=_string(v.cls), type=self.model.enum_values[v.cls.lower()])
            if v.kind == "class" and other.kind == "scalar" and v.cls.lower() in self.model.enum_values
            else v
            for v, other in ((left, right), (right, left))
        )
        # an unquoted MPI function's name compared with a String: that name; with a call: the
        # function it calls (enterptr(ROOT).region == MPI_Recv)
        left, right = (
            Val("scalar", sql=_string(v.named), type="String") if v.named and other.kind == "scalar" else v
            for v, other in ((left, right), (right, left))
        )
        for side, (v, other) in enumerate(((left, right), (right, left))):
            if v.named and other.cls and self.model.is_subclass(other.cls, "FuncCall"):
                called = lark.Tree("attribute", [node.children[2 - 2 * side], lark.Token("NAME", "CalledFunc")])
                self.reading(node, f"{v.named} compared with a call: with the function it calls")
                left, right = (v, self.expr(called, env)) if side == 0 else (self.expr(called, env), v)
        if op in ("==", "!=") and {left.kind, right.kind} == {"typeof", "class"}:
            asked, cls = (left, right) if left.kind == "typeof" else (right, left)
            test = self._is_a(asked.args[0], cls.cls, node)
            return Val("scalar", sql=test if op == "==" else f"not ({test})", type="boolean")
        if left.kind in ("object", "row") or right.kind in ("object", "row"):
            if op not in ("==", "!="):
                return self.error(node, f"objects compare only with == or !=, not {op}")
            return self._same(left, right, op, node)
        if left.kind != "scalar" or right.kind != "scalar":
            return self.error(node, f"cannot compare {_describe(left)} with {_describe(right)}")
        if left.many or right.many:  # an attribute of several values: == v holds where v is one
            if op not in ("==", "!=") or (left.many and right.many):
                return self.error(node, "an attribute of several values compares with one value by == or != only")
            single, many = (right.sql, left.sql) if left.many else (left.sql, right.sql)
            test = f"coalesce({single} in {many}, false)"
            return Val("scalar", sql=f"({test})" if op == "==" else f"(not {test})", type="boolean")
        sql_op = {"==": "=", "!=": "<>"}.get(op, op)
        return Val("scalar", sql=f"({left.sql} {sql_op} {right.sql})", type="boolean")

    def _chosen_key(self, value: Val, cls: str | None) -> str | None:
        """The key SQL of a reference to several classes when read as a ``cls``."""
        if cls is None:
            return None
        for name, sql in value.keys.items():
            if self.model.is_subclass(cls, name):
                return sql
        # a superclass (Region): the key of the class whose objects cosydb supplies for it
        supplied = self.model.mapping(cls)
        for name, sql in value.keys.items():
            mapping = self.model.mapping(name)
            if supplied is not None and mapping is not None and mapping.relation == supplied.relation:
                return sql
        return None

    def _key(self, value: Val, node, other: str | None = None) -> tuple[str, bool] | None:
        """(key SQL, whether it may return several rows) of an object; ``other``: the class of
        what it is compared with (which key a reference to several classes uses)."""
        if value.keys:
            chosen = self._chosen_key(value, other)
            if chosen is None:
                self.error(node, f"a {value.cls} of several classes compares only with an object of one of them")
                return None
            return chosen, False
        if value.kind == "row":
            mapping = self.model.mapping(value.cls)
            if mapping is None or not mapping.key:
                self.error(node, f"a {value.cls} is not identified by one column: it cannot be compared")
                return None
            return f"{value.sql}.{mapping.key}", False
        if value.kind == "object":
            return value.sql, value.many
        if value.kind != "error":  # an error is reported where it is
            self.error(node, f"expected an object, found {_describe(value)}")
        return None

    def _same(self, left: Val, right: Val, op: str, node) -> Val:
        if (
            left.cls
            and right.cls
            and not (self.model.is_subclass(left.cls, right.cls) or self.model.is_subclass(right.cls, left.cls))
        ):
            return self.error(node, f"a {left.cls} is never a {right.cls}")
        a, b = self._key(left, node, right.cls), self._key(right, node, left.cls)
        if a is None or b is None:
            return Val("scalar", sql="null", type="boolean")
        (a_sql, a_many), (b_sql, b_many) = a, b
        if a_many or b_many:
            single, many = (a_sql, b_sql) if b_many else (b_sql, a_sql)
            sql = f"{single} in {many}"
        elif "null" in (a_sql, b_sql):
            sql = f"{b_sql if a_sql == 'null' else a_sql} is null"
        else:
            sql = f"{a_sql} is not distinct from {b_sql}"
        return Val("scalar", sql=f"({sql})" if op == "==" else f"(not ({sql}))", type="boolean")

    def _is_a(self, obj: Val, class_name: str, node) -> str:
        """SQL: ``obj`` is a ``class_name`` (or of a subclass)."""
        if obj.keys:  # a reference to one of several classes: that one's key is set
            chosen = self._chosen_key(obj, class_name)
            if chosen is None:
                return "false"
            owner = next(name for name, sql in obj.keys.items() if sql == chosen)
            test = self._is_a(Val("object", sql=chosen, cls=owner), class_name, node)
            return f"({chosen} is not null and {test})"
        static = obj.cls if obj.kind != "unique" else obj.src.element
        if static is None:
            return "false"
        if self.model.is_subclass(static, class_name):
            return "true"
        if not self.model.is_subclass(class_name, static):
            return "false"
        found = self._relation(class_name, node)
        if found is None:
            return "null"
        relation, key, filters, _ = found
        if obj.kind == "row" and self.model.mapping(static).sql == relation:  # a row of its relation
            return " and ".join(f"({f.replace('{row}', obj.sql)})" for f in filters) or "true"
        alias = self._alias("o")
        own = self._key(obj, node)
        if own is None:
            return "null"
        tests = [f.replace("{row}", alias) for f in filters]
        if own[0].startswith("(select "):  # a key read by a subquery: not nested in another one
            where = f" where {' and '.join(tests)}" if tests else ""
            return f"coalesce({own[0]} in (select {alias}.{key} from {relation} as {alias}{where}), false)"
        where = " and ".join([f"{alias}.{key} = {own[0]}", *tests])
        return f"exists (select 1 from {relation} as {alias} where {where})"

    def _attribute(self, node, env) -> Val:
        base = self.expr(node.children[0], env)
        name = str(node.children[1])
        if base.kind == "error":
            return ERROR
        if base.kind not in ("row", "object", "unique"):
            return self.error(node, f"{_describe(base)} has no attribute '{name}'")
        cls = base.cls if base.kind != "unique" else base.src.element
        narrowed = env.get(("narrow", _source(self.text, node.children[0]).lower()))
        if narrowed is not None and self.model.is_subclass(narrowed, cls):
            base, cls = self._as(base, narrowed), narrowed
        if base.keys:  # a reference to one of several classes: the one it was narrowed to
            chosen = self._chosen_key(base, cls)
            if chosen is None:
                return self.error(node, f"'{name}': test which class this {cls} is first (typeof(...) == C AND ...)")
            base = Val("object", sql=chosen, cls=cls)
        attribute = self.model.attribute(cls, name)
        if attribute is None:
            return self.error(
                node.children[1] if hasattr(node.children[1], "line") else node,
                f"class {cls} has no attribute '{name}'",
            )
        mapping = self.model.mapping(cls)
        how = (mapping.attributes if mapping else {}).get(name.lower())
        if how is None:
            return self.error(node, f"{cls}.{attribute.name} is not supplied by cosydb (supplied_data.yaml)")
        self._require(mapping.requires)
        if isinstance(attribute.type, SetOf):
            return self._set_attribute(base, attribute, how, node)
        if isinstance(how, str):
            how = {"column": how}
        self._require(how.get("requires"))  # what reading this attribute needs (a machine constant)
        if how.get("row"):  # an object whose attributes are columns of this row (HPFRegionSummary.sums)
            return self._same_row(base, self.model.cls(how["row"]).name, node)
        if how.get("keys"):  # a reference to one of several classes, each with its key column
            keys = {self.model.cls(k).name: self._read(base, f"{{row}}.{c}", mapping) for k, c in how["keys"].items()}
            return Val("object", sql="", cls=attribute.type, keys=keys)
        expression = how.get("sql") or f"{{row}}.{how['column']}"
        if how.get("param"):  # a catalog parameter its SQL reads as {param}
            param = dict(how["param"])
            name = param.pop("name")
            self.params[name] = param
            expression = expression.replace("{param}", f"${name}")
        value = self._read(base, expression, mapping)
        if how.get("class"):  # a reference: to the class cosydb supplies (FuncCall for a Region)
            supplied = self.model.cls(how["class"]).name
            declared = attribute.type if isinstance(attribute.type, str) and self.model.cls(attribute.type) else None
            return Val(
                "object",
                sql=value,
                cls=declared if declared and not self.model.is_subclass(supplied, declared) else supplied,
            )
        vtype = attribute.type if attribute.type in ("int", "float", "boolean", "String", "DateTime") else "String"
        if how.get("several"):  # several values: a subquery over the row, compared by membership
            if base.kind != "row":
                return self.error(
                    node, f"{cls}.{attribute.name} has several values: read it of a context or set element"
                )
            return Val("scalar", sql=value, type=vtype, many=True)
        query = (base.src, _any_value(base.src, expression)) if base.kind == "unique" else None
        return Val("scalar", sql=value, type=vtype, query=query)

    def _same_row(self, base: Val, cls: str, node) -> Val:
        """The object of class ``cls`` made of the row of ``base`` (its attributes: columns of it)."""
        if base.kind == "row":
            return Val("row", sql=base.sql, cls=cls)
        if base.kind == "unique":
            src = base.src
            return Val("unique", src=Source(src.relation, src.alias, src.where, cls, src.joins))
        return self.error(node, f"a {cls} of {_describe(base)} is read of a context or a set's element only")

    def _as(self, value: Val, cls: str) -> Val:
        """``value`` read as a ``cls`` (a subclass of its class, as typeof found it, or as a
        function's parameter takes it): a row of another relation than cls's is the object
        its key names."""
        if value.kind == "row" and self.model.mapping(value.cls).sql != self.model.mapping(cls).sql:
            return Val("object", sql=f"{value.sql}.{self.model.mapping(value.cls).key}", cls=cls)
        if value.kind in ("row", "object") and not value.keys:
            return Val(value.kind, sql=value.sql, cls=cls, many=value.many)
        return value

    def _read(self, base: Val, expression: str, mapping) -> str:
        """SQL of an expression over the row of ``base`` ({row})."""
        if base.kind == "row":
            return expression.replace("{row}", base.sql)
        if base.kind == "unique":
            return f"({base.src.rows(_any_value(base.src, expression))})"
        alias = self._alias("o")
        inner = expression.replace("{row}", alias)
        rows = f"select any_value({inner}) from {mapping.sql} as {alias}"
        if base.baseline:  # the --baseline experiment: its tables (and its one row of experiments)
            return "(" + rows.replace("{ref:", "{baseline:") + ")"
        if not mapping.key or not base.sql:  # the Experiment: the one row of its relation
            return f"({rows})"
        return f"({rows} where {alias}.{mapping.key} = {base.sql})"

    def _set_attribute(self, base: Val, attribute, how, node) -> Val:
        """A set attribute: the objects of its element class ``how`` relates to ``base`` (its
        ``where``, over ``{item}`` and ``{row}``, base's row, each column of which is read
        through base where that is no row). In the body of a function whose type is a class
        (``HPFRegionSummary summary(...)``), a set of a superclass of it holds that class's
        objects (``e.profile``, Appendix B's setof RegionSummary, holds the HPF summaries)."""
        element = attribute.type.element
        if isinstance(how, dict) and "set" in how:
            element = how["set"]
        expected, declared = self.expected[-1], attribute.type.element
        if isinstance(declared, str) and expected and self.model.is_subclass(expected, declared):
            element = expected
        if base.baseline or (base.kind == "unique" and base.src.relation.startswith("{relb:")):
            return self._baseline_set(base, element, attribute, node)
        found = self._relation(element, node)
        if found is None:
            return ERROR
        relation, _, filters, _ = found
        alias = self._alias(attribute.name)
        where = [f.replace("{row}", alias) for f in filters]
        condition = how.get("where", "true") if isinstance(how, dict) else "true"
        if condition != "true":
            if base.kind == "row":
                over = condition.replace("{row}", base.sql)
            else:  # each column of base's row read through it
                cls = base.cls if base.kind != "unique" else base.src.element
                mapping = self.model.mapping(cls)
                over = re.sub(
                    r"\{row\}\.(\w+)", lambda m: self._read(base, f"{{row}}.{m.group(1)}", mapping), condition
                )
            where.append(over.replace("{item}", alias))
        return Val("set", src=Source(relation, alias, where, element))

    def _baseline_set(self, base: Val, element: str, attribute, node) -> Val:
        """A set attribute of the --baseline experiment (``seq.profile``): its element class's
        objects there (its mapping's ``baseline`` relation, whose references hold the loaded
        experiment's keys: a region by its call path's path)."""
        if not base.baseline:
            what = _describe(base).removeprefix("a ")
            return self.error(node, f"{attribute.name} of the baseline experiment's {what} is not supplied")
        mapping = self.model.mapping(element)
        if mapping is None or not mapping.baseline:
            return self.error(node, f"class {element} is not supplied for the baseline experiment (supplied_data.yaml)")
        self._require(mapping.requires)
        alias = self._alias(attribute.name)
        where = [f.replace("{row}", alias) for f in mapping.filters]
        return Val("set", src=Source(mapping.baseline_sql, alias, where, element))

    def _set_builder(self, node, env) -> Val:
        parts = list(node.children)
        projection = (
            parts.pop(0).children[0] if isinstance(parts[0], lark.Tree) and parts[0].data == "projection" else None
        )
        variable, domain = str(parts[0]), self._domain(parts[1], env, str(parts[0]))
        predicate = parts[2].children[0] if len(parts) > 2 else None
        if domain is None:
            return ERROR
        src, scope = self._bind(variable, domain, env)
        where = [self.boolean(predicate, scope)] if predicate is not None else []
        if projection is None:
            return Val("set", src=Source(src.relation, src.alias, [*src.where, *where], src.element, src.joins))
        value = self.expr(projection, scope)
        if value.kind != "scalar":
            return self.error(projection, f"a set of values holds numbers or strings, not {_describe(value)}")
        relation = f"({src.rows(f'{value.sql} as value', where)})"
        return Val("set", src=Source(relation, self._alias(variable), [], value.type))

    def _bind(self, variable: str, src: Source, env) -> tuple[Source, dict]:
        """The rows of ``src`` under a fresh alias for ``variable``, and the scope naming it."""
        src = src.rebind(self._alias(variable))
        self.bound[src.alias] = src
        scope = dict(env)
        if isinstance(src.element, str) and self.model.cls(src.element) is not None:
            scope[variable.lower()] = Val("row", sql=src.alias, cls=src.element)
        else:
            scope[variable.lower()] = Val("scalar", sql=f"{src.alias}.value", type=src.element)
        return src, scope

    def _domain(self, node, env, ranging: str) -> Source | None:
        """The rows a variable ranges over; None (the problem reported) if ``node`` is no set."""
        domain = self.expr(node, env)
        if domain.kind == "error":
            return None
        if domain.kind != "set":
            self.error(node, f"{ranging} ranges over a set, not over {_describe(domain)}")
            return None
        return domain.src

    def _aggregate(self, node, env) -> Val:
        function, expr, variable, domain_node = node.children
        domain = self._domain(domain_node, env, str(variable))
        if domain is None:
            return ERROR
        src, scope = self._bind(str(variable), domain, env)
        value = self.expr(expr, scope)
        name = AGGREGATES[str(function).lower()]
        if value.kind == "error":
            return ERROR
        if value.kind != "scalar" and name != "count":
            return self.error(expr, f"{str(function).upper()} adds numbers, not {_describe(value)}")
        inner = value.sql if value.kind == "scalar" else "*"
        vtype = "int" if name == "count" else ("float" if name in ("avg", "stddev_pop") else value.type)
        aggregate = f"{name}({inner})"
        if name == "sum":  # of no element: 0 (of elements whose values are unknown: unknown)
            aggregate = f"case when count(*) = 0 then 0 else {aggregate} end"
        return Val("scalar", sql=f"({src.rows(aggregate)})", type=vtype, query=(src, aggregate))

    def _quantified(self, node, env) -> Val:
        """``FORALL/EXISTS/NEXISTS a, b IN S, c IN T SUCH THAT p``: (NOT) EXISTS over the rows
        of every set, each set read with the variables before it bound (T may read a and b)."""
        quantifier, *rangings, predicate = node.children
        scope, sources = env, []
        for ranging in rangings:
            variables, domain_node = ranging.children
            domain = self._domain(domain_node, scope, str(quantifier))
            if domain is None:
                return ERROR
            for variable in variables.children:
                src, scope = self._bind(str(variable), domain, scope)
                sources.append(src)
        condition = self.boolean(predicate, scope)
        froms = " cross join ".join(src.source() for src in sources)
        where = [w for src in sources for w in src.where]
        kind = str(quantifier).lower()
        if kind == "forall":
            where.append(f"not coalesce({condition}, false)")
        else:
            where.append(condition)
        rows = f"select 1 from {froms} where {' and '.join(where)}"
        sql = f"{'' if kind == 'exists' else 'not '}exists ({rows})"
        return Val("scalar", sql=f"({sql})", type="boolean")

    def _call(self, node, env) -> Val:
        name, arguments = str(node.children[0]), node.children[1].children
        lname = name.lower()
        bound = env.get(lname)
        if isinstance(bound, Val) and bound.kind == "signature":  # a template's parameter, unbound
            for argument in arguments:
                self.expr(argument, env)
            if bound.cls == "property":
                return Val("property", sql="", args=[])
            return self._symbol(bound.type, name)
        if isinstance(bound, Val) and bound.kind == "function":
            lname = bound.sql
        else:  # a property applied: a template's property parameter, or one by its name
            applied = bound.sql if isinstance(bound, Val) and bound.kind == "property" else None
            if applied or lname in self.properties:
                return Val("property", sql=applied or lname, args=[self.expr(a, env) for a in arguments])
        if lname in BUILTINS and lname not in self.functions:
            return self._builtin(lname, node, arguments, env)
        if lname == "pattern_matches":
            return self._pattern_matches(node, arguments, env)
        if lname in ("enterptr", "sendptr") and len(arguments) == 1:  # CRE's pointer attributes
            return self.expr(lark.Tree("attribute", [arguments[0], lark.Token("NAME", lname)]), env)
        if lname in self.model.sets:
            return self._supplied_set(lname, node, arguments, env)
        overloads = [d for d in self.functions.get(lname, []) if len(d.params) == len(arguments)]
        if not overloads:
            if lname in self.functions:
                arities = sorted({len(d.params) for d in self.functions[lname]})
                return self.error(
                    node, f"'{name}' takes {' or '.join(map(str, arities))} argument(s), given {len(arguments)}"
                )
            return self.error(node, f"unknown function '{name}'")
        definition = overloads[0]
        scope = {}
        for (ptype, pname, _), argument in zip(definition.params, arguments, strict=True):
            value = self.expr(argument, env)
            if value.kind in ("row", "object", "unique") and isinstance(ptype, str) and self.model.cls(ptype):
                own = value.cls if value.kind != "unique" else value.src.element
                if own and not (self.model.is_subclass(own, ptype) or self.model.is_subclass(ptype, own)):
                    self.error(argument, f"argument {pname} of '{definition.name}' is a {ptype}, given a {own}")
                elif own and own != self.model.cls(ptype).name and self.model.is_subclass(ptype, own):
                    value = self._as(value, self.model.cls(ptype).name)  # a Receive passed as an Event
            scope[pname.lower()] = value
        if definition.body is None:
            return ERROR
        returns = definition.type.element if isinstance(definition.type, SetOf) else definition.type
        returned = self.model.cls(returns) if isinstance(returns, str) else None
        self.expected.append(returned.name if returned is not None else None)
        try:
            return self.expr(definition.body, scope)
        finally:
            self.expected.pop()

    def _supplied_set(self, name: str, node, arguments, env) -> Val:
        """A set supplied_data.yaml defines as a function of its arguments (Rs(e, p))."""
        spec = self.model.sets[name]
        found = self._relation(spec["element"], node)
        if found is None:
            return ERROR
        relation, _, filters, _ = found
        alias = self._alias(name)

        def argument(match) -> str:
            index, attribute, column = int(match.group(1)), match.group(2), match.group(3)
            if index >= len(arguments):
                self.error(node, f"{name} takes {index + 1} or more arguments, given {len(arguments)}")
                return "null"
            if attribute:
                tree = lark.Tree("attribute", [arguments[index], lark.Token("NAME", attribute)])
                return self.numeric(tree, env)
            value = self.expr(arguments[index], env)
            if column:  # a column of the argument's row in its class's relation
                if value.kind not in ("row", "object") or value.keys:
                    self.error(node, f"argument {index + 1} of {name} is an event, not {_describe(value)}")
                    return "null"
                return self._read(value, f"{{row}}.{column}", self.model.mapping(value.cls))
            key = self._key(value, node)
            return key[0] if key else "null"

        where = re.sub(r"\{(\d+)(?:\.(\w+)|:(\w+))?\}", argument, spec["where"]).replace("{item}", alias)
        tests = [f.replace("{row}", alias) for f in filters]
        return Val("set", src=Source(relation, alias, [*tests, where], spec["element"]))

    def _pattern_matches(self, node, arguments, env) -> Val:
        """PATTERN_MATCHES(P(args), trace): the set of P's matches (report, section 3.3.5),
        one row per ROOT event of P's ROOTTYPE that its CONSTRAINT admits, its EXPORT
        attributes as columns; ``trace`` is the experiment's (the only one there is)."""
        applied = arguments[0] if arguments else None
        if len(arguments) != 2 or not (isinstance(applied, lark.Tree) and applied.data == "call"):
            return self.error(node, "PATTERN_MATCHES takes a pattern applied to its arguments and a trace")
        name = str(applied.children[0])
        pattern = self.patterns.get(name.lower())
        if pattern is None:
            return self.error(applied, f"unknown pattern '{name}'")
        params, given = _params(pattern.children[1]), applied.children[1].children
        if len(given) != len(params):
            return self.error(applied, f"pattern '{name}' takes {len(params)} argument(s), given {len(given)}")
        scope = {pname.lower(): self.expr(a, env) for (_, pname, _), a in zip(params, given, strict=True)}
        compiled = self._compile_pattern(pattern, scope)
        if compiled is None:
            return ERROR
        rows, match_class = compiled
        return Val("set", src=Source(rows, self._alias("match"), [], match_class))

    def _compile_pattern(self, pattern: lark.Tree, scope: dict) -> tuple[str, str] | None:
        """A pattern's matches as a subquery, and the class of its match objects (the
        EXPORT's name, or <pattern>Match), whose attributes it adds to the model."""
        name, parts = str(pattern.children[0]), list(pattern.children[2:])
        local = parts.pop(0).children if parts[0].data == "local_defs" else []
        roottype, instantiation, constraint, export = parts
        root_class = str(roottype.children[0])
        found = self._relation(root_class, roottype)
        if found is None:
            return None
        relation, _, filters, _ = found
        root = self._alias("root")
        scope = {**scope, "root": Val("row", sql=root, cls=self.model.cls(root_class).name)}
        for definition in [*local, *instantiation.children]:  # fractions: written where read
            d = _definition(definition)
            scope[d.name.lower()] = self.expr(d.body, scope)
        named = bool(export.children) and isinstance(export.children[0], lark.Token)
        columns, selected = {}, []
        for definition in export.children[1:] if named else export.children:
            d = _definition(definition)
            value = self.expr(d.body, scope)
            if d.type is None:
                self._untyped(d, value, "type name = expr;")
            if value.kind != "scalar":
                self.error(definition, f"an exported attribute is a number or a string, not {_describe(value)}")
                continue
            column = self._alias(f"x_{d.name}")
            columns[d.name] = (d.type or value.type, column)
            selected.append(f"{value.sql} as {column}")
        match_class = str(export.children[0]) if named else f"{name}Match"
        self.model = self.model.extended(match_class, columns)
        where = [f.replace("{row}", root) for f in filters] + [self.boolean(constraint.children[0], scope)]
        rows = f"(select {', '.join(selected) or '1 as one'} from {relation} as {root} where {' and '.join(where)})"
        return rows, match_class

    def _builtin(self, name: str, node, arguments, env) -> Val:
        if name == "exp" and len(arguments) == 2:  # the report's EXP(x, 2): x squared
            base, exponent = self.numeric(arguments[0], env), self.numeric(arguments[1], env)
            self.reading(node, "EXP(x, n) read as x to the power n (EXP of one argument: e to the power x)")
            return Val("scalar", sql=f"power({base}, {exponent})", type="float")
        if len(arguments) != 1:
            return self.error(node, f"{name.upper()} takes one argument, given {len(arguments)}")
        value = self.expr(arguments[0], env)
        if value.kind == "error":
            return ERROR
        if name == "unique":
            if value.kind != "set":
                return self.error(node, f"UNIQUE selects from a set, not from {_describe(value)}")
            if isinstance(value.src.element, str) and self.model.cls(value.src.element):
                return Val("unique", src=value.src)
            src = value.src
            return Val("scalar", sql=f"({src.rows(f'any_value({src.alias}.value)')})", type=src.element)
        if name == "typeof":
            if value.kind not in ("row", "object", "unique"):
                return self.error(node, f"typeof asks the class of an object, not of {_describe(value)}")
            return Val("typeof", args=[value])
        if name in ("condition", "confidence", "severity"):
            if value.kind != "property":
                return self.error(node, f"{name}() reads a property applied to its context, not {_describe(value)}")
            return self._property_part(name, value, node)
        if name in ("sqrt", "exp", "abs"):
            if value.kind != "scalar" or value.type not in NUMERIC:
                return self.error(node, f"{name.upper()} takes a number, not {_describe(value)}")
            return Val("scalar", sql=f"{name}({value.sql})", type="float")
        return self.error(node, f"{name.upper()} is not supported yet")

    def _property_part(self, part: str, applied: Val, node) -> Val:
        if not applied.sql:  # a template's property parameter, unbound
            return Val("scalar", sql="null", type="boolean" if part == "condition" else "float")
        prop = self.properties.get(applied.sql)
        if prop is None:
            return self.error(node, f"unknown property '{applied.sql}'")
        if len(applied.args) != len(prop.params):
            return self.error(node, f"'{prop.name}' takes {len(prop.params)} argument(s), given {len(applied.args)}")
        alias = self._alias("m")
        where = []
        event = self._event_context(prop)
        for (ptype, pname, _), value in zip(prop.params, applied.args, strict=True):
            if value.kind == "error":
                return ERROR
            if self.model.parameter(pname) or self.model.is_subclass(ptype, "Experiment"):
                continue
            if self._event_columns(ptype):  # an event: its row by its key
                key = self._key(value, node)
                if key is None:
                    return ERROR
                where.append(f"{alias}.event_key = {key[0]}")
                continue
            if value.kind == "row" and not self.model.is_subclass(value.cls, ptype):
                return self.error(node, f"'{prop.name}': its parameter {pname} is a {ptype}, given a {value.cls}")
            relation = self._relation(ptype, node)
            if relation is None:
                return ERROR
            column = relation[3]
            key = self._key(value, node)
            if column is None or key is None:
                return self.error(node, f"'{prop.name}': its parameter {pname} is no context of its rows")
            where.append(f"{alias}.{column} is not distinct from {key[0]}")
        for column in ("callpath_id", "region_id", "location_id"):
            if column not in event and not any(w.startswith(f"{alias}.{column} ") for w in where):
                where.append(f"{alias}.{column} is null")
        vtype = "boolean" if part == "condition" else "float"
        table = _instances(prop.name) if event else prop.name
        sql = f"(select any_value({alias}.{part}) from {{ref:{table}}} as {alias} where {' and '.join(where)})"
        # at a row of a set a variable ranges over (FORALL p IN e.processes ...), Spark reads
        # the property's row joined to it: the subquery would nest in the one over the set,
        # and Spark resolves an outer column one level out only (DuckDB joins no outer column)
        ranging = next((self.bound[v.sql] for v in applied.args if v.kind == "row" and v.sql in self.bound), None)
        if ranging is None:
            return Val("scalar", sql=sql, type=vtype)
        on = " and ".join(where)
        pattern = re.escape(on).replace(re.escape(f"{alias}."), r"\1\.")
        joined = re.compile(rf"left join \{{ref:{re.escape(table)}\}} as (\w+) on {pattern}$")
        found = next((m for m in map(joined.match, ranging.joins) if m), None)  # another part's row
        if found is None:
            ranging.joins.append(f"left join {{ref:{table}}} as {alias} on {on}")
        return Val("scalar", sql=_on_spark(f"{found.group(1) if found else alias}.{part}", sql), type=vtype)


# -- helpers ------------------------------------------------------------------------------

#: The rows of a property of an event (an Exit: a region instance), per event.
INSTANCE_COLUMNS = {
    "callpath_id": "BIGINT",
    "region_id": "BIGINT",
    "location_id": "BIGINT",
    "condition_id": "VARCHAR",
    "condition": "BOOLEAN",
    "confidence": "DOUBLE",
    "severity": "DOUBLE",
    "value": "DOUBLE",
    "details": "VARCHAR",
    "event_key": "VARCHAR",
}


def _unsaid(_node, _text: str) -> None:
    """A reading or error of another specification, which its own check says."""


def _instances(name: str) -> str:
    """The name of the pattern holding a property of an event's rows per event."""
    return f"{name}Instances"


def _most_severe(instances: str) -> str:
    """A property of an event per call path and location (the result row names no event),
    where it has a value at one of the events (a cache miss count: the instance has counter
    records): it holds where it holds at one of them; confidence, severity and value are
    the most severe event's where it holds (else of all), details how many events there are
    and hold."""
    return _jinja(
        "select\n"
        "    callpath_id,\n"
        "    region_id,\n"
        "    location_id,\n"
        "    null::varchar as condition_id,\n"
        "    bool_or(coalesce(condition, false)) as condition,\n"
        "    coalesce(max(confidence) filter (where condition), max(confidence)) as confidence,\n"
        "    coalesce(max(severity) filter (where condition), max(severity)) as severity,\n"
        "    coalesce(arg_max(value, severity) filter (where condition), arg_max(value, severity)) as value,\n"
        "    json_object('events', count(*), 'holding', count(*) filter (where condition))::varchar as details\n"
        f"from {{ref:{instances}}}\n"
        "group by callpath_id, region_id, location_id\n"
        "having count(value) > 0"
    )


def _position(node) -> tuple[int, int]:
    if isinstance(node, lark.Token):
        return node.line or 1, node.column or 1
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return meta.line, meta.column
    for child in getattr(node, "children", []):
        line, column = _position(child)
        if (line, column) != (1, 1):
            return line, column
    return 1, 1


def _source(text: str, node) -> str:
    meta = node.meta if isinstance(node, lark.Tree) else None
    if meta is None or meta.empty:
        return str(node)
    return text[meta.start_pos : meta.end_pos]


def _params(node) -> list:
    """(type, name, node) of each parameter (one left untyped is reported: ``readings.leniently``)."""
    return [(type_of(p.children[0]), str(p.children[1]), p) for p in node.children if p.data == "param"]


def _definition(node: lark.Tree) -> Definition:
    children = list(node.children)
    dtype = (
        type_of(children.pop(0)) if isinstance(children[0], lark.Tree) and children[0].data.endswith("_type") else None
    )
    name = str(children.pop(0))
    params = (
        _params(children.pop(0))
        if children and isinstance(children[0], lark.Tree) and children[0].data == "params"
        else []
    )
    return Definition(name, dtype, params, children[0] if children else None, node)


def _conjuncts(node) -> list:
    """The top-level operands of a conjunction (the node itself if it is none)."""
    if isinstance(node, lark.Tree) and node.data == "and_expr":
        return [c for child in node.children for c in _conjuncts(child)]
    return [node]


def _typeof_test(node) -> tuple | None:
    """(the tested expression's node, the class name) of ``typeof(x) == Class``, else None."""
    if not (isinstance(node, lark.Tree) and node.data == "comparison" and str(node.children[1]) == "=="):
        return None
    call, cls = node.children[0], node.children[2]
    if not (isinstance(call, lark.Tree) and call.data == "call" and str(call.children[0]).lower() == "typeof"):
        return None
    if not (isinstance(cls, lark.Tree) and cls.data == "name") or len(call.children[1].children) != 1:
        return None
    return call.children[1].children[0], str(cls.children[0])


def _is_context_guard(node, contexts: set, model: DataModel) -> bool:
    """A test of what the context is, not of what was measured there: it reads only
    context parameters, their attributes (r.CalledFunc.Name), typeof, literals and names
    of classes, enum values and MPI functions; no function call, set or aggregate. Such a conjunct of
    every condition delimits the property's rows (a context that fails it is outside the
    property, as one outside its parameter's class; the catalog's properties of MPI
    calls have rows for those calls only) rather than being a condition that fails.
    ``contexts``: the names of the parameters that are contexts (lower case)."""

    def static(n) -> bool:
        if isinstance(n, lark.Token):
            return True
        if n.data in ("comparison", "or_expr", "and_expr", "not_", "string", "number"):
            return all(static(c) for c in n.children)
        if n.data == "attribute":
            return static(n.children[0])
        if n.data == "name":
            return True  # a context, a class or an enum value (anything else is no guard: checked below)
        if n.data == "call" and str(n.children[0]).lower() == "typeof":
            return all(static(c) for c in n.children[1].children)
        return False

    def names(n) -> set:
        if isinstance(n, lark.Token):
            return set()
        if n.data == "name":
            return {str(n.children[0]).lower()}
        if n.data == "attribute":
            return names(n.children[0])
        return {x for c in n.children for x in names(c)}

    if not (isinstance(node, lark.Tree) and static(node)):
        return False
    read = names(node)
    return bool(read & contexts) and all(
        n in contexts or n in model.classes or n in model.enum_values or n in mpi_functions(lower=True) for n in read
    )


def _cond_id(node) -> str:
    token = node.children[0] if isinstance(node, lark.Tree) else node
    return str(token).strip("() \t\n")


def _condition_id(cond_id: str | None, valued: str | None) -> str:
    """SQL of a row's condition_id: its condition's id, and the value of a context of values
    (``valued``: SQL) after it (``Cond1:x``, or ``x`` without an id)."""
    if valued is None:
        return _string(cond_id)
    return f"{_string(cond_id + ':')} || {valued}" if cond_id else valued


def _string(value) -> str:
    return "null" if value is None else "'" + str(value).replace("'", "''") + "'"


def _describe(value: Val) -> str:
    if value.kind == "scalar":
        return f"a {value.type} value"
    if value.kind in ("row", "object"):
        return f"a {value.cls}"
    if value.kind == "unique":
        return f"a {value.src.element}"
    if value.kind == "set":
        return f"a set of {value.src.element}"
    if value.kind == "class":
        return f"the class {value.cls}"
    return value.kind


def _on_spark(spark: str, other: str) -> str:
    """SQL that is ``spark`` where the catalog renders for Spark, else ``other``."""
    return "{% if engine == 'spark' %}" + spark + ("{% else %}" + other if other else "") + "{% endif %}"


def _any_value(src: Source, expression: str) -> str:
    """The aggregate reading ``expression`` ({row}) of a one-element set's element."""
    return "any_value(" + expression.replace("{row}", src.alias) + ")"


def _cte(owner: str, kind: str = "rel") -> str:
    """The CTE name of a class's subquery relation: RegionSummary -> asl_region_summary (of the
    baseline experiment, kind relb: asl_region_summary_baseline)."""
    name = "asl_" + re.sub(r"(?<!^)(?=[A-Z])", "_", owner).lower()
    return name + "_baseline" if kind == "relb" else name


def _jinja(sql: str) -> str:
    """{ref:name} placeholders as the catalog's ref() calls, {baseline:name} as baseline_ref()."""
    sql = re.sub(r"\{baseline:(\w+)\}", lambda m: "{{ baseline_ref('" + m.group(1) + "') }}", sql)
    return re.sub(r"\{ref:(\w+)\}", lambda m: "{{ ref('" + m.group(1) + "') }}", sql)


def check(path: str | Path, text: str, shared: list[tuple] = ()) -> list[AslError]:
    """Every problem of an ASL specification (a syntax error stops at the first); ``shared``:
    as ``Compiler``'s."""
    return checked(path, text, shared)[0]


def checked(path: str | Path, text: str, shared: list[tuple] = ()) -> tuple[list[AslError], list[Reading]]:
    """Every problem of an ASL specification, as ``check``, and every place it is read as the
    report writes it, not as its grammar does (``Reading``), each in the order of the text."""
    try:
        compiler = Compiler(path, text, shared=shared)
    except AslError as error:
        return [error], []
    compiler.compile()
    unique = {(e.line, e.column, e.problem): e for e in compiler.errors}  # a template's, once
    return [unique[key] for key in sorted(unique)], in_order(compiler.readings)


def compile_text(path: str | Path, text: str, shared: list[tuple] = ()) -> tuple[list[Entry], list[Reading]]:
    """The entries of an ASL specification and the places read as the report writes them;
    its first problem raises ``AslError``. ``shared``: as ``Compiler``'s."""
    compiler = Compiler(path, text, shared=shared)
    entries = compiler.compile()
    if compiler.errors:
        raise min(compiler.errors, key=lambda e: (e.line, e.column))
    return entries, in_order(compiler.readings)
