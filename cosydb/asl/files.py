"""Compiled ASL properties written as property files of the catalog."""

from __future__ import annotations

from pathlib import Path

import yaml

from ..errors import CosyError


def write_properties(asl: Path, directory: Path) -> list[Path]:
    """One ``<name>.sql`` per property of ``asl`` in ``directory`` (created if missing):
    the header and SQL the catalog would compile it to. Nothing is written if the
    specification has a problem."""
    from ..catalog import asl_entries

    if not asl.is_file():
        raise CosyError(asl, "no such ASL file")
    entries = asl_entries(asl)
    if directory.exists() and not directory.is_dir():
        raise CosyError(directory, "exists and is not a directory")
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (header, sql) in entries.items():
        path = directory / f"{name}.sql"
        text = yaml.dump(header, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
        path.write_text(f"{{#---\n{text}---#}}\n{sql}\n")
        written.append(path)
    return written


class _Dumper(yaml.SafeDumper):
    """Multi-line strings (the ASL text) as literal blocks."""


_Dumper.add_representer(
    str,
    lambda dumper, value: dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None),
)
