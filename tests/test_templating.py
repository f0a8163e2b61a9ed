"""The renderer's cache of compiled templates across processes."""

from __future__ import annotations

import hashlib

from cosydb import templating


def test_a_damaged_or_stale_cache_entry_is_compiled_again(tmp_path, monkeypatch):
    import jinja2

    cache = jinja2.FileSystemBytecodeCache(str(tmp_path))
    monkeypatch.setattr(templating, "_bytecode_cache", lambda: cache)
    templating._environment.cache_clear()
    templating._compiled.cache_clear()
    env = templating.environment(["/nonexistent-cosydb-test"])  # a fresh environment, with this cache
    source = "select {{ ref('x') }} as v"
    assert templating.render(source, "t.sql", env, ref=lambda n: n.upper()) == "select X as v"
    [entry] = list(tmp_path.iterdir())  # compiled once, stored
    entry.write_bytes(b"not jinja bytecode")  # e.g. a disk error, or another Jinja version
    templating._compiled.cache_clear()  # as a new process
    assert templating.render(source, "t.sql", env, ref=lambda n: n.lower()) == "select x as v"
    assert entry.read_bytes() != b"not jinja bytecode"  # replaced by a good entry
    other = source + " -- changed"
    assert templating.render(other, "t.sql", env, ref=lambda n: n) == "select x as v -- changed"
    names = {hashlib.sha256(s.encode()).hexdigest() for s in (source, other)}
    assert len(list(tmp_path.iterdir())) == len(names)
    templating._environment.cache_clear()
    templating._compiled.cache_clear()
