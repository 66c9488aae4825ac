"""The workloads the benchmarks measure: models, databases and the commands that run them.

Nothing here imports ``pracmln_poss``: the benchmark history (``benchmarks/history``,
asv) runs these commands against the package as it was at any commit, with the
workloads as they are now.

- **Dense smokers**: the classic smokers of the MLN literature (``Smokes(x) =>
  Cancer(x)``, ``Friends(x, y) => (Smokes(x) <=> Smokes(y))``) over ``n`` persons, with
  a database of 4 to 8 friendships per person and 30% of them smokers, drawn with a
  seed; every atom the database does not name is open.
- **Sparse smokers**: the paper's smokers (``examples/paper/smokers.mln``) over ``n``
  persons, with the database ``s(P1)``, ``f(P1,P2)``.
- pracmln's own projects (its installed examples): object-recognition (a learned model
  of 1,719 distinct weights) over 1 to 6 clusters and on its ``test.db``, meals on both
  its databases.
- The paper's CORA over 4 papers and 4 persons, and conversions of the smokers.
- Reading the theories of some of those conversions (``show``, ``query``).

    python benchmarks/workloads.py dense-smokers 160 DIR   # writes DIR/dense160.mln and .db
"""

from __future__ import annotations

import atexit
import functools
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "examples" / "paper"

DENSE_MODEL = """\
Friends(person, person)
Smokes(person)
Cancer(person)

1.5 Smokes(x) => Cancer(x)
1.1 Friends(x, y) => (Smokes(x) <=> Smokes(y))
"""

OBJECT_RECOGNITION = "object-recognition/object-recognition.pracmln:learnt.cll.scenes-new-object-detection.mln"
"""The learned model of pracmln's object-recognition project (PRACGrammar, as its query.conf says)."""


def dense_smokers(n: int, seed: int = 0) -> str:
    """The database of the dense smokers over ``P1 ... Pn``: every person has 4 to 8
    friends (``Friends`` atoms, drawn with the seed), 30% of the persons smoke."""
    rng = random.Random(seed * 1_000_003 + n)
    people = [f"P{i}" for i in range(1, n + 1)]
    lines = []
    for p in people:
        for q in rng.sample([x for x in people if x != p], rng.randint(4, 8)):
            lines.append(f"Friends({p},{q})")
    for p in rng.sample(people, round(0.3 * n)):
        lines.append(f"Smokes({p})")
    return "\n".join(lines) + "\n"


def write_dense_smokers(directory: Path, n: int, seed: int = 0) -> tuple[Path, Path]:
    """The dense smokers' model and database for ``n`` persons, written to ``directory``."""
    model, db = directory / f"dense{n}.mln", directory / f"dense{n}.db"
    model.write_text(DENSE_MODEL)
    db.write_text(dense_smokers(n, seed))
    return model, db


def write_sparse_smokers(directory: Path, n: int) -> tuple[Path, Path]:
    """The paper's smokers over ``P1 ... Pn`` and the database ``s(P1)``, ``f(P1,P2)``."""
    text = (PAPER / "smokers.mln").read_text()
    people = ", ".join(f"P{i}" for i in range(1, n + 1))
    model, db = directory / f"smokers{n}.mln", directory / "smokers.db"
    model.write_text(re.sub(r"person = \{[^}]*\}", f"person = {{{people}}}", text))
    db.write_text("s(P1)\nf(P1,P2)\n")
    return model, db


def write_clusters(directory: Path, n: int) -> Path:
    """A database that only declares ``n`` clusters ``C1 ... Cn``."""
    db = directory / f"clusters{n}.db"
    db.write_text("cluster = {" + ", ".join(f"C{i}" for i in range(1, n + 1)) + "}\n")
    return db


@functools.cache
def pracmln_examples() -> Path:
    """pracmln's installed example projects, where ``pracmln.utils.locs`` puts them (its
    setup copies them to the site data directory, else the user's), found without
    importing pracmln (which needs the import hook of the package as it is today: an
    older commit in the benchmark history cannot)."""
    import appdirs  # (pracmln's own dependency)

    for data in (appdirs.site_data_dir("pracmln"), appdirs.user_data_dir("pracmln")):
        examples = Path(data) / "examples"
        if examples.is_dir():
            return examples
    raise FileNotFoundError("pracmln's example projects are not installed (python tools/install_pracmln.py)")


Workload = Callable[[Path], list[str]]
"""A workload: the arguments of ``pracmln-poss``, given a directory to write its files to."""


def _map_dense(n: int) -> Workload:
    def argv(directory: Path) -> list[str]:
        model, db = write_dense_smokers(directory, n)
        return ["map", str(model), "--db", str(db), "--json"]
    return argv


def _map_sparse(n: int) -> Workload:
    def argv(directory: Path) -> list[str]:
        model, db = write_sparse_smokers(directory, n)
        return ["map", str(model), "--db", str(db), "--json"]
    return argv


EVERY_ATOM = ["--no-cw", "--query-preds", "all", "--json"]
"""``map`` asked for every atom, without closed world (the question pracmln's WCSP answers)."""


def _map_clusters(n: int) -> Workload:
    def argv(directory: Path) -> list[str]:
        model = str(pracmln_examples() / OBJECT_RECOGNITION)
        return ["map", model, "--db", str(write_clusters(directory, n)), *EVERY_ATOM]
    return argv


def _map_project(project: str, model: str, db: str) -> Workload:
    def argv(directory: Path) -> list[str]:
        path = pracmln_examples() / project
        return ["map", f"{path}:{model}", "--db", f"{path}:{db}", *EVERY_ATOM]
    return argv


def _convert(*arguments: str, examples: bool = False) -> Workload:
    def argv(directory: Path) -> list[str]:
        model = str(pracmln_examples() / arguments[0]) if examples else arguments[0]
        return ["convert", model, *arguments[1:], "--quiet", "--no-checkpoint", "-j", "1",
                "-o", str(directory / "out.theory")]
    return argv


LEARNED_SMOKERS = "smokers/smokers.pracmln:wts.pybpll.smoking-train-smoking.mln"
"""pracmln's learned smokers (its ``smokers`` example project)."""

FOCUS = "color,goggles,goggles_Logo,goggles_Product,goggles_Text,scene,shape"

MAP_WORKLOADS: dict[str, Workload] = {
    **{f"dense smokers, n = {n}": _map_dense(n) for n in (40, 80, 160, 320)},
    **{f"sparse smokers, n = {n}": _map_sparse(n) for n in (128, 256)},
    **{f"object-recognition, {n} clusters": _map_clusters(n) for n in range(1, 7)},
    "object-recognition, test.db": _map_project("object-recognition/object-recognition.pracmln",
                                                "learnt.cll.scenes-new-object-detection.mln", "test.db"),
    "meals, query1.db": _map_project("meals/meals.pracmln", "meals_any_for.mln", "query1.db"),
    "meals, query2.db": _map_project("meals/meals.pracmln", "meals_any_for.mln", "query2.db"),
}
"""``map`` workloads by name."""

CONVERT_WORKLOADS: dict[str, Workload] = {
    "CORA 4x4, k = 3": _convert(str(PAPER / "cora.mln"), "-k", "3"),
    "smokers k = 2, n = 64": _convert(str(PAPER / "smokers.mln"), "--domain-size", "person=64", "-k", "2"),
    "smokers k = 2, n = 128": _convert(str(PAPER / "smokers.mln"), "--domain-size", "person=128", "-k", "2"),
    # (--force: the code before #32 counted the sets before symmetry and refused them)
    "smokers k = 2, n = 256": _convert(str(PAPER / "smokers.mln"), "--domain-size", "person=256", "-k", "2",
                                       "--force"),
    "learned smokers k = 2, n = 128": _convert(LEARNED_SMOKERS, "--domain-size", "person=128", "-k", "2",
                                               examples=True),
    "learned smokers k = 2, n = 256": _convert(LEARNED_SMOKERS, "--domain-size", "person=256", "-k", "2", "--force",
                                               examples=True),
    "CORA 16x16, k = 2": _convert(str(PAPER / "cora.mln"), "--domain-size", "pap=16", "--domain-size", "per=16",
                                  "-k", "2"),
    "object-recognition focused, 1 cluster, k = 2": _convert(
        OBJECT_RECOGNITION, "--domain-size", "cluster=1", "--evidence-preds", FOCUS, "-k", "2", examples=True),
    # (the learned models at scene size, #38: the rows that end in minutes before it)
    "object-recognition focused, 4 clusters, k = 1": _convert(
        OBJECT_RECOGNITION, "--domain-size", "cluster=4", "--query-preds", "object", "--evidence-preds", FOCUS,
        "-k", "1", examples=True),
    "object-recognition focused, 2 clusters, k = 2": _convert(
        OBJECT_RECOGNITION, "--domain-size", "cluster=2", "--query-preds", "object", "--evidence-preds", FOCUS,
        "-k", "2", examples=True),
    "meals focused, 1 meal, 2 persons, k = 1": _convert(
        "meals/meals.pracmln:meals_any_for.mln", "--query-preds", "consumesAnyIn", "--evidence-preds",
        "mealT,timeT,day,name,takesPartIn", "--domain-size", "objType_m=1", "--domain-size", "objType_p=2", "-k", "1",
        examples=True),
    "CORA 4x4, k = 4": _convert(str(PAPER / "cora.mln"), "-k", "4"),
    # (#63: a domain paid for once; --force, as the code before refused 1,024 persons)
    "learned smokers k = 2, n = 1024": _convert(LEARNED_SMOKERS, "--domain-size", "person=1024", "-k", "2", "--force",
                                                examples=True),
    # (without --force: the code before refuses it at once, where forced it would need tens of GB)
    "learned smokers k = 2, n = 4096": _convert(LEARNED_SMOKERS, "--domain-size", "person=4096", "-k", "2",
                                                examples=True),
    "object-recognition focused, 10 clusters, k = 1": _convert(
        OBJECT_RECOGNITION, "--domain-size", "cluster=10", "--query-preds", "object", "--evidence-preds", FOCUS,
        "-k", "1", examples=True),
    "object-recognition focused, 6 clusters, k = 2": _convert(
        OBJECT_RECOGNITION, "--domain-size", "cluster=6", "--query-preds", "object", "--evidence-preds", FOCUS,
        "-k", "2", examples=True),
}
"""``convert`` workloads by name (one process, no checkpoint)."""


@functools.cache
def _theories() -> Path:
    """A folder for the theories the ``read`` workloads read, made once per process (and
    removed as it ends)."""
    path = tempfile.mkdtemp(prefix="pracmln-poss-theories-")
    atexit.register(shutil.rmtree, path, True)
    return Path(path)


def _read(theory: str, *command: str) -> Workload:
    """``pracmln-poss COMMAND THEORY ...`` on the theory the ``convert`` workload
    ``theory`` writes, converted once per process before the first run (and not timed:
    :func:`user_seconds` counts the command's process only)."""
    def argv(directory: Path) -> list[str]:
        path = _theories() / (re.sub(r"\W+", "-", theory).strip("-") + ".theory")
        if not path.exists():
            made = CONVERT_WORKLOADS[theory](_theories())
            subprocess.run([sys.executable, "-m", "pracmln_poss", *made], cwd=tempfile.gettempdir(), check=True,
                           stdout=subprocess.DEVNULL)
            (_theories() / "out.theory").rename(path)
        return [command[0], str(path), *command[1:]]
    return argv


_OR1 = "object-recognition focused, 1 cluster, k = 2"
_OR2 = "object-recognition focused, 2 clusters, k = 2"
_SPATULA = ("--query", "object(Cluster1,Spatula)", "--evidence", "color(Cluster1,black)")

READ_WORKLOADS: dict[str, Workload] = {
    "show CORA 4x4, k = 3": _read("CORA 4x4, k = 3", "show"),
    "show object-recognition, 1 cluster, k = 2 (88,763 rules)": _read(_OR1, "show"),
    "query object-recognition, 1 cluster, k = 2": _read(_OR1, "query", *_SPATULA),
    "show object-recognition, 2 clusters, k = 2 (371,041 rules)": _read(_OR2, "show"),
    "query object-recognition, 2 clusters, k = 2": _read(_OR2, "query", *_SPATULA),
    "explain object-recognition, 1 cluster, k = 2": _read(_OR1, "explain", *_SPATULA),
    "explain object-recognition, 2 clusters, k = 2": _read(_OR2, "explain", *_SPATULA),
}
"""Commands that read a theory (#39: a theory a person reads), by name."""


def user_seconds(argv: list[str], python: str = sys.executable, timeout: float | None = None) -> float:
    """User CPU seconds of ``python -m pracmln_poss argv`` in a fresh process, start-up
    included (CPU time, not wall time: other load on the machine does not count).  It
    runs in the system's temporary directory: ``-m`` imports from the working directory
    first, and in the repository that is the code checked out, not the commit installed.

    :raises RuntimeError: when the command fails.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    run = subprocess.run([python, "-m", "pracmln_poss", *argv], cwd=tempfile.gettempdir(),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=timeout)
    if run.returncode != 0:
        raise RuntimeError(f"pracmln-poss {' '.join(argv)} failed ({run.returncode}): {run.stderr[-500:]}")
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("dense-smokers", "sparse-smokers"):
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    writer = write_dense_smokers if sys.argv[1] == "dense-smokers" else write_sparse_smokers
    for path in writer(Path(sys.argv[3]), int(sys.argv[2])):
        print(path)
