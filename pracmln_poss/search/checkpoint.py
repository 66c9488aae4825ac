"""Checkpoints of the rule search: a long conversion, interrupted, resumes where it stopped.

The file holds the search's key (a digest of the ground MLN, ``k``, the focus, the
symmetry and the rule options: what the result depends on), the optima of every
evidence-set size finished and of every chunk finished of the size under way, the
rules of every chunk finished, and what is done of the chunk under way (:class:`Begun`:
its first items' optima or rules, when the chunks run in this process).  It is replaced
atomically after each size and every few seconds of chunks or of a chunk's parts, on an
interrupt, and when the search completes; it is removed
(:func:`discard`) only once the result is safe: returned by the transformation, or, on
the command line, filtered and written, so that a stop or a refused write after the
search loses none of it.

The file is data, never code: one line of JSON (ints, strings and lists only), then a
line with the SHA-256 digest of that line, written last.  Before anything in it is
used, the file must be a regular file of this user, its digest must match, its key must
be this search's, and every value must have the type and range the search expects
(literals over the model's atoms, sizes up to ``k``); a file that fails any of these is
not used (its ``refused`` says why) and is replaced by the search's own; one of another
search (the same output, another model or other options) is first put aside as
``OUT.checkpoint.KEY`` (the first digits of its key), which that search resumes from when
it runs again: a mistyped option loses no work.
"""

from __future__ import annotations

__all__ = ["Checkpoint", "CHECKPOINT_START", "SAVE_INTERVAL", "check_place", "discard", "is_checkpoint", "search_key",
           "Packed", "pack_optimum", "unpack_optimum", "unpack_world", "RuleChunk", "Begun"]

import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence, Sized
from pathlib import Path
from typing import NamedTuple, TypeVar

from ..errors import OutputError, SourcePosition
from ..map.engine import Optimum, World
from ..model.ground_mln import GroundMLN
from ..sources import load_json
from ..weights import INF, Level
from .rule import BlockingRule, DefaultRule

FORMAT = "pracmln_poss checkpoint 5"

MAX_BYTES = 4 * 1024**3
"""A file larger than this is not a checkpoint of ours (it is refused unread)."""

T = TypeVar("T")
_E = TypeVar("_E")


def search_key(mln: GroundMLN, *parts: object) -> str:
    """A digest of the ground MLN and ``parts`` (reprs of plain values: deterministic)."""
    h = hashlib.sha256()
    h.update(repr((FORMAT, mln.atoms, str(mln.resolution))).encode())
    for wf in mln.soft + mln.hard:
        h.update(repr((wf.formula, wf.weight)).encode())
    for part in parts:
        h.update(repr(part).encode())
    return h.hexdigest()


Packed = tuple[int, bytes, "tuple[int, ...] | None"]
"""An optimum as (cost, the world's values as one byte per atom, and the literals true
in all optimal worlds when they were found with it, else None)."""


def pack_optimum(found: Optimum | None, backbone: Iterable[int] | None = None) -> Packed | None:
    """An optimum in a few bytes per atom instead of a tuple's pointer (None stays None),
    with its backbone when known."""
    if found is None:
        return None
    return found.cost, bytes(found.world.values), None if backbone is None else tuple(sorted(backbone, key=abs))


def unpack_world(packed: Packed) -> World:
    return World(tuple(map(bool, packed[1])))


def unpack_optimum(packed: Packed | None) -> Optimum | None:
    if packed is None:
        return None
    return Optimum(packed[0], unpack_world(packed))


class RuleChunk(NamedTuple):
    """The result of one chunk of rules: its rules (default and blocking), and the sets
    skipped as impossible and by cautious monotonicity."""

    rules: list[DefaultRule | BlockingRule]
    impossible: int
    cautious: int

# -- the file's values: JSON of ints, strings and lists ------------------------------

_BITS = bytes.maketrans(b"\x00\x01", b"01")
_BYTES = bytes.maketrans(b"01", b"\x00\x01")


class Begun(NamedTuple):
    """What is done of the chunk under way: of the optima of evidence-set size ``size``
    (``optima``, one per item), or of the rules (``rules``, ``size`` 0), the first
    ``items`` items of chunk ``chunk``."""

    size: int
    chunk: int
    items: int
    optima: list[Packed | None] | None
    rules: RuleChunk | None


def _world_text(values: bytes) -> str:
    """A world's values (one byte 0/1 per atom, atom 0 first) as hex digits of its bits."""
    return format(int(values.translate(_BITS) or b"0", 2), "x")


def _world_values(text: object, n: int) -> bytes:
    """:func:`_world_text` inverted for ``n`` values; ValueError when it is not one."""
    if not isinstance(text, str) or not 0 < len(text) <= n // 4 + 1:
        raise ValueError("a world is not a hex string of its atoms")
    bits = format(int(text, 16), "b")
    if len(bits) > n:
        raise ValueError("a world has more atoms than the model")
    values = bits.zfill(n).encode().translate(_BYTES)
    if values[0]:
        raise ValueError("a world sets atom 0")
    return values


class _Decoder:
    """Checks the JSON values of a checkpoint for one search (literals over ``n_atoms``,
    sizes up to ``k``) while turning them back into the search's values."""

    def __init__(self, n_atoms: int, k: int, max_level: int | None = None) -> None:
        self.n = n_atoms
        self.k = k
        self.max_level = max_level

    @staticmethod
    def int_(value: object, low: int = 0, high: int | None = None) -> int:
        if type(value) is not int or value < low or (high is not None and value > high):
            raise ValueError(f"{value!r} is not an int in range")
        return value

    @staticmethod
    def list_(value: object, length: int | None = None) -> list[object]:
        if type(value) is not list or (length is not None and len(value) != length):
            raise ValueError("not a list of the expected length")
        return value

    def literal(self, value: object) -> int:
        if type(value) is not int or not 0 < abs(value) <= self.n:
            raise ValueError(f"{value!r} is not a literal of the model")
        return value

    def literals(self, value: object) -> tuple[int, ...]:
        lits = tuple(self.literal(l) for l in self.list_(value))
        if len({abs(l) for l in lits}) != len(lits):
            raise ValueError("a literal set repeats an atom")
        return lits

    def evidence(self, value: object) -> tuple[int, ...]:
        lits = self.literals(value)
        if len(lits) > self.k:
            raise ValueError("an evidence set is larger than k")
        return lits

    def packed(self, value: object) -> Packed | None:
        if value is None:
            return None
        value = self.list_(value)
        if len(value) not in (2, 3):
            raise ValueError("an optimum is not [cost, world] or [cost, world, backbone]")
        # (a world's cost is what it violates of the soft weights: never more than all of them)
        return (self.int_(value[0], 0, self.max_level), _world_values(value[1], self.n + 1),
                self.literals(value[2]) if len(value) == 3 else None)

    def level(self, value: object) -> Level:
        # (a rule's level is a difference of two worlds' costs: never more than all soft weights)
        return INF if value == "inf" else self.int_(value, 0, self.max_level)

    def mapping(self, value: object, key: Callable[[object], int], item: Callable[[object], T]) -> dict[int, T]:
        out: dict[int, T] = {}
        for pair in self.list_(value):
            k, v = self.list_(pair, 2)
            out[key(k)] = item(v)
        return out

    def size(self, value: object) -> int:
        return self.int_(value, 0, self.k)

    def chunk(self, value: object) -> int:
        return self.int_(value, 0, 1 << 20)

    def begun(self, value: object) -> Begun | None:
        if value is None:
            return None
        size, chunk, items, kind, done = self.list_(value, 5)
        count = self.int_(items, 1)
        if kind == "optima":
            return Begun(self.size(size), self.chunk(chunk), count, [self.packed(p) for p in self.list_(done, count)],
                         None)
        if kind == "rules":
            return Begun(self.int_(size, 0, 0), self.chunk(chunk), count, None, self.rules(done))
        raise ValueError(f"unknown part of a chunk {kind!r}")

    def rules(self, value: object) -> RuleChunk:
        rules, impossible, cautious = self.list_(value, 3)
        out: list[DefaultRule | BlockingRule] = []
        for rule in self.list_(rules):
            kind, e, lits, level = self.list_(rule, 4)
            if kind not in ("d", "b"):
                raise ValueError(f"unknown rule kind {kind!r}")
            make = DefaultRule if kind == "d" else BlockingRule
            out.append(make(self.evidence(e), self.literals(lits), self.level(level)))
        return RuleChunk(out, self.int_(impossible), self.int_(cautious))


def _packed_json(packed: Packed | None) -> list[object] | None:
    if packed is None:
        return None
    cost, values, backbone = packed
    return [cost, _world_text(values)] if backbone is None else [cost, _world_text(values), list(backbone)]


def _optima_json(items: list[tuple[tuple[int, ...], Packed | None]]) -> list[object]:
    return [[list(e), _packed_json(p)] for e, p in items]


def _chunk_json(packed: list[Packed | None]) -> list[object]:
    return [_packed_json(p) for p in packed]


def _level_json(level: Level) -> int | str:
    return "inf" if level == INF else int(level)


def _rules_json(result: RuleChunk) -> list[object]:
    rules, impossible, cautious = result
    return [[["b" if isinstance(r, BlockingRule) else "d", list(r.evidence),
              list(r.body if isinstance(r, BlockingRule) else r.head), _level_json(r.level)] for r in rules],
            impossible, cautious]


def _begun_json(begun: Begun | None) -> list[object] | None:
    if begun is None:
        return None
    size, chunk, items, optima, rules = begun
    return [size, chunk, items, "optima", _chunk_json(optima)] if optima is not None else \
        [size, chunk, items, "rules", _rules_json(rules)] if rules is not None else None


def _digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


CHECKPOINT_START = b'{"format":"pracmln_poss checkpoint'
"""How every checkpoint file of the package begins, whatever its version."""


def _taken_by(path: str | os.PathLike[str]) -> str | None:
    """What holds ``path`` when it is not a checkpoint of the package (a symbolic link, a
    directory or special file, another file), or None: nothing, or a checkpoint.

    :raises OutputError: when the place cannot be looked at.
    """
    where = SourcePosition(str(path))
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputError(f"cannot use the checkpoint file: {exc.strerror}", where) from None
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if not stat.S_ISREG(mode):
        return "a directory or a special file"
    try:  # (not followed if a link made since, not waited on if a FIFO)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            start = f.read(len(CHECKPOINT_START))
    except OSError as exc:
        raise OutputError(f"cannot use the checkpoint file: {exc.strerror}", where) from None
    return None if start == CHECKPOINT_START else "a file that is not a checkpoint of pracmln_poss"


def check_place(path: str | os.PathLike[str]) -> None:
    """Refuse, before any work, a checkpoint's place taken by anything but a checkpoint
    of the package (a search replaces the file as it goes; :func:`discard` removes it
    once the result is safe): a directory, a special file, a symbolic link, or a file
    that does not begin as a checkpoint does (the model, a database, a file of the
    user's), each left as it is.

    :raises OutputError: naming the place and what is there.
    """
    what = _taken_by(path)
    if what is not None:
        raise OutputError(f"the checkpoint's place is taken by {what}, which is left as it is; remove it, "
                          "or give another place (--no-checkpoint: none)", SourcePosition(str(path)))


def is_checkpoint(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` holds a checkpoint of the package (a regular file that begins as
    one does; whether it checks out is for :meth:`Checkpoint.load`)."""
    try:
        return os.path.lexists(path) and _taken_by(path) is None
    except OutputError:
        return False


def discard(path: str | os.PathLike[str]) -> None:
    """Remove the checkpoint at ``path`` once what it kept is safe (the theory returned,
    or written); anything else found there (a file put in its place meanwhile) is left."""
    if is_checkpoint(path):
        with contextlib.suppress(OSError):  # (a checkpoint left behind is resumed from, or replaced)
            Path(path).unlink()


SAVE_INTERVAL = 10.0
"""Seconds between two writes of a checkpoint while a search runs (at most that much
work is done again after a crash); a search shorter than this is not written at its end."""


class Checkpoint:
    """The finished work of one search, in the file ``path``.

    :ivar refused: why a file found at ``path`` was not used (None: there was none, or
        it was used).
    :ivar aside: where that file was kept, when it was another search's (None: nowhere).
    """

    def __init__(self, path: str | os.PathLike[str], key: str, n_atoms: int, k: int, interval: float | None = None,
                 max_level: int | None = None) -> None:
        self.path = Path(path)
        self.key = key
        self.n_atoms = n_atoms
        self.k = k
        self.max_level = max_level
        self.interval = SAVE_INTERVAL if interval is None else interval
        self.optima: dict[int, list[tuple[tuple[int, ...], Packed | None]]] = {}
        self.partial: dict[int, dict[int, list[Packed | None]]] = {}  # size -> chunk -> its optima
        self.rules: dict[int, RuleChunk] = {}
        self.begun: Begun | Callable[[], Begun] | None = None  # (a function: made when written)
        self.resumed = False
        self.refused: str | None = None
        self.aside: Path | None = None  # (where another search's file found at path was put)
        self._started = self._saved = time.monotonic()
        self._encoded: dict[tuple[int, ...], tuple[object, str]] = {}
        self._check_path()

    def _check_path(self) -> None:
        """Refuse, before any work, a path the checkpoint could not be written to, or
        that holds anything but a checkpoint (:func:`check_place`)."""
        check_place(self.path)

    def load(self) -> bool:
        """Take over the file's finished work if it checks out and belongs to this search;
        whether it did (``refused`` says why not, when there was a file)."""
        try:
            data = self._read()
        except FileNotFoundError:
            data = None
        except (OSError, ValueError, TypeError, KeyError, OverflowError, RecursionError) as exc:
            self.refused = str(exc) or type(exc).__name__
            return False
        kept = self._aside(self.key)
        if data is None and not self.path.exists() and kept.is_file():  # (this search's, put aside by another's)
            with contextlib.suppress(OSError):
                os.replace(kept, self.path)
                self.refused = None
                return self.load()
        if data is None:
            return False
        self.optima, self.partial, self.rules, self.begun = data
        self.resumed = True
        return True

    def fit(self, kept: dict[int, T], chunks: Sequence[Sized], of_pass: Callable[[Begun], bool],
            length: Callable[[T], int] | None = None) -> int:
        """Drop from ``kept`` (this checkpoint's chunks of one pass, by index) those the
        pass has not: an index past its ``chunks``, or (``length``) another number of
        items than its chunk; and the chunk under way (``begun``, when ``of_pass``)
        where it does not fit either.  They are found again, never taken for this pass's:
        a file whose digest matches may still not be of this pass (forged, or of a bug).
        Returns how many were dropped."""
        unfit = [i for i, value in kept.items()
                 if i >= len(chunks) or (length is not None and length(value) != len(chunks[i]))]
        for i in unfit:
            del kept[i]
        begun = self.begun
        if isinstance(begun, Begun) and of_pass(begun) and (begun.chunk >= len(chunks)
                                                             or begun.items > len(chunks[begun.chunk])):
            self.begun = None
            unfit.append(begun.chunk)
        return len(unfit)

    def _read(self) -> tuple[dict[int, list[tuple[tuple[int, ...], Packed | None]]],
                             dict[int, dict[int, list[Packed | None]]], dict[int, RuleChunk], Begun | None] | None:
        """The file's content, checked; None (with :attr:`refused` set) when it is
        another search's; ValueError (or OSError) when it is not a sound checkpoint."""
        # (not followed if a link, not waited on if a FIFO: looked at first, then refused)
        fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise ValueError("not a regular file")
            if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
                raise ValueError("the file belongs to another user")
            if info.st_size > MAX_BYTES:
                raise ValueError(f"larger than {MAX_BYTES} bytes")
            raw = f.read(info.st_size + 1)  # (never a buffer larger than the file)
            if len(raw) > info.st_size:
                raise ValueError("it grew while it was read")
        body, sep, digest = raw.rstrip(b"\n").rpartition(b"\n")
        if not sep or digest != _digest(body).encode():
            raise ValueError("its digest does not match its content (damaged or edited)")
        data = load_json(body)
        if type(data) is not dict or data.get("format") != FORMAT:
            raise ValueError("not a checkpoint of this version of pracmln_poss")
        if data.get("key") != self.key:
            self.refused = "it belongs to another conversion (another model or other options)"
            theirs = data.get("key")
            if isinstance(theirs, str) and re.fullmatch(r"[0-9a-f]{16,128}", theirs):  # (a name from disk: checked)
                aside = self._aside(theirs)
                with contextlib.suppress(OSError):
                    os.replace(self.path, aside)
                    self.aside = aside
                    self.refused += f"; kept as {aside.name}, which that conversion resumes from when run again"
            return None
        d = _Decoder(self.n_atoms, self.k, self.max_level)
        optima = d.mapping(data["optima"], d.size, lambda v: [(d.evidence(e), d.packed(p))
                                                               for e, p in (d.list_(x, 2) for x in d.list_(v))])
        partial = d.mapping(data["partial"], d.size,
                            lambda v: d.mapping(v, d.chunk, lambda c: [d.packed(p) for p in d.list_(c)]))
        rules = d.mapping(data["rules"], d.chunk, d.rules)
        return optima, partial, rules, d.begun(data["begun"])

    def _aside(self, key: str) -> Path:
        """Where the checkpoint of the search with ``key`` is kept while another search
        uses :attr:`path` (its name and the key's first digits, within 255 bytes)."""
        suffix = f".{key[:12]}"
        head = self.path.name.encode()[:255 - len(suffix)].decode("utf-8", "ignore")
        return self.path.with_name(head + suffix)

    def chunk_done(self, chunks: dict[int, _E], i: int, result: _E) -> None:
        """Chunk ``i``'s ``result`` kept in ``chunks`` (one of this checkpoint's tables,
        unless it holds it already: a chunk resumed from the file), the chunk under way
        forgotten, and the file saved when a save is due."""
        if i not in chunks:
            chunks[i] = result
            self.begun = None
            self.save(force=False)

    def save(self, force: bool = True) -> None:
        """Write the file (atomically); with ``force=False`` only if the last write is
        older than the interval."""
        now = time.monotonic()
        if not force and now - self._saved < self.interval:
            return
        body = self._body().encode()
        where = SourcePosition(str(self.path))
        try:
            # (at most 200 bytes of the name, not characters: with mkstemp's 8 it must fit in 255)
            head = self.path.name.encode()[:200].decode("utf-8", "ignore")
            fd, tmp = tempfile.mkstemp(prefix=head + ".", dir=self.path.parent)
        except OSError as exc:
            raise OutputError(f"cannot write the checkpoint: {exc.strerror}", where) from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(body + b"\n" + _digest(body).encode() + b"\n")  # the digest last
            os.replace(tmp, self.path)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise OutputError(f"cannot write the checkpoint: {exc.strerror or exc}", where) from None
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._saved = now

    def _body(self) -> str:
        """The file's JSON (without the digest).  Finished parts never change, so each
        is encoded once and kept: a save costs what is new since the last one, not the
        whole state again (which made saving every interval quadratic)."""
        used: dict[tuple[int, ...], tuple[object, str]] = {}

        def encoded(key: tuple[int, ...], value: _E, encode: Callable[[_E], object]) -> str:
            hit = self._encoded.get(key)
            if hit is None or hit[0] is not value:
                hit = (value, json.dumps(encode(value), separators=(",", ":")))
            used[key] = hit
            return hit[1]

        optima = ",".join(f"[{size},{encoded((0, size), items, _optima_json)}]" for size, items in self.optima.items())
        partial = ",".join(f"[{size},[" + ",".join(f"[{i},{encoded((1, size, i), packed, _chunk_json)}]"
                                                   for i, packed in chunks.items()) + "]]"
                           for size, chunks in self.partial.items())
        rules = ",".join(f"[{i},{encoded((2, i), result, _rules_json)}]" for i, result in self.rules.items())
        self._encoded = used
        head = json.dumps({"format": FORMAT, "key": self.key}, separators=(",", ":"))[:-1]
        begun = json.dumps(_begun_json(self.begun() if callable(self.begun) else self.begun), separators=(",", ":"))
        return f'{head},"optima":[{optima}],"partial":[{partial}],"rules":[{rules}],"begun":{begun}}}'

    def finish(self) -> None:
        """Write the finished search, kept until its owner has the result safe
        (:func:`discard`); not when the whole search took less than the interval, which
        costs less to run again than the write."""
        if time.monotonic() - self._started >= self.interval:
            self.save()
