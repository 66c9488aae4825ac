"""The rule search on worker processes, on a Dask cluster, and resumed from a checkpoint:
the same bytes as one process, uninterrupted, every time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor

import pytest

from pracmln_poss.bridge.loader import load_model
from pracmln_poss.errors import OutputError, SourcePosition
from pracmln_poss.search.workers import chunked
from pracmln_poss.transformations import transform_mln

from .support import PAPER, ROOT, converted, default_signals, required, run_python, smokers


def birds():
    return load_model(PAPER / "birds-jetpack.mln").model


CASES = [
    ("smokers lifted k3", smokers, {"k": 3}),
    ("smokers defaults k2", smokers, {"method": "defaults", "k": 2}),
    ("birds lifted k3 long", birds, {"k": 3, "long_blocking": True}),
]


@pytest.mark.parametrize("name, model, options", CASES, ids=[c[0] for c in CASES])
def test_two_workers_write_the_same_bytes(name, model, options, pracmln):
    m = model()
    assert converted(m, options, jobs=2) == converted(m, options)


class _Counted(Executor):
    """An executor that counts the tasks handed to it (so a test proves that the work
    went through it, not around it)."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1
        return self.inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait=True, *, cancel_futures=False):
        self.inner.shutdown(wait, cancel_futures=cancel_futures)

    def __getattr__(self, name):  # (a Dask executor's client: the runner scatters through it)
        return getattr(self.inner, name)


def test_any_executor_writes_the_same_bytes(pracmln):
    m = smokers()
    with ProcessPoolExecutor(max_workers=2) as pool:
        executor = _Counted(pool)
        assert converted(m, {"k": 3}, executor=executor) == converted(m, {"k": 3})
        assert executor.submitted > 2  # the chunks went to the pool's worker processes


DASK = r"""
import sys
from concurrent.futures import Executor
from distributed import Client, LocalCluster
from tests.support import converted, smokers

class Counted(Executor):  # (the chunks went through the cluster, not around it)
    def __init__(self, inner):
        self.inner, self.submitted = inner, 0
    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1
        return self.inner.submit(fn, *args, **kwargs)
    def shutdown(self, wait=True, *, cancel_futures=False):
        self.inner.shutdown(wait, cancel_futures=cancel_futures)
    def __getattr__(self, name):  # (the runner scatters through the executor's client)
        return getattr(self.inner, name)

if __name__ == "__main__":
    m = smokers()
    expected = converted(m, {"k": 3})
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as client:
        executor = Counted(client.get_executor())
        assert converted(m, {"k": 3}, executor=executor) == expected, "lifted: not the bytes of one process"
        assert converted(m, {"method": "defaults", "k": 2}, executor=executor) == \
            converted(m, {"method": "defaults", "k": 2}), "defaults: not the bytes of one process"
        assert executor.submitted > 2, executor.submitted
    print("same bytes", executor.submitted)
"""


@pytest.mark.slow
def test_a_dask_cluster_writes_the_same_bytes(pracmln, tmp_path):
    """Through a real ``dask.distributed`` local cluster (two worker processes), by its
    ``concurrent.futures`` interface (``pip install pracmln_poss[distributed]``).  In a
    process of its own: a Dask client leaves threads behind (its offload executor), which
    this process must not keep (a later stop test met one)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        if required():
            pytest.fail("distributed is required here (tox installs the [distributed] extra)")
        pytest.skip("distributed is not installed")
    script = tmp_path / "dask_same_bytes.py"
    script.write_text(DASK)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=ROOT, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0 and run.stdout.startswith("same bytes"), run.stderr[-3000:]


INHERIT = r"""
import sys
from pracmln_poss.bridge.loader import load_model
from pracmln_poss.formats import dumps
from pracmln_poss.search import workers
from pracmln_poss.transformations import transform_mln

seen = []
original = workers.ChunkRunner.__init__

def init(self, *args, **kwargs):
    original(self, *args, **kwargs)
    seen.append(self.shipped_context)

workers.ChunkRunner.__init__ = init
m = load_model(sys.argv[1], domains={"person": ["A", "B", "C"]}).model
two = dumps(transform_mln(m, k=3, jobs=2))
assert two == dumps(transform_mln(m, k=3)), "not the bytes of one process"
assert len(seen) == 2 and seen[0][1] is None and seen[1] is None, seen
print("inherited", seen[0][0])
"""


def test_forked_workers_inherit_the_context(pracmln):
    """In a process without threads (the command line) the workers are forked and find
    the ground MLN in their memory: no bytes sent with the chunks, the same theory."""
    done = run_python(INHERIT, str(PAPER / "smokers.mln"), timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("inherited inherited:")


def test_jobs_must_not_be_negative(pracmln):
    with pytest.raises(ValueError, match="jobs must be at least 0"):
        transform_mln(smokers(), k=1, jobs=-1)


def test_chunks_cover_the_items_in_order_and_shrink():
    for n in (0, 1, 5, 63, 64, 65, 1000, 14780, 339308):
        items = list(range(n))
        chunks = chunked(items)
        assert [x for c in chunks for x in c] == items and len(chunks) <= 64
        assert all(chunks)
        assert all(len(a) >= len(b) for a, b in zip(chunks, chunks[1:])), "the last chunks are the short ones"
        if n >= 64 * 64:
            assert len(chunks) == 64 and len(chunks[0]) <= 2 * n // 64 and len(chunks[-1]) <= 2 * n // 64 ** 2


class _Stop(Exception):
    pass


def _solver_interrupt() -> BaseException:
    """Ctrl-C as it arrives from inside a SAT call: PySAT's own error."""
    import pysolvers

    return pysolvers.error("Caught keyboard interrupt")


@pytest.mark.parametrize("jobs, stop", [(1, KeyboardInterrupt), (2, KeyboardInterrupt), (1, _solver_interrupt)])
@pytest.mark.parametrize("stop_after", ["optima", "rules"])
def test_an_interrupted_search_resumes_from_its_checkpoint(pracmln, tmp_path, jobs, stop, stop_after, every_report):
    """Interrupted (Ctrl-C, as Python raises it or as PySAT does inside a solve) in the
    middle of the optima or of the rules, the search leaves its checkpoint; run again
    with the same file it takes over the finished work (it says so) and writes the same
    bytes as an uninterrupted run, then removes the file."""
    m = smokers()
    expected = converted(m, {"k": 3})
    checkpoint = tmp_path / "out.checkpoint"
    phase = "penalties" if stop_after == "optima" else "rules"

    first: list[int] = []  # (the count at the first line of the optima of size 3, before its chunks)

    def interrupt(info):
        if info.phase.startswith(phase) and info.size == (3 if phase == "penalties" else 2):
            first.append(info.done)
            # (the rules at once; the optima a quarter of the way into size 3: chunks of it done)
            if phase == "rules" or 4 * (info.done - first[0]) >= info.total - first[0]:
                raise stop()

    with pytest.raises(type(stop())):
        converted(m, {"k": 3}, jobs=jobs, checkpoint=checkpoint, progress=interrupt)
    assert checkpoint.exists()
    notes = []
    resumed = converted(m, {"k": 3}, jobs=jobs, checkpoint=checkpoint,
                       progress=lambda info: info.note and notes.append(info.note))
    assert resumed == expected
    assert notes and "resuming from" in notes[0]
    if stop_after == "optima":  # stopped inside size 3: the chunks done by then kept, taken over
        import re

        kept = re.search(r"3 size\(s\) of optima, (\d+) chunk\(s\) of size 3", notes[0])
        assert kept and int(kept.group(1)) >= 1, notes[0]
    assert not checkpoint.exists()


def test_a_checkpoint_of_another_conversion_is_not_used(pracmln, tmp_path, every_report):
    m = smokers()
    checkpoint = tmp_path / "out.checkpoint"

    def interrupt(info):
        if info.phase.startswith("rules"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        converted(m, {"k": 2}, checkpoint=checkpoint, progress=interrupt)
    assert checkpoint.exists()
    notes = []
    assert converted(m, {"k": 3}, checkpoint=checkpoint,
                    progress=lambda info: info.note and notes.append(info.note)) == converted(m, {"k": 3})
    assert len(notes) == 1 and "not resuming from" in notes[0] and "another conversion" in notes[0], notes
    assert not checkpoint.exists()
    checkpoint.write_bytes(b"not a checkpoint")  # (refused and left as it is: it may be the user's)
    with pytest.raises(OutputError, match="not a checkpoint of pracmln_poss"):
        converted(m, {"k": 1}, checkpoint=checkpoint)
    assert checkpoint.read_bytes() == b"not a checkpoint"


def test_the_checkpoint_outlives_the_search_until_the_theory_is_safe(pracmln, tmp_path, monkeypatch):
    """A stop while the finished search's theory is filtered keeps the checkpoint, and
    the next conversion takes the search from it; a completed ``transform`` or
    ``convert`` removes it, ``convert_mln(keep_checkpoint=True)`` leaves it to the caller."""
    from pracmln_poss.search import checkpoint as saving
    from pracmln_poss.transformations import conversion, convert_mln

    monkeypatch.setattr(saving, "SAVE_INTERVAL", 0.0)  # (written at the end however short the search)
    m = smokers()
    place = tmp_path / "out.checkpoint"
    expected = convert_mln(m, "lifted", k=2, filter="conservative")

    def stopped(theory, mode, guard=None):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(conversion, "filter_redundant", stopped)
        with pytest.raises(KeyboardInterrupt):
            convert_mln(m, "lifted", k=2, filter="conservative", checkpoint=place)
    assert saving.is_checkpoint(place)
    notes = []
    done = convert_mln(m, "lifted", k=2, filter="conservative", checkpoint=place, keep_checkpoint=True,
                   progress=lambda info: info.note and notes.append(info.note))
    assert done == expected
    assert notes and "resuming from" in notes[0] and "chunk(s) of rules done" in notes[0], notes
    assert saving.is_checkpoint(place)  # (kept: the caller said it removes it)
    assert transform_mln(m, "lifted", k=2, checkpoint=place) == transform_mln(m, "lifted", k=2)
    assert not place.exists()  # (the theory returned: removed)
    with pytest.raises(Exception, match="keep_checkpoint takes True or False"):
        convert_mln(m, "lifted", k=1, keep_checkpoint="no")


def test_a_refused_final_write_keeps_the_search_for_the_next_run(pracmln, tmp_path, monkeypatch, capsys):
    """``convert -o OUT`` whose write is refused at the end: status 2, the error says
    where the finished work is; the same command again resumes from it, writes the bytes
    of a run without a checkpoint, and removes it."""
    import pracmln_poss.formats as formats
    from pracmln_poss.cli import main
    from pracmln_poss.search import checkpoint as saving

    monkeypatch.setattr(saving, "SAVE_INTERVAL", 0.0)
    out, place = tmp_path / "out.theory", tmp_path / "out.theory.checkpoint"
    command = ["convert", str(PAPER / "smokers.mln"), "--domain", "person=A,B,C", "-k", "2", "--progress", "-o",
               str(out)]

    def refused(destination, text):
        raise OutputError("cannot write: no space left on device", SourcePosition(str(out)))

    with monkeypatch.context() as patch:
        patch.setattr(formats, "atomic_write", refused)
        assert main(command) == 2
    err = capsys.readouterr().err
    assert "no space left on device" in err and f"the finished work is in {place}" in err, err
    assert not out.exists() and saving.is_checkpoint(place)
    assert main(command) == 0
    assert "resuming from" in capsys.readouterr().err
    assert not place.exists()
    assert main([*command[:-1], str(tmp_path / "plain.theory"), "--no-checkpoint"]) == 0
    assert out.read_bytes() == (tmp_path / "plain.theory").read_bytes()


def test_an_output_name_of_255_bytes_has_its_checkpoint(pracmln, tmp_path, monkeypatch, capsys):
    """``-o`` a name of 255 bytes (127 two-byte letters and one more): its checkpoint and
    the checkpoint's temporary files are named to fit (the temporary's prefix was cut at
    200 characters, 400 bytes here: "File name too long")."""
    from pracmln_poss.cli import main
    from pracmln_poss.search import checkpoint as saving

    monkeypatch.setattr(saving, "SAVE_INTERVAL", 0.0)  # (saved at every chunk)
    out = tmp_path / ("\u00e9" * 127 + "x")
    assert len(out.name.encode()) == 255
    assert main(["convert", str(PAPER / "smokers.mln"), "--domain", "person=A,B,C", "-k", "2", "-o", str(out)]) == 0, \
        capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


@pytest.mark.slow
def test_ctrl_c_on_the_command_line_then_run_again(pracmln, tmp_path):
    """``convert -j 2 -o OUT`` interrupted by SIGINT: status 130, no OUT, OUT.checkpoint
    left; the same command again finishes from it, with the bytes of ``-j 1`` and
    without the checkpoint."""
    out = tmp_path / "cora.theory"
    checkpoint = tmp_path / "cora.theory.checkpoint"
    command = [sys.executable, "-m", "pracmln_poss", "convert", str(PAPER / "cora.mln"), "--domain",
               "pap=P1,P2,P3", "--domain", "per=S1,S2,S3", "-k", "3", "-o", str(out)]
    # SIGINT as a terminal sends it, even where this test runs with it ignored (a
    # background job inherits SIG_IGN, and Python then installs no handler)
    run = subprocess.Popen([*command, "-j", "2"], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                           preexec_fn=default_signals)
    deadline = time.monotonic() + 60
    while not checkpoint.exists() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert checkpoint.exists(), "no checkpoint was written"
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    if run.returncode == 0:  # finished before the signal: nothing to resume (a fast machine)
        pytest.skip("the conversion finished before it could be interrupted")
    assert run.returncode == 130, err
    assert len(err.strip().splitlines()) == 1 and "interrupted" in err, err  # one line, nothing else
    assert not out.exists() and checkpoint.exists()
    again = subprocess.run([*command, "-j", "2"], cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "resuming from" in again.stderr
    assert not checkpoint.exists()
    single = subprocess.run([*command, "-j", "1", "--no-checkpoint", "-o", str(tmp_path / "single.theory")],
                            cwd=ROOT, capture_output=True, text=True)
    assert single.returncode == 0, single.stderr
    assert out.read_bytes() == (tmp_path / "single.theory").read_bytes()
    assert not os.path.exists(str(tmp_path / "single.theory.checkpoint"))


def _descendants(pid: int) -> set[int]:
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    found = {int(c) for c in f.read().split()}
                out |= found
                todo.extend(found)
        except OSError:
            continue
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"  # (a zombie has ended)
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("stop", ["SIGTERM", "SIGHUP", "SIGKILL to a worker"])
def test_a_stopped_run_leaves_no_process_and_resumes(pracmln, tmp_path, stop):
    """``convert -j 2 -o OUT`` ended by SIGTERM, SIGHUP or the death of a worker: one
    line on stderr, no process of the run alive 2 s later, OUT untouched, and the same
    command again resumes from the checkpoint and writes the bytes of one process."""
    out = tmp_path / "cora.theory"
    out.write_text("an older theory\n")
    checkpoint = tmp_path / "cora.theory.checkpoint"
    command = [sys.executable, "-m", "pracmln_poss", "convert", str(ROOT / "examples" / "paper" / "cora.mln"),
               "-k", "3", "-o", str(out)]
    run = subprocess.Popen([*command, "-j", "2"], cwd=ROOT, stderr=subprocess.PIPE, text=True, preexec_fn=default_signals)
    deadline = time.monotonic() + 60
    while not checkpoint.exists() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    workers = _descendants(run.pid)
    assert run.poll() is None and workers, "the run ended before it could be stopped"
    if stop == "SIGKILL to a worker":
        os.kill(min(workers), signal.SIGKILL)
    else:
        run.send_signal(getattr(signal, stop))
    _, err = run.communicate(timeout=60)
    lines = err.strip().splitlines()
    expected = {"SIGTERM": 128 + signal.SIGTERM, "SIGHUP": 128 + signal.SIGHUP}.get(stop, 2)
    assert run.returncode == expected and len(lines) == 1, err
    assert ("terminated by" in lines[0]) if stop != "SIGKILL to a worker" else ("worker process ended" in lines[0])
    assert "run the same command again to resume" in lines[0]
    time.sleep(2)
    assert not [pid for pid in workers if _alive(pid)], "a worker outlived the run"
    assert out.read_text() == "an older theory\n" and checkpoint.exists()
    again = subprocess.run([*command, "-j", "2"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "resuming from" in again.stderr, again.stderr
    single = subprocess.run([*command[:-2], "-j", "1", "--no-checkpoint", "-o", str(tmp_path / "single.theory")],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert single.returncode == 0, single.stderr
    assert out.read_bytes() == (tmp_path / "single.theory").read_bytes() and not checkpoint.exists()


@pytest.mark.slow
@pytest.mark.parametrize("ending", ["finished", "SIGINT"])
def test_the_workers_leave_no_temporary_folder(pracmln, tmp_path, ending):
    """``convert -j 2 --backend toulbar2``, finished (``k = 2``, 7 s) or stopped by
    Ctrl-C (``k = 3``, once its checkpoint is written): nothing is left in TMPDIR (each worker's toulbar2 listing folder stayed, ``pracmln-poss-*/optima``:
    a worker's engine is not closed when the pool stops it, nor when it is stopped)."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    out = tmp_path / "cora.theory"
    command = [sys.executable, "-m", "pracmln_poss", "convert", str(ROOT / "examples" / "paper" / "cora.mln"),
               "-k", "2" if ending == "finished" else "3", "-j", "2", "--backend", "toulbar2", "--quiet",
               "-o", str(out)]
    run = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True, preexec_fn=default_signals,
                           env={**os.environ, "TMPDIR": str(temp)})
    if ending == "SIGINT":
        checkpoint = tmp_path / "cora.theory.checkpoint"
        deadline = time.monotonic() + 120
        while not checkpoint.exists() and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert run.poll() is None, "the run ended before it could be stopped"
        run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=600)
    assert run.returncode == (0 if ending == "finished" else 130), err
    assert sorted(p.name for p in temp.iterdir()) == []


HOST_WITH_A_THREAD = """
import sys, threading, time
if __name__ == "__main__":  # (the fork server's workers run this script again: Python's rule)
    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
    from pracmln_poss.cli import main
    sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("after", [0.3, 1.0, "checkpoint"])
def test_ctrl_c_in_a_host_with_threads_whose_workers_a_fork_server_starts_is_one_line(pracmln, tmp_path, after):
    """A host script that runs a thread and calls the command line with ``-j 2`` (its
    workers started by a fork server, not forked), Ctrl-C to its process group at several
    instants, as a terminal sends it: one line, status 130, no traceback, and no process
    of the run left (before, 2 of 30 printed a fork-server child's ``FileNotFoundError``
    after the line: docs/parallel.md)."""
    host = tmp_path / "host.py"
    host.write_text(HOST_WITH_A_THREAD)
    out = tmp_path / "cora.theory"
    run = subprocess.Popen([sys.executable, str(host), "convert", str(PAPER / "cora.mln"), "-k", "3", "-j", "2",
                            "-o", str(out)], cwd=tmp_path, stderr=subprocess.PIPE, text=True,
                           preexec_fn=default_signals, start_new_session=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + (60 if after == "checkpoint" else float(after))
    seen: set[int] = set()
    servers = 0
    while run.poll() is None and time.monotonic() < deadline:
        for pid in _descendants(run.pid) - seen:
            seen.add(pid)
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    servers += b"forkserver" in f.read()
            except OSError:
                pass
        if after == "checkpoint" and (tmp_path / "cora.theory.checkpoint").exists():
            break
        time.sleep(0.02)
    assert run.poll() is None, "the run ended before it could be stopped"
    os.killpg(run.pid, signal.SIGINT)  # (a terminal's Ctrl-C: to every process of the group)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130 and len(err.splitlines()) == 1 and err.startswith("pracmln-poss: interrupted"), err
    if after == "checkpoint":
        assert servers, "the workers were not started by a fork server"
    time.sleep(2)
    assert not [pid for pid in seen if _alive(pid)], "a process of the run outlived it"


INTERRUPTED_START = """
import multiprocessing, os, signal, sys
import multiprocessing.popen_forkserver as popen_forkserver
from pracmln_poss.search import workers

launch = popen_forkserver.Popen._launch
started = []

def interrupted_launch(self, process_obj):
    launch(self, process_obj)
    started.append(self.pid)
    signal.raise_signal(signal.SIGINT)  # (as if Ctrl-C came as the worker's pid came back)

if __name__ == "__main__":
    popen_forkserver.Popen._launch = interrupted_launch
    pool = workers._LocalPool(1, multiprocessing.get_context("forkserver"))
    try:
        pool.submit(abs, -1)
        print("no interrupt")
    except KeyboardInterrupt:
        print("interrupted;", "known" if started and set(started) <= set(pool._processes) else "lost", started)
    finally:
        workers._stop(pool)
"""


def test_a_ctrl_c_inside_a_workers_start_comes_after_the_pool_knows_the_worker(tmp_path):
    """A Ctrl-C that lands while a fork server starts a worker (here: raised as its pid
    comes back) is held until the submission is done, so the pool knows every worker
    started and stops it, and the interrupt still comes; before, the worker was started
    and lost to the pool (it outlived the run, and printed a traceback).  In a fresh
    interpreter: the fork server and the pool's threads stay with it."""
    script = tmp_path / "start.py"
    script.write_text(INTERRUPTED_START)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and done.stdout.startswith("interrupted; known"), done.stdout + done.stderr
    pids = [int(p) for p in done.stdout.split("[", 1)[1].rstrip().rstrip("]").split(",")]
    time.sleep(1)
    assert not [pid for pid in pids if _alive(pid)], "a worker outlived the pool"
