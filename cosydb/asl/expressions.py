"""The expressions of a unit, each checked and translated to a ``Val``: names resolved (a
function or constant inlined where it is used, by its arity), types checked, and the SQL
of operators, comparisons, sets, aggregates, quantifiers and calls."""

from __future__ import annotations

import re

import lark

from . import metaproperties, patterns
from .declarations import Definition, Specification, params
from .model import PRIMITIVES, SetOf
from .objects import Objects
from .query import Query
from .readings import mpi_functions, spelling
from .values import ERROR, Source, Val, describe, sql_string

NUMERIC = {"int", "float"}
AGGREGATES = {"sum": "sum", "count": "count", "max": "max", "min": "min", "avg": "avg", "stdev": "stddev_pop"}
#: Functions of the language itself (report §3.1) and of arithmetic.
BUILTINS = {"unique", "union", "intersection", "typeof", "condition", "confidence", "severity", "sqrt", "exp", "abs"}


class Expressions:
    """The translator of one unit's expressions (a property, or a function, pattern or
    template checked on its own): what its SQL collects is ``query``; an expression is
    translated by the method named after its grammar rule (``_comparison``)."""

    def __init__(self, spec: Specification):
        self.spec = spec
        self.query = Query()
        self.objects = Objects(spec, self.query)
        self.error, self.reading = spec.problems.error, spec.problems.reading
        self.let_values: dict = {}  # the LET constants translated so far: id(definition) -> Val
        self.expected: list = [None]  # the class of the function whose body is translated (None: no class)
        self.names: dict[str, str] = {}  # the parameters of the property translated, by lower-case name

    @property
    def model(self):
        return self.spec.model

    def symbol(self, ptype, pname: str) -> Val:
        """A parameter of a definition checked on its own: a row of its class, or a value."""
        if isinstance(ptype, str) and self.model.cls(ptype) is not None:
            return Val("row", sql=self.query.alias(pname), cls=self.model.cls(ptype).name)
        if isinstance(ptype, SetOf):
            return Val("set", src=Source("(select 1)", self.query.alias(pname), [], ptype.element))
        return Val("scalar", sql="null", type=ptype)

    def untyped(self, definition: Definition, value: Val, form: str) -> None:
        """A definition without a type (the report's cost functions): its expression's, if that
        is a value of a primitive type (int, float, ...), else an error."""
        if value.kind == "scalar" and value.type in PRIMITIVES.values():
            definition.type = value.type
            self.reading(definition.node, f"'{definition.name}' has no type: read as {value.type}, its expression's")
        elif value.kind != "error":
            self.error(definition.node, f"'{definition.name}' has no type (a definition is '{form}')")

    def boolean(self, node, env) -> str:
        """The SQL of a condition."""
        value = self.expr(node, env)
        if value.kind == "error":
            return "null"
        if value.kind != "scalar" or value.type != "boolean":
            self.error(node, f"expected a condition (boolean), found {describe(value)}")
            return "null"
        return value.sql

    def numeric(self, node, env) -> str:
        """The SQL of a number."""
        value = self.expr(node, env)
        if value.kind == "error":
            return "null"
        if value.kind != "scalar" or value.type not in NUMERIC:
            self.error(node, f"expected a number, found {describe(value)}")
            return "null"
        return value.sql

    def expr(self, node, env) -> Val:
        """The value of an expression; ``env``: what its names are bound to."""
        method = getattr(self, f"_{node.data}", None) if isinstance(node, lark.Tree) else None
        if method is None:
            return self.error(node, f"{getattr(node, 'data', node)} is not supported yet")
        return method(node, env)

    def _number(self, node, env) -> Val:
        text = str(node.children[0])
        return Val("scalar", sql=text, type="float" if re.search(r"[.eE]", text) else "int")

    def _string(self, node, env) -> Val:
        return Val("scalar", sql=sql_string(str(node.children[0])[1:-1]), type="String")

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
                    alias = self.query.alias(definition.name)
                    self.query.lets.append(
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
                param = {"default": spec["default"], "type": sql_type, "doc": spec["doc"]}
                self.query.params[spec["parameter"]] = param
                return Val("scalar", sql=f"${spec['parameter']}", type=spec["type"])
            return Val("scalar", sql=str(spec["sql"]), type=spec["type"])
        if self.model.cls(name) is not None:
            return Val("class", cls=self.model.cls(name).name)
        if name.lower() in self.model.sets:  # a supplied set of no arguments (TRACE)
            return self._supplied_set(name.lower(), node, [], env)
        if name.lower() in self.model.enum_values:
            return Val("scalar", sql=sql_string(name), type=self.model.enum_values[name.lower()])
        if name.lower() in self.spec.functions:
            overloads = self.spec.functions[name.lower()]
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
            alias = self.query.alias("function")
            where = [f.replace("{row}", alias) for f in mapping.filters]
            where.append(f"{alias}.{mapping.attributes['name']} = {sql_string(name)}")
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
        return Val("scalar", sql="(" + " and ".join(self.conjunction(node.children, env)) + ")", type="boolean")

    def conjunction(self, conjuncts, env) -> list[str]:
        """The SQL of each conjunct, those after ``typeof(x) == C`` reading x as a C."""
        parts = []
        for child in conjuncts:
            parts.append(self.boolean(child, env))
            narrowed = _typeof_test(child)
            if narrowed is not None and self.model.cls(narrowed[1]) is not None:
                env = {**env, ("narrow", self.spec.source(narrowed[0]).lower()): self.model.cls(narrowed[1]).name}
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
            Val("scalar", sql=sql_string(v.cls), type=self.model.enum_values[v.cls.lower()])
            if v.kind == "class" and other.kind == "scalar" and v.cls.lower() in self.model.enum_values
            else v
            for v, other in ((left, right), (right, left))
        )
        # an unquoted MPI function's name compared with a String: that name; with a call: the
        # function it calls (enterptr(ROOT).region == MPI_Recv)
        left, right = (
            Val("scalar", sql=sql_string(v.named), type="String") if v.named and other.kind == "scalar" else v
            for v, other in ((left, right), (right, left))
        )
        for side, (v, other) in enumerate(((left, right), (right, left))):
            if v.named and other.cls and self.model.is_subclass(other.cls, "FuncCall"):
                called = lark.Tree("attribute", [node.children[2 - 2 * side], lark.Token("NAME", "CalledFunc")])
                self.reading(node, f"{v.named} compared with a call: with the function it calls")
                left, right = (v, self.expr(called, env)) if side == 0 else (self.expr(called, env), v)
        if op in ("==", "!=") and {left.kind, right.kind} == {"typeof", "class"}:
            asked, cls = (left, right) if left.kind == "typeof" else (right, left)
            test = self.objects.is_a(asked.args[0], cls.cls, node)
            return Val("scalar", sql=test if op == "==" else f"not ({test})", type="boolean")
        if left.kind in ("object", "row") or right.kind in ("object", "row"):
            if op not in ("==", "!="):
                return self.error(node, f"objects compare only with == or !=, not {op}")
            return self.objects.same(left, right, op, node)
        if left.kind != "scalar" or right.kind != "scalar":
            return self.error(node, f"cannot compare {describe(left)} with {describe(right)}")
        if left.many or right.many:  # an attribute of several values: == v holds where v is one
            if op not in ("==", "!=") or (left.many and right.many):
                return self.error(node, "an attribute of several values compares with one value by == or != only")
            single, many = (right.sql, left.sql) if left.many else (left.sql, right.sql)
            test = f"coalesce({single} in {many}, false)"
            return Val("scalar", sql=f"({test})" if op == "==" else f"(not {test})", type="boolean")
        sql_op = {"==": "=", "!=": "<>"}.get(op, op)
        return Val("scalar", sql=f"({left.sql} {sql_op} {right.sql})", type="boolean")

    def _attribute(self, node, env) -> Val:
        base = self.expr(node.children[0], env)
        name = str(node.children[1])
        if base.kind == "error":
            return ERROR
        if base.kind not in ("row", "object", "unique"):
            return self.error(node, f"{describe(base)} has no attribute '{name}'")
        cls = base.cls if base.kind != "unique" else base.src.element
        narrowed = env.get(("narrow", self.spec.source(node.children[0]).lower()))
        if narrowed is not None and self.model.is_subclass(narrowed, cls):
            base, cls = self.objects.read_as(base, narrowed), narrowed
        return self.objects.attribute(base, cls, node, self.expected[-1])

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
            return self.error(projection, f"a set of values holds numbers or strings, not {describe(value)}")
        relation = f"({src.rows(f'{value.sql} as value', where)})"
        return Val("set", src=Source(relation, self.query.alias(variable), [], value.type))

    def _bind(self, variable: str, src: Source, env) -> tuple[Source, dict]:
        """The rows of ``src`` under a fresh alias for ``variable``, and the scope naming it."""
        src = src.rebind(self.query.alias(variable))
        self.query.bound[src.alias] = src
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
            self.error(node, f"{ranging} ranges over a set, not over {describe(domain)}")
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
            return self.error(expr, f"{str(function).upper()} adds numbers, not {describe(value)}")
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
        kind = str(quantifier).lower()
        variables = {str(v).lower() for ranging in rangings for v in ranging.children[0].children}
        # EXISTS x IN S SUCH THAT A(x) AND B is B AND EXISTS x IN S SUCH THAT A(x): B, which
        # reads no variable of the quantifier, is tested once, not at every row of S (the
        # conjuncts compiled in order: a typeof test of either part narrows those after it)
        conjuncts = conjuncts_of(predicate)
        hoisted, kept = [], []
        for conjunct, sql in zip(conjuncts, self.conjunction(conjuncts, scope), strict=True):
            (kept if kind == "forall" or names_read(conjunct) & variables else hoisted).append(sql)
        condition = "(" + " and ".join(kept or ["true"]) + ")"
        froms = " cross join ".join(src.source() for src in sources)
        where = [w for src in sources for w in src.where]
        if kind == "forall":
            where.append(f"not coalesce({condition}, false)")
        else:
            where.append(condition)
        rows = f"select 1 from {froms} where {' and '.join(where)}"
        # B in a subquery of one row: its subqueries nest as deep as inside, as Spark needs them
        # (cosydb.dialects decorrelates them the same way); unknown is false there as inside
        tests = [f"exists (select 1 from (select 1) as one where {' and '.join(hoisted)})"] if hoisted else []
        sql = " and ".join([*tests, f"exists ({rows})"])
        return Val("scalar", sql=f"({'' if kind == 'exists' else 'not '}({sql}))", type="boolean")

    def _call(self, node, env) -> Val:
        name, arguments = str(node.children[0]), node.children[1].children
        lname = name.lower()
        bound = env.get(lname)
        if isinstance(bound, Val) and bound.kind == "signature":  # a template's parameter, unbound
            for argument in arguments:
                self.expr(argument, env)
            if bound.cls == "property":
                return Val("property", sql="", args=[])
            return self.symbol(bound.type, name)
        if isinstance(bound, Val) and bound.kind == "function":
            lname = bound.sql
        else:  # a property applied: a template's property parameter, or one by its name
            applied = bound.sql if isinstance(bound, Val) and bound.kind == "property" else None
            if applied or lname in self.spec.properties:
                return Val("property", sql=applied or lname, args=[self.expr(a, env) for a in arguments])
        if lname in BUILTINS and lname not in self.spec.functions:
            return self._builtin(lname, node, arguments, env)
        if lname == "pattern_matches":
            return self._pattern_matches(node, arguments, env)
        if lname in ("enterptr", "sendptr") and len(arguments) == 1:  # CRE's pointer attributes
            return self.expr(lark.Tree("attribute", [arguments[0], lark.Token("NAME", lname)]), env)
        if lname in self.model.sets:
            return self._supplied_set(lname, node, arguments, env)
        overloads = [d for d in self.spec.functions.get(lname, []) if len(d.params) == len(arguments)]
        if not overloads:
            if lname in self.spec.functions:
                arities = sorted({len(d.params) for d in self.spec.functions[lname]})
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
                    value = self.objects.read_as(value, self.model.cls(ptype).name)  # a Receive passed as an Event
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
        found = self.objects.relation(spec["element"], node)
        if found is None:
            return ERROR
        relation, _, filters, _ = found
        alias = self.query.alias(name)

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
                    self.error(node, f"argument {index + 1} of {name} is an event, not {describe(value)}")
                    return "null"
                return self.objects.read(value, f"{{row}}.{column}", self.model.mapping(value.cls))
            key = self.objects.key(value, node)
            return key[0] if key else "null"

        where = re.sub(r"\{(\d+)(?:\.(\w+)|:(\w+))?\}", argument, spec["where"]).replace("{item}", alias)
        tests = [f.replace("{row}", alias) for f in filters]
        return Val("set", src=Source(relation, alias, [*tests, where], spec["element"]))

    def _pattern_matches(self, node, arguments, env) -> Val:
        """PATTERN_MATCHES(P(args), trace): the set of P's matches (``patterns``); ``trace`` is
        the experiment's (the only one there is)."""
        applied = arguments[0] if arguments else None
        if len(arguments) != 2 or not (isinstance(applied, lark.Tree) and applied.data == "call"):
            return self.error(node, "PATTERN_MATCHES takes a pattern applied to its arguments and a trace")
        name = str(applied.children[0])
        pattern = self.spec.patterns.get(name.lower())
        if pattern is None:
            return self.error(applied, f"unknown pattern '{name}'")
        declared, given = params(pattern.children[1]), applied.children[1].children
        if len(given) != len(declared):
            return self.error(applied, f"pattern '{name}' takes {len(declared)} argument(s), given {len(given)}")
        scope = {pname.lower(): self.expr(a, env) for (_, pname, _), a in zip(declared, given, strict=True)}
        compiled = patterns.compile_pattern(self, pattern, scope)
        if compiled is None:
            return ERROR
        rows, match_class = compiled
        return Val("set", src=Source(rows, self.query.alias("match"), [], match_class))

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
                return self.error(node, f"UNIQUE selects from a set, not from {describe(value)}")
            if isinstance(value.src.element, str) and self.model.cls(value.src.element):
                return Val("unique", src=value.src)
            src = value.src
            return Val("scalar", sql=f"({src.rows(f'any_value({src.alias}.value)')})", type=src.element)
        if name == "typeof":
            if value.kind not in ("row", "object", "unique"):
                return self.error(node, f"typeof asks the class of an object, not of {describe(value)}")
            return Val("typeof", args=[value])
        if name in ("condition", "confidence", "severity"):
            if value.kind != "property":
                return self.error(node, f"{name}() reads a property applied to its context, not {describe(value)}")
            return metaproperties.part(self, name, value, node)
        if name in ("sqrt", "exp", "abs"):
            if value.kind != "scalar" or value.type not in NUMERIC:
                return self.error(node, f"{name.upper()} takes a number, not {describe(value)}")
            return Val("scalar", sql=f"{name}({value.sql})", type="float")
        return self.error(node, f"{name.upper()} is not supported yet")


def conjuncts_of(node) -> list:
    """The top-level operands of a conjunction (the node itself if it is none)."""
    if isinstance(node, lark.Tree) and node.data == "and_expr":
        return [c for child in node.children for c in conjuncts_of(child)]
    return [node]


def names_read(node) -> set[str]:
    """The names (lower case) that expression ``node`` reads: of objects, variables,
    parameters and classes, not of attributes (``r.CalledFunc.Name`` reads ``r``)."""
    if isinstance(node, lark.Token):
        return set()
    if node.data == "name":
        return {str(node.children[0]).lower()}
    if node.data == "attribute":
        return names_read(node.children[0])
    return {x for c in node.children for x in names_read(c)}


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
