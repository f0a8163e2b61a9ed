"""The loaders: one module per input format, all with the same protocol.

A loader module declares

- ``FORMAT``: its name, stored in ``experiments.format`` (e.g. ``otf2``);
- ``IS_TRACE``: whether it delivers events (else the experiment is a profile);
- ``RUN_FILE``: the file it reads in a run directory (e.g. ``traces.otf2``; a glob pattern
  such as ``*.otf`` where the name varies: exactly one must match), or None;
- ``detect(path) -> bool``: whether a file given by the user is in its format;
- ``read(path, sink, workers) -> LoadResult``: read the file, handing every table to the
  ``cosydb.tables.TableSink`` (which names the files; a table it is not given is
  written empty);
- optionally ``NAMES_ENCODED = True``: its format does not say how names are encoded, and
  ``read`` takes ``encoding=`` (``cosydb load --encoding``; default UTF-8).

``MODULES`` lists them in the order they are asked: adding a format is one module and
one name there (docs/contributing.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class LoadResult:
    """What a loader found besides its tables: the columns of ``experiments`` it knows,
    a phrase for the user, warnings (rows of ``load_warnings``) and seconds per phase."""

    source_path: str
    number_of_locations: int
    loaded: str  # e.g. "5,000 events", "a profile of 4 metrics on 20 call-tree nodes"
    creator: str = ""
    number_of_events: int | None = None
    timer_resolution: int | None = None
    global_offset: int | None = None
    trace_length: int | None = None
    first_time: int | None = None
    last_time: int | None = None
    warnings: list[dict] = field(default_factory=list)
    phase_seconds: dict[str, float] = field(default_factory=dict)

    def experiment_columns(self) -> dict:
        """The columns of ``experiments`` this result fills."""
        return dict(
            source_path=self.source_path,
            creator=self.creator,
            number_of_events=self.number_of_events,
            number_of_locations=self.number_of_locations,
            timer_resolution=self.timer_resolution,
            global_offset=self.global_offset,
            trace_length=self.trace_length,
            first_time=self.first_time,
            last_time=self.last_time,
        )


#: the loader modules, in the order they are asked (a run directory: the trace first)
MODULES = ("otf2_trace", "otf_trace", "cube_profile", "summary_input")


def registered() -> Iterator:
    """The loader modules of ``MODULES``, each imported when it is asked (a load imports
    only the loaders before the one that reads its file)."""
    for name in MODULES:
        yield importlib.import_module(f".{name}", __name__)


def loader_for(path: Path):
    """The loader and the file to read for ``path``: a file in a loader's format, or a run
    directory holding a loader's ``RUN_FILE``."""
    from cosydb.errors import CosyError

    if path.is_dir():
        for loader in registered():
            found = sorted(p for p in path.glob(loader.RUN_FILE) if p.is_file()) if loader.RUN_FILE else []
            if len(found) > 1:
                names = ", ".join(p.name for p in found)
                raise CosyError(
                    path, f"directory holds {len(found)} files {loader.RUN_FILE} ({names}): name the one to load"
                )
            if found:
                return loader, found[0]
        wanted = " and no ".join(loader.RUN_FILE_DOC for loader in registered() if loader.RUN_FILE)
        raise CosyError(path, f"directory holds no {wanted}")
    for loader in registered():
        if loader.detect(path):
            return loader, path
    formats = ", ".join(loader.FILE_DOC for loader in registered())
    raise CosyError(path, f"not a format cosydb reads ({formats})")
