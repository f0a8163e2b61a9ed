"""The first pass: a specification's items by name (its symbol table). Its definitions,
templates, properties, patterns and instantiations, after the prelude's and the shared
specifications' functions and templates; each problem of a name (defined twice, a template
unknown or given the wrong arguments) reported."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import lark

from .model import builtin, type_of
from .parser import parse
from .problems import Problems
from .readings import leniently
from .values import Val

#: The report's global definitions (Summary, Duration, ...), which every specification sees.
PRELUDE = Path(__file__).with_name("prelude.asl")


@dataclass
class Definition:
    """A function or constant (``type name(params) = body``); ``type`` None where it has none."""

    name: str
    type: object
    params: list  # [(type, name, node)]
    body: lark.Tree | None
    node: lark.Tree | None = None


@dataclass
class PropertyDef:
    """A property, a property template or an instantiation of a template (``bindings``)."""

    name: str
    params: list  # [(type, name, node)]
    body: lark.Tree
    node: lark.Tree
    template_params: list = field(default_factory=list)  # [("function"|"property", name, node)]
    source: str = ""
    bindings: dict = field(default_factory=dict)  # an instantiation's: template parameter -> Val


class Specification:
    """The items of an ASL specification by lower-case name, the data model it reads (with
    its patterns' match classes once compiled: ``patterns.compile_pattern``) and its
    problems. ``shared``: (path, text) of specifications read before this one, whose
    functions and templates it may use (after the prelude's); it may define its own of the
    same name instead. A syntax error raises ``AslError``."""

    def __init__(self, path: str | Path, text: str, shared: list[tuple] = ()):
        self.text = text
        self.model = builtin()
        self.functions: dict[str, list[Definition]] = {}
        self.templates: dict[str, PropertyDef] = {}
        self.properties: dict[str, PropertyDef] = {}
        self.patterns: dict[str, lark.Tree] = {}
        self.shared: set[int] = set()  # the ids of the functions and templates of other specifications
        # what those ids and the problems' own nodes name, alive as long as the specification:
        # an object that died (a shared function replaced) would leave its id to a new one
        self.alive: list = []
        self.texts: dict[int, str] = {}  # id of a node of another specification -> its file's text
        for shared_path, shared_text in [(PRELUDE, PRELUDE.read_text()), *shared]:
            self._share(shared_path, shared_text)
        tree = parse(text, path)
        self.problems = Problems(str(path), {id(node) for node in tree.iter_subtrees()})
        self.alive.append(tree)
        self._collect(leniently(tree, self.model.parameters, self.problems.reading, self.problems.error))

    def source(self, node) -> str:
        """The text of ``node`` in the file it was read from (a shared template's or function's
        node is at its position in its own file's text, not in this one's)."""
        return source(self.texts.get(id(node), self.text), node)

    def own(self, item) -> bool:
        """Whether a function or template is this specification's (not a shared one)."""
        return id(item) not in self.shared

    def _share(self, path: str | Path, text: str) -> None:
        """Take the functions and templates of another specification (the prelude, a file read
        before this one); its properties are its own. A function replaces an earlier one of
        the same name and number of parameters."""
        tree = leniently(parse(text, path), self.model.parameters, _unsaid, _unsaid)  # its own check's
        self.alive.append(tree)
        self.texts.update((id(node), text) for node in tree.iter_subtrees())
        for item in tree.children:
            if item.data == "definition":
                shared = definition(item)
                self._define(shared)
            elif item.data == "template":
                shared = self._property(item, text)  # a template keeps its own file's text
                self.templates[shared.name.lower()] = shared
            else:
                continue
            self.shared.add(id(shared))
            self.alive.append(shared)

    def _define(self, function: Definition) -> None:
        """Add a function; it replaces a shared one of the same name and number of parameters."""
        overloads = self.functions.setdefault(function.name.lower(), [])
        overloads[:] = [o for o in overloads if self.own(o) or len(o.params) != len(function.params)]
        overloads.append(function)

    def _collect(self, tree: lark.Tree) -> None:
        for item in tree.children:
            kind = item.data
            if kind == "definition":
                self._define(definition(item))  # one without a type: its expression's (compile)
            elif kind in ("property", "template"):
                prop = self._property(item, self.text)
                table = self.templates if kind == "template" else self.properties
                defined = table.get(prop.name.lower())
                if (defined is not None and self.own(defined)) or prop.name.lower() in self.properties:
                    self.problems.error(item, f"'{prop.name}' is defined twice")
                table[prop.name.lower()] = prop
            elif kind == "instantiation":
                self._instantiate(item)
            elif kind == "class_def":
                self.problems.error(
                    item, "a class of the data model belongs in the data model (cosydb/asl/data_model.asl)"
                )
            elif kind == "pattern":
                name = str(item.children[0])
                if name.lower() in self.patterns:
                    self.problems.error(item, f"'{name}' is defined twice")
                self.patterns[name.lower()] = item

    @staticmethod
    def _property(node: lark.Tree, text: str) -> PropertyDef:
        """A property or template of the specification whose text is ``text``."""
        children = list(node.children)
        name = str(children.pop(0))
        template_params = []
        if node.data == "template":
            for param in children.pop(0).children:
                kind = "function" if param.data == "function_param" else "property"
                pname = str(param.children[1] if kind == "function" else param.children[0])
                template_params.append((kind, pname, param))
        return PropertyDef(name, params(children.pop(0)), children.pop(0), node, template_params, source(text, node))

    def _instantiate(self, node: lark.Tree) -> None:
        template_name, arguments, name = str(node.children[0]), node.children[1].children, str(node.children[2])
        template = self.templates.get(template_name.lower())
        if template is None:
            self.problems.error(node, f"unknown property template '{template_name}'")
            return
        if len(arguments) != len(template.template_params):
            self.problems.error(
                node,
                f"template '{template.name}' takes {len(template.template_params)} argument(s), given {len(arguments)}",
            )
            return
        bound = {}
        for (kind, pname, _), argument in zip(template.template_params, arguments, strict=True):
            table = self.functions if kind == "function" else self.properties
            if str(argument).lower() not in table:
                what = "function" if kind == "function" else "property"
                self.problems.error(argument, f"unknown {what} '{argument}' for template parameter {pname}")
                return
            bound[pname.lower()] = Val(kind, sql=str(argument).lower())
        if name.lower() in self.properties:
            self.problems.error(node, f"'{name}' is defined twice")
        narrowed = self._narrowed(template, bound)
        params = [(narrowed.get(pname.lower(), ptype), pname, pnode) for ptype, pname, pnode in template.params]
        self.properties[name.lower()] = PropertyDef(
            name, params, template.body, node, [], source(self.text, node) + "\n" + template.source, bound
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


def _unsaid(_node, _text: str) -> None:
    """A reading or error of another specification, which its own check says."""


def source(text: str, node) -> str:
    """The text of ``node`` in ``text`` (a token's own)."""
    meta = node.meta if isinstance(node, lark.Tree) else None
    if meta is None or meta.empty:
        return str(node)
    return text[meta.start_pos : meta.end_pos]


def params(node) -> list:
    """(type, name, node) of each parameter (one left untyped is reported: ``readings.leniently``)."""
    return [(type_of(p.children[0]), str(p.children[1]), p) for p in node.children if p.data == "param"]


def definition(node: lark.Tree) -> Definition:
    """The ``Definition`` of a definition's syntax tree."""
    children = list(node.children)
    dtype = (
        type_of(children.pop(0)) if isinstance(children[0], lark.Tree) and children[0].data.endswith("_type") else None
    )
    name = str(children.pop(0))
    parameters = (
        params(children.pop(0))
        if children and isinstance(children[0], lark.Tree) and children[0].data == "params"
        else []
    )
    return Definition(name, dtype, parameters, children[0] if children else None, node)
