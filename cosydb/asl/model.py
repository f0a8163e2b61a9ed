"""The ASL data model (``data_model.asl``: classes, attributes, enums; the appendices'
paradigms in files of their own beside it, ``data_model_<paradigm>.asl``) and how cosydb
supplies it (``supplied_data.yaml``: a relation per class, a column or SQL per attribute).
Names are case-insensitive: every lookup takes the lower-cased name."""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from importlib import resources

import lark
import yaml

from ..errors import CosyError
from .parser import parse
from .readings import spelling

#: Class names the report uses but never declares, and the class they are read as:
#: MPIRegion types the parameters of Summary, Duration and ProcessProfiles (Appendix C),
#: which the report calls with FuncCalls, Functions and the rank basis, all Regions.
SYNONYMS = {"mpiregion": "region"}

PRIMITIVES = {"int": "int", "float": "float", "boolean": "boolean", "string": "String", "datetime": "DateTime"}


@dataclass(frozen=True)
class SetOf:
    """The type ``setof element``."""

    element: object


@dataclass
class Attribute:
    name: str
    type: object  # a primitive name, a class name (str) or SetOf
    line: int


@dataclass
class Class:
    name: str
    parent: str | None
    attributes: dict[str, Attribute] = field(default_factory=dict)
    enums: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Mapping:
    """Where a class's objects live: ``relation`` rows, identified by ``key``, filtered by
    ``where`` (SQL over ``{row}``); ``attributes``: name -> column or dict (see the YAML)."""

    relation: str
    key: str | None
    filters: list[str]  # which rows of relation are objects of the class: its and its superclasses' where
    attributes: dict
    owner: str = ""  # the class whose relation it is (a subclass inherits it)
    context: dict = field(default_factory=dict)  # an event as a context: result column -> its column
    baseline: str | None = None  # the relation of its objects in the --baseline experiment
    requires: list = field(default_factory=list)  # what an experiment must have (catalog.REQUIREMENTS)

    @property
    def sql(self) -> str:
        """The relation as SQL: a table or view of the catalog ({ref:name}), or a subquery,
        which a compiled property defines once, as the CTE {rel:owner} names."""
        return f"{{rel:{self.owner}}}" if self.relation.lstrip().startswith("(") else f"{{ref:{self.relation}}}"

    @property
    def baseline_sql(self) -> str:
        """The relation of the class's objects in the baseline experiment, a CTE ({relb:owner})."""
        return f"{{relb:{self.owner}}}"

    @property
    def result_column(self) -> str | None:
        """The column of a result row that names an object of this class (a context)."""
        return {"callpaths": "callpath_id", "region_classes": "region_id", "processes": "location_id"}.get(
            self.relation
        )


class DataModel:
    """The classes of the data model and their mappings."""

    def __init__(self, classes: dict[str, Class], supplied: dict):
        self.classes = classes
        self.enum_values: dict[str, str] = {}  # literal -> qualified enum type
        for cls in classes.values():
            for enum, values in cls.enums.items():
                for value in values:
                    self.enum_values[value.lower()] = f"{cls.name}.{enum}"
        self._mappings = {name.lower(): spec for name, spec in (supplied.get("classes") or {}).items()}
        self.constants = {name.lower(): spec for name, spec in (supplied.get("constants") or {}).items()}
        self.parameters = {name.lower(): spec for name, spec in (supplied.get("parameters") or {}).items()}
        self._parameter_names = {name.lower(): name for name in supplied.get("parameters") or {}}
        self.sets = {name.lower(): spec for name, spec in (supplied.get("sets") or {}).items()}

    def extended(self, name: str, columns: dict) -> DataModel:
        """This model with one more class, ``name``, whose attributes are columns of the rows
        that range over it: {attribute: (type, column)} (a pattern's match objects)."""
        model = copy.copy(self)
        model.classes = dict(self.classes)
        model.classes[name.lower()] = Class(
            name, None, {a.lower(): Attribute(a, t, 0) for a, (t, _) in columns.items()}
        )
        model._mappings = dict(self._mappings)
        model._mappings[name.lower()] = {
            "relation": "(select 1)",  # rows are the pattern's: they come with their source
            "attributes": {a: c for a, (_, c) in columns.items()},
        }
        return model

    def cls(self, name: str) -> Class | None:
        return self.classes.get(SYNONYMS.get(name.lower(), name.lower()))

    def ancestors(self, name: str) -> list[str]:
        """The class and its superclasses, nearest first."""
        chain, node = [], self.cls(name)
        while node is not None and node.name not in chain:
            chain.append(node.name)
            node = self.cls(node.parent) if node.parent else None
        return chain

    def is_subclass(self, name: str, of: str) -> bool:
        target = self.cls(of)
        return target is not None and target.name in self.ancestors(name)

    def attribute(self, class_name: str, name: str) -> Attribute | None:
        for ancestor in self.ancestors(class_name):
            attribute = self.classes[ancestor.lower()].attributes.get(name.lower())
            if attribute is not None:
                return attribute
        return None

    def mapping(self, class_name: str) -> Mapping | None:
        """The class's mapping, its attributes joined with its superclasses' (the nearest wins).
        A class whose objects are read only as an attribute of another's row (HPFSummary:
        ``{row: HPFSummary}``) has attributes and no relation (relation "")."""
        found, attributes, filters, requires = {}, {}, [], []
        for ancestor in reversed(self.ancestors(class_name)):
            spec = self._mappings.get(ancestor.lower())
            if spec is None:
                continue
            for name, how in (spec.get("attributes") or {}).items():
                attributes[name.lower()] = how
            if "relation" in spec:  # a relation of its own: not its parent's baseline
                found.pop("baseline", None)
            found.update({k: v for k, v in spec.items() if k in ("relation", "key", "context", "baseline")})
            if "relation" in spec:
                found["owner"] = self.cls(ancestor).name
            if spec.get("where"):
                filters.insert(0, spec["where"])
            requires += [r for r in spec.get("requires") or [] if r not in requires]
        if "relation" not in found:
            if not attributes:
                return None
            found.update(relation="", owner=self.cls(class_name).name)
        return Mapping(
            found["relation"],
            found.get("key"),
            filters,
            attributes,
            found["owner"],
            found.get("context") or {},
            found.get("baseline"),
            requires,
        )

    def parameter(self, name: str) -> tuple[str, dict] | None:
        """(the name it is given there, its spec) of a parameter of ``parameters:`` named
        ``name``, or in another spelling (``rank_basis`` for ``RankBasis``: ``readings.spelling``)
        where exactly one is."""
        if name.lower() in self.parameters:
            return self._parameter_names[name.lower()], self.parameters[name.lower()]
        near = [key for key in self.parameters if spelling(key) == spelling(name)]
        return (self._parameter_names[near[0]], self.parameters[near[0]]) if len(near) == 1 else None


def type_of(node: lark.Tree):
    """The type a type node names: a primitive's name, a class name or SetOf."""
    name = ".".join(str(t) for t in node.children[0].children)
    element = PRIMITIVES.get(name.lower(), name)
    return SetOf(element) if node.data == "set_type" else element


def _classes(tree: lark.Tree, classes: dict[str, Class] | None = None, path: str = "") -> dict[str, Class]:
    """The classes of a data model file, added to ``classes`` (a class declared twice is an error)."""
    classes = {} if classes is None else classes
    for item in tree.children:
        if not isinstance(item, lark.Tree) or item.data != "class_def":
            continue
        name = str(item.children[0])
        rest = item.children[1:]
        parent = None
        if rest and isinstance(rest[0], lark.Tree) and rest[0].data == "extends":
            parent = str(rest[0].children[0])
            rest = rest[1:]
        cls = Class(name, parent)
        for member in rest:
            if member.data == "attribute_def":
                cls.attributes[str(member.children[1]).lower()] = Attribute(
                    str(member.children[1]), type_of(member.children[0]), member.meta.line
                )
            else:  # enum_def
                cls.enums[str(member.children[0])] = [str(t) for t in member.children[1].children]
        if name.lower() in classes:
            raise CosyError(path, f"class {name} is declared twice")
        classes[name.lower()] = cls
    return classes


#: The data model's files: Appendices B and C, then the appendices' paradigms (D: HPF, E: OpenMP).
MODEL_FILES = ("data_model.asl", "data_model_hpf.asl", "data_model_openmp.asl")


@functools.cache
def builtin() -> DataModel:
    """The report's data model (Appendices B to E) as cosydb supplies it."""
    here = resources.files(__package__)
    classes: dict[str, Class] = {}
    for name in MODEL_FILES:
        if here.joinpath(name).is_file():
            _classes(parse(here.joinpath(name).read_text(), name), classes, name)
    supplied = yaml.safe_load(here.joinpath("supplied_data.yaml").read_text())
    if not isinstance(supplied, dict):
        raise CosyError("supplied_data.yaml", "must be a YAML mapping")
    return DataModel(classes, supplied)
