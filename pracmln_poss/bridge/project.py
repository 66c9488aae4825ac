"""pracmln project files (``.pracmln``): zip archives of models, databases and settings.

A project holds ``mlns/*.mln``, ``dbs/*.db`` and a ``query.conf`` (JSON) naming the
model (``mln``), the database (``db``), the grammar (``grammar``) and the query
predicates (``queries``, comma-separated).  Files inside are named as pracmln names
them: ``PROJECT.pracmln:NAME.mln`` or ``PROJECT.pracmln:NAME.db`` (also with the
folder: ``PROJECT.pracmln:mlns/NAME.mln``).  Reading needs no pracmln.
"""

from __future__ import annotations

__all__ = ["Project", "ProjectSettings", "Sources", "is_project_reference", "open_sources", "read_project", "read_member",
           "expand_includes", "expand_file_includes"]

import os
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import ModelError, SourcePosition
from ..logic.syntax import strip_comments
from ..sources import load_json

_MAX_MEMBER = 256 * 1024 * 1024  # a member larger than this is not a model or database
_MAX_CONF = 1024 * 1024  # nor is a query.conf larger than this one
_MAX_PROJECT = 1024 * 1024 * 1024  # a project larger than this (compressed) is not one of models
_MAX_RATIO = 100  # a member compressed more than this (and larger than _RATIO_FROM) is a zip bomb
_RATIO_FROM = 8 * 1024 * 1024


def _read_bounded(archive: zipfile.ZipFile, member: str, limit: int, where: SourcePosition) -> bytes:
    """A member's bytes, refused (naming it) when it would expand beyond ``limit`` or
    far beyond its compressed size, before anything is expanded."""
    info = archive.getinfo(member)
    if info.file_size > limit:
        raise ModelError(f"file of {info.file_size:,} bytes is too large to be read (at most {limit:,})", where)
    if info.file_size > _RATIO_FROM and info.file_size > _MAX_RATIO * max(info.compress_size, 1):
        raise ModelError(f"file of {info.file_size:,} bytes compressed into {info.compress_size:,} (a zip bomb?); "
                         "refusing to expand it", where)
    try:
        with archive.open(info) as f:  # (the header may lie: never read more than it says)
            data = f.read(limit + 1)
    except (zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError, zipfile.BadZipFile,
            OSError) as exc:  # damaged, encrypted, ...
        raise ModelError(f"cannot read it from the project: {str(exc) or type(exc).__name__}", where) from None
    if len(data) > limit:
        raise ModelError(f"file larger than {limit:,} bytes; refusing to read it", where)
    return data


@dataclass(frozen=True)
class ProjectSettings:
    """What a project's ``query.conf`` says (None: not said)."""

    mln: str | None = None
    db: str | None = None
    grammar: str | None = None
    queries: tuple[str, ...] | None = None
    cw: bool = False
    """pracmln's closed world: every predicate but the query and functional ones is closed."""
    cw_preds: tuple[str, ...] = ()
    """Predicates whose atoms the database does not give are false."""
    ignore_unknown_preds: bool = False
    """A database's literals of predicates the model does not declare are left out."""


@dataclass(frozen=True)
class Project:
    """A project archive: its path, its members and its query settings."""

    path: str
    members: tuple[str, ...]
    settings: ProjectSettings

    def member(self, name: str, folder: str) -> str:
        """The archive member ``name`` names (``NAME.mln``, ``mlns/NAME.mln``).

        :raises ModelError: listing the project's files of that kind when there is none.
        """
        for candidate in (name, f"{folder}/{name}"):
            if candidate in self.members:
                return candidate
        known = sorted(m.split("/", 1)[1] for m in self.members if m.startswith(folder + "/"))
        raise ModelError(
            f"project has no {folder[:-1]} file {name!r}; it has: {', '.join(known) or 'none'}",
            SourcePosition(self.path),
        )


def is_project_reference(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a project (``X.pracmln``) or a file in one (``X.pracmln:NAME``);
    a path that exists as it is written is a file (in a folder ``a.pracmln:b``, say)."""
    text = os.fspath(path)
    return text.endswith(".pracmln") or (".pracmln:" in text and not os.path.lexists(text))


def split_reference(path: str | os.PathLike[str]) -> tuple[str, str | None]:
    """``("X.pracmln", "NAME.mln")`` from ``X.pracmln:NAME.mln``; ``(X.pracmln, None)`` for the project."""
    text = os.fspath(path)
    archive, sep, member = text.partition(".pracmln:")
    if sep:
        return archive + ".pracmln", member or None
    return text, None


@contextmanager
def _archive(path: str | os.PathLike[str]) -> Iterator[zipfile.ZipFile]:
    """The project's zip archive, open (a regular file only: see :func:`open_regular`).

    :raises ModelError: naming the file when it cannot be read or is not a zip archive.
    """
    from ..sources import open_regular

    where = SourcePosition(os.fspath(path))
    if not os.path.lexists(path):
        raise ModelError("no such project file", where)
    with open_regular(path, "the project file", _MAX_PROJECT) as fh:
        try:
            archive = zipfile.ZipFile(fh)
        # (NotImplementedError: a member needs a newer zip version than Python reads)
        except (OSError, zipfile.BadZipFile, ValueError, EOFError, NotImplementedError) as exc:
            raise ModelError(f"cannot read the project (a .pracmln file is a zip archive): {exc}", where) from None
        with archive:
            yield archive


def read_project(path: str | os.PathLike[str]) -> Project:
    """The project archive at ``path`` with its ``query.conf`` settings.

    :raises ModelError: naming the file when it cannot be read or is not a project.
    """
    where = SourcePosition(os.fspath(path))
    try:
        with _archive(path) as archive:
            members = tuple(archive.namelist())
            conf = (_read_bounded(archive, "query.conf", _MAX_CONF, SourcePosition(f"{where.file}:query.conf"))
                    if "query.conf" in members else None)
    except (OSError, zipfile.BadZipFile) as exc:
        raise ModelError(f"cannot read the project (a .pracmln file is a zip archive): {exc}", where) from None
    settings = ProjectSettings()
    if conf is not None:
        try:
            data = load_json(conf)
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise ModelError(f"query.conf is not valid JSON: {exc}", SourcePosition(f"{where.file}:query.conf")) from None
        if not isinstance(data, dict):
            raise ModelError("query.conf is not a JSON object", SourcePosition(f"{where.file}:query.conf"))
        queries = str(data.get("queries") or "").strip()
        settings = ProjectSettings(
            mln=str(data["mln"]) if data.get("mln") else None,
            db=str(data["db"]) if data.get("db") else None,
            grammar=str(data["grammar"]) if data.get("grammar") else None,
            queries=tuple(q.strip() for q in queries.split(",") if q.strip()) if queries else None,
            cw=_true(data.get("cw")),
            cw_preds=_names(data.get("cw_preds")),
            ignore_unknown_preds=_true(data.get("ignore_unknown_preds")),
        )
    return Project(os.fspath(path), members, settings)


def _true(value: object) -> bool:
    """A query.conf switch as pracmln's tools write it (``1``, ``true``; ``0``, ``""``: off)."""
    return value not in (None, 0, False, "", "0", "False", "false")


def _names(value: object) -> tuple[str, ...]:
    """Predicate names as pracmln reads them from ``query.conf``: a comma-separated text or a list."""
    items = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else ()
    return tuple(dict.fromkeys(str(x).strip() for x in items if str(x).strip()))


def read_member(project: Project, member: str, archive: zipfile.ZipFile | None = None) -> str:
    """The text of one file of the project (as :func:`~pracmln_poss.sources.read_source`
    reads a file: UTF-8, a byte-order mark ignored, line endings made ``\\n``), from
    ``archive`` when the caller has it open.

    :raises ModelError: naming ``PROJECT.pracmln:member`` when it cannot be read.
    """
    from ..sources import decode_text

    where = SourcePosition(f"{project.path}:{member}")
    try:
        if archive is None:
            with _archive(project.path) as opened:
                data = _read_bounded(opened, member, _MAX_MEMBER, where)
        else:
            data = _read_bounded(archive, member, _MAX_MEMBER, where)
    except (OSError, KeyError, zipfile.BadZipFile) as exc:
        raise ModelError(f"cannot read it from the project: {exc}", where) from None
    return decode_text(data, "it", where)


_INCLUDE = re.compile(r'^#include\s*(?:"(?P<quoted>[^"]+)"|<(?P<angled>[^<>]+)>)\s*$')
MAX_INCLUDE_DEPTH = 16

MAX_INCLUDES = 10_000
"""The ``#include`` lines one model may follow, a file included twice counted twice: a
file included 1,000 times by a file itself included 1,000 times expands a few bytes to
a million copies (it took 26 s and 530 MB)."""

MAX_EXPANDED_LINES = 2_000_000
"""The lines of a model with its ``#include`` files in (pracmln's largest example model,
meals, has 19,591 formulas)."""

Resolve = Callable[[str, bool, str, SourcePosition], tuple[str, str]]
"""``(target, angled, current key, where)`` -> the key of the file an ``#include`` names
and the name to show for it; raises :class:`ModelError` for one it may not name."""


def _expand(name: str, key: str, text: str, resolve: Resolve, read: Callable[[str, str], str]
            ) -> tuple[str, tuple[SourcePosition, ...] | None, tuple[str, ...]]:
    """A model's text with its ``#include`` lines replaced by the files they name (each
    file read once, however often it is included), the position of every line (None:
    the text has no ``#include``) and the keys of the files read, in the order first
    read.  Bounded in depth and size like any input.

    :raises ModelError: at the ``#include`` line, for a file it may not name, an include
        cycle, or an expansion too deep or too large.
    """
    from ..sources import MAX_INPUT_BYTES

    if "#include" not in text:
        return text, None, ()
    lines: list[str] = []
    positions: list[SourcePosition] = []
    texts: dict[str, str] = {}
    split: dict[str, tuple[list[str], list[str]]] = {}  # a file's lines as read and without comments
    size = followed = 0

    def expand(shown: str, current: str, body: str, chain: tuple[str, ...]) -> None:
        nonlocal size, followed
        if current not in split:
            split[current] = body.split("\n"), strip_comments(body).split("\n")
        originals, stripped_lines = split[current]
        if len(lines) + len(originals) > MAX_EXPANDED_LINES:
            raise ModelError(f"the model with its #include files has more than {MAX_EXPANDED_LINES:,} lines; "
                             "refusing to read it", positions[-1] if positions else SourcePosition(shown))
        for index, line in enumerate(stripped_lines):
            where = SourcePosition(shown, index + 1, originals[index])
            stripped = line.strip()
            if not stripped.startswith("#include"):
                lines.append(originals[index])
                positions.append(where)
                continue
            found = _INCLUDE.match(stripped)
            if found is None:
                raise ModelError('malformed #include; write #include "NAME.mln"', where)
            target = found.group("quoted") or found.group("angled")
            followed += 1
            if followed > MAX_INCLUDES:
                raise ModelError(f"the model follows more than {MAX_INCLUDES:,} #include lines (a file included "
                                 "twice counts twice); refusing to read it", where)
            included, included_name = resolve(target, found.group("angled") is not None, current, where)
            if included in chain or len(chain) >= MAX_INCLUDE_DEPTH:
                raise ModelError(f"#include {target!r} makes a cycle or nests deeper than {MAX_INCLUDE_DEPTH}",
                                 where)
            if included not in texts:
                try:
                    texts[included] = read(included, included_name)
                except ModelError as exc:
                    raise ModelError(f"#include {target!r}: {exc}", where) from None
            size += len(texts[included])
            if size > MAX_INPUT_BYTES:
                raise ModelError(f"the model with its #include files is larger than "
                                 f"{MAX_INPUT_BYTES // (1024 * 1024)} MB; refusing to read it", where)
            lines.append("")  # the #include line itself, now empty
            positions.append(where)
            expand(included_name, included, texts[included], chain + (included,))

    expand(name, key, text, (key,))
    return "\n".join(lines), tuple(positions), tuple(texts)


def expand_includes(project: Project, member: str, text: str) -> tuple[str, tuple[SourcePosition, ...] | None]:
    """The text of a project's model with its ``#include`` lines replaced by the members
    they name, and the position of every line (None: the text has no ``#include``).

    Inside a project, ``#include "NAME"`` and ``#include <NAME>`` name members of that
    project only (``NAME.mln`` or ``mlns/NAME.mln``): nothing outside the archive is read.
    The archive is opened once and each member read once.

    :raises ModelError: at the ``#include`` line, for a name that is not a member of the
        project, an include cycle, or an expansion too deep or too large.
    """
    if "#include" not in text:
        return text, None

    def resolve(target: str, angled: bool, current: str, where: SourcePosition) -> tuple[str, str]:
        included = _included_member(project, target, where)
        return included, f"{project.path}:{included}"

    with _archive(project.path) as archive:
        expanded, positions, _ = _expand(f"{project.path}:{member}", member, text, resolve,
                                         lambda key, shown: read_member(project, key, archive))
    return expanded, positions


def _included_member(project: Project, target: str, where: SourcePosition) -> str:
    """The member an ``#include`` inside ``project`` names."""
    if target.startswith(("/", "\\")) or ".." in target.replace("\\", "/").split("/") or ":" in target:
        raise ModelError(f"#include {target!r} names a file outside this project; inside a project, #include names "
                         "one of its own model files", where)
    try:
        return project.member(target, "mlns")
    except ModelError as exc:
        raise ModelError(f"#include {target!r}: {exc.message}", where) from None


def expand_file_includes(path: str, text: str) -> tuple[str, tuple[SourcePosition, ...] | None, tuple[str, ...]]:
    """The text of a plain model file with its ``#include "NAME"`` lines replaced by the
    files they name, the position of every line (None: the text has no ``#include``) and
    the real paths of the files included (what a command must not write onto).

    ``NAME`` is a path, taken from the folder of the file that includes it when it is
    relative (pracmln looks in the working directory first; we do not, so that a model
    means the same wherever it is run from).  Any model file may be named (``NAME.mln``),
    as in pracmln: a plain model is the user's own file; other files are refused (an
    error quotes the line it is about, and a file of secrets is no model).  Each is read
    as a model file is (regular files only, bounded, UTF-8) and once.  ``#include <NAME>`` names a file of a
    project, and a plain model is in none.

    :raises ModelError: at the ``#include`` line, as :func:`expand_includes` does.
    """
    from ..sources import read_source

    def resolve(target: str, angled: bool, current: str, where: SourcePosition) -> tuple[str, str]:
        if angled:
            raise ModelError(f"#include <{target}> names a file of a project, and this model is in none; write "
                             f'#include "{target}" for a file beside it', where)
        if not target.lower().endswith(".mln"):  # (an error would quote its lines: a file of secrets, say)
            raise ModelError(f"#include {target!r} names a file that is not a model file; #include reads model "
                             "files only (NAME.mln)", where)
        named = target if os.path.isabs(target) else os.path.join(os.path.dirname(current), target)
        return os.path.realpath(named), os.path.normpath(named)

    return _expand(path, os.path.realpath(path), text, resolve,
                   lambda key, shown: read_source(key, "included model file"))


@dataclass(frozen=True)
class Sources:
    """The texts of a model and (optionally) a database, wherever they come from, with
    the names to show in messages and the settings of the project they came from.

    :ivar model_positions: where each line of ``model_text`` comes from, when it is not
        simply line ``i`` of ``model_name`` (a project's model with its includes).
    :ivar included: the real paths of the files a plain model's ``#include`` lines read
        (a project's are members of its archive).
    """

    model_name: str
    model_text: str
    db_name: str | None
    db_text: str | None
    settings: ProjectSettings
    model_positions: tuple[SourcePosition, ...] | None = None
    included: tuple[str, ...] = ()


def open_sources(model: str | os.PathLike[str], db: str | os.PathLike[str] | None) -> Sources:
    """Read a model given as a file, a project (its ``query.conf`` names the model and
    the database) or a file in a project; and a database given as a file or a file in
    a project.

    :raises ModelError: naming the file or project that cannot be read.
    """
    from ..sources import read_source

    settings = ProjectSettings()
    db_name = db_text = None
    positions = None
    included: tuple[str, ...] = ()
    if is_project_reference(model):
        archive, member = split_reference(model)
        project = read_project(archive)
        settings = project.settings
        name = member or settings.mln
        if name is None:
            raise ModelError("the project's query.conf names no model; name one as PROJECT.pracmln:NAME.mln",
                             SourcePosition(archive))
        inner = project.member(name, "mlns")
        model_name = f"{archive}:{inner}"
        model_text, positions = expand_includes(project, inner, read_member(project, inner))
        if db is None and member is None and settings.db:
            inner_db = project.member(settings.db, "dbs")
            db_name, db_text = f"{archive}:{inner_db}", read_member(project, inner_db)
    else:
        model_name, model_text = os.fspath(model), read_source(model, "model file")
        model_text, positions, included = expand_file_includes(model_name, model_text)
    if db is not None:
        if is_project_reference(db):
            archive, member = split_reference(db)
            project = read_project(archive)
            name = member or project.settings.db
            if name is None:
                raise ModelError("the project's query.conf names no database; name one as PROJECT.pracmln:NAME.db",
                                 SourcePosition(archive))
            inner_db = project.member(name, "dbs")
            db_name, db_text = f"{archive}:{inner_db}", read_member(project, inner_db)
        else:
            db_name, db_text = os.fspath(db), read_source(db, "database file")
    return Sources(model_name, model_text, db_name, db_text, settings, positions, included)
