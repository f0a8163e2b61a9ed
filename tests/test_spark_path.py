"""``cosydb load --engine spark`` as most users run it: the console script of a virtual
environment that is not activated (as pipx runs it), so that ``python3`` on PATH has no
cosydb. Spark's Python workers run cosydb's interpreter in local mode, and nothing of
Spark's own output (JVM, log4j, Python workers) reaches the terminal: a failure is one line."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import COSYDB, real_trace


@pytest.fixture(scope="module")
def bare_env(tmp_path_factory):
    """An environment whose PATH holds Java and a ``python3`` without cosydb (this
    virtual environment's base interpreter), not the virtual environment's ``bin``."""
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java 17 (Debian openjdk-17-jre-headless): not installed")
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install 'cosydb[spark]')")
    bin_dir = tmp_path_factory.mktemp("path")
    (bin_dir / "python3").symlink_to(Path(sys.base_prefix) / "bin" / "python3")
    java_dir = Path(shutil.which("java")).parent
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYSPARK_PYTHON")}
    env["PATH"] = os.pathsep.join([str(bin_dir), str(java_dir), "/usr/bin", "/bin"])
    python3 = subprocess.run(["python3", "-c", "import cosydb"], env=env, cwd=bin_dir, capture_output=True)
    assert python3.returncode != 0, "the PATH's python3 must lack cosydb"
    return env


def _load(tmp_path, env, *options):
    trace = real_trace("scorep-late_sender") / "traces.otf2"
    return subprocess.run(
        [COSYDB, "load", trace, "--db", str(tmp_path / "db"), "--engine", "spark", *options],
        env=env,
        cwd=tmp_path,  # not the repository, whose cosydb/ any python3 imports
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.spark
def test_spark_load_from_unactivated_venv_runs_workers_with_cosydbs_python(tmp_path, bare_env):
    result = _load(tmp_path, bare_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("loaded 173 events from 4 locations"), result.stdout
    assert result.stderr == ""  # not the JVM's "WARNING: Using incubator modules", nor log4j's lines
    assert (tmp_path / "db" / "cosydb.duckdb").is_file()


@pytest.mark.spark
@pytest.mark.parametrize(
    "options, extra_env, needle",
    [
        (["--spark-master", "nowhere://x"], {}, "Spark did not start"),
        ([], {"PYSPARK_PYTHON": "/usr/bin/python3"}, "No module named 'cosydb'"),  # the user's choice is kept
    ],
    ids=["bad-master", "workers-without-cosydb"],
)
def test_spark_failure_is_one_line_without_java_stack(tmp_path, bare_env, options, extra_env, needle):
    result = _load(tmp_path, {**bare_env, **extra_env}, *options)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cosydb: ") and needle in lines[0], result.stderr
    assert "\tat " not in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "db").exists()


@pytest.mark.spark
def test_local_shuffles_have_a_partition_per_core_and_pages_below_g1s_humongous_size(bare_env, tmp_path):
    """Spark's default of 200 shuffle partitions is 200 tasks per shuffle even for ten rows; its
    memory pages (64 MB on a 12 GB heap) and broadcast blocks (4 MB) were humongous objects
    to G1 (over half a 4 MB region), each starting a concurrent collection."""
    script = (
        "from cosydb import spark; s = spark.session('local[3]'); jvm = s.sparkContext._jvm\n"
        "print(*[s.conf.get(k) for k in ('spark.sql.shuffle.partitions', 'spark.buffer.pageSize', "
        "'spark.broadcast.blockSize')])\n"
        "bean = jvm.java.lang.management.ManagementFactory.getPlatformMXBean("
        "jvm.java.lang.Class.forName('com.sun.management.HotSpotDiagnosticMXBean'))\n"
        "print(bean.getVMOption('G1HeapRegionSize').getValue())"
    )
    result = subprocess.run([sys.executable, "-c", script], env=bare_env, cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["3", "2m", "2m", str(8 * 2**20)]


def test_a_jvm_that_is_gone_is_one_line():
    """py4j's socket to a JVM the system killed (out of memory) raised ConnectionRefusedError,
    which reached the user as a traceback."""
    from cosydb import spark

    failed = spark._failed(ConnectionRefusedError(111, "Connection refused"), "properties/x.sql")
    assert str(failed) == "properties/x.sql: Spark failed: its JVM is gone (killed by the system for memory?): " + (
        "[Errno 111] Connection refused"
    )
