"""The JSON format of possibilistic theories.

Schema (version 1)::

    {
      "format": "pracmln_poss-theory",
      "version": 1,
      "resolution": "0.000001",               // unit of exact levels, as text
      "atoms": ["bird(T)", "flies(T)"],       // atom names, in order
      "levels": [0, 0.5, "inf"],              // the distinct levels, ascending
      "formulas": [                           // grouped by level, ascending
        {"formula": "bird(T) => flies(T)", "level": 0.5, "origin": "{bird(T)}"},
        {"formula": "penguin(T) => bird(T)", "level": "inf"}
      ]
    }

Levels are numbers in the model's weight units (the penalty ``x`` of ``lambda_x``) or
``"inf"`` for certain formulas; they are read back exactly (no float rounding).
``origin`` is optional.  Formulas are in pracmln syntax.

A lifted (first-order) theory has one more key, ``types``, after ``atoms``::

      "types": [{"name": "person", "variable_prefix": "p", "constants": ["Alice", "Bob"]}],

and declares its atoms by their predicates and domains instead of listing them (the
grounding's atoms, in its order), with a ``note`` on how its domains were searched when
its conversion says one::

      "domains": [{"name": "person", "constants": ["Alice", "Bob"]}],
      "predicates": [{"name": "Friends", "domains": ["person", "person"]}],

and its formulas use variables named after their type's prefix (``p1``, ``p2``); two
variables of a type stand for different constants only where ``p1 != p2`` is written.
Reading such a file with :func:`from_json` grounds it; :func:`read_json` keeps it lifted.
"""

from __future__ import annotations

__all__ = ["to_json", "from_json", "read_json", "FORMAT_NAME", "FORMAT_VERSION"]

import json
from decimal import Decimal
from typing import Any

from ..errors import FormulaSyntaxError, ModelError, PossError, SourcePosition, UnknownNameError, WeightError
from ..logic.leaves import intern_atoms
from ..logic.syntax import compact_atom, parse_formula
from ..model.signature import ProductAtoms, Signature, parse_constants
from ..possibilistic.lifted_theory import LiftedTheory, atom_constants, read_rule
from ..possibilistic.protocol import Theory
from ..possibilistic.theory import PossibilisticFormula, PossibilisticTheory, parse_level
from ..sources import load_json
from ..weights import Resolution, weight_number
from .sections import by_level

FORMAT_NAME = "pracmln_poss-theory"
FORMAT_VERSION = 1


def to_json(theory: Theory, made_by: str | None = None) -> str:
    """The theory, ground or lifted, as JSON text (deterministic); ``made_by``: how it
    was made (:func:`~.codec.dumps`), kept as such (a reader takes no meaning from it)."""
    formulas = []
    for _level, group in by_level(theory):
        for pf in group:
            item: dict[str, object] = {
                "formula": theory.format(pf.formula),
                "level": weight_number(pf.steps, theory.resolution),
            }
            if pf.origin:
                item["origin"] = pf.origin
            formulas.append(item)
    data: dict[str, object] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        **({} if made_by is None else {"made_by": made_by}),
        "resolution": str(theory.resolution),
    }
    if isinstance(theory, LiftedTheory) and theory.note is not None:
        data["note"] = theory.note
    if isinstance(theory.atoms, ProductAtoms):  # (its atoms as their predicates and domains)
        signature = theory.atoms.signature
        data["domains"] = [{"name": name, "constants": list(constants)} for name, constants in signature.domains]
        data["predicates"] = [{"name": pred, "domains": list(doms)} for pred, doms in signature.predicates]
    else:
        data["atoms"] = list(theory.atoms)
    if isinstance(theory, LiftedTheory):
        prefixes = theory.prefixes()
        data["types"] = [
            {"name": name, "variable_prefix": prefixes[name], "constants": list(constants)}
            for name, constants in theory.types
        ]
    data["levels"] = [weight_number(level, theory.resolution) for level in theory.level_steps()]
    data["formulas"] = formulas
    return json.dumps(data, indent=2) + "\n"


def from_json(text: str, source: str | None = None) -> PossibilisticTheory:
    """Read a theory written by :func:`to_json`; a lifted one is grounded over its types.

    :raises PossError: naming the file, and the JSON line or formula index at fault.
    """
    return read_json(text, source).ground()


def read_json(text: str, source: str | None = None) -> PossibilisticTheory | LiftedTheory:
    """Read a theory written by :func:`to_json`, a lifted one as a :class:`~pracmln_poss.possibilistic.lifted_theory.LiftedTheory`.

    :raises PossError: naming the file, and the JSON line or formula index at fault.
    """
    data = _document(text, source)
    where = SourcePosition(source)
    try:
        resolution = Resolution(str(data.get("resolution", "1e-6")))
    except WeightError as exc:
        raise WeightError(exc.message, where) from None
    names = _atom_names(data, where)
    lifted = "types" in data
    types, prefix_of = _types(data["types"], SourcePosition(source, None, "types")) if lifted else ((), {})
    signature = _signature(data, source) if lifted else None
    formulas = []
    declared = "atoms" in data  # the atoms are fixed: any other name is an error
    constants = set(signature.constants) if signature is not None else atom_constants(names)
    for i, item in enumerate(data["formulas"]):
        pos = SourcePosition(source, None, f"formulas[{i}]")
        if not isinstance(item, dict) or not isinstance(item.get("formula"), str) or "level" not in item:
            raise FormulaSyntaxError("expected {\"formula\": TEXT, \"level\": NUMBER or \"inf\"}", pos)
        level = item["level"]
        if isinstance(level, bool) or not isinstance(level, (int, Decimal, str)):
            raise WeightError(f"level {level!r} is not a number or \"inf\"", pos)
        try:
            lvl = parse_level(level, resolution)
        except WeightError as exc:
            raise WeightError(exc.message, pos) from None
        before = len(names)
        try:
            if lifted:
                formula = read_rule(item["formula"], prefix_of, constants, pos)
            else:
                formula = intern_atoms(parse_formula(item["formula"], ground=True, position=pos), names)
        except PossError as exc:
            raise exc.at(pos) from None
        if declared and len(names) > before:
            raise UnknownNameError(f"{list(names)[before]} is not an atom of the theory (not in its 'atoms')", pos)
        origin = item.get("origin")
        formulas.append(PossibilisticFormula(formula, lvl, origin if isinstance(origin, str) else None, resolution))
    _check_levels(data, formulas, resolution, source)
    made_by = data.get("made_by")
    if made_by is not None and not isinstance(made_by, str):
        raise FormulaSyntaxError(f"'made_by' is not a text: {made_by!r}", SourcePosition(source, None, "made_by"))
    note = data.get("note")
    if note is not None and not isinstance(note, str):
        raise FormulaSyntaxError(f"'note' is not a text: {note!r}", SourcePosition(source, None, "note"))
    if lifted:
        return LiftedTheory(types, tuple(formulas), signature.atoms if signature is not None else tuple(names),
                            resolution, made_by, note)
    return PossibilisticTheory(tuple(names), tuple(formulas), resolution, made_by)


def _document(text: str, source: str | None) -> dict[str, Any]:
    """The JSON object of a theory of our format and version."""
    try:
        data = load_json(text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        raise FormulaSyntaxError(f"invalid JSON: {exc.msg}", SourcePosition(source, exc.lineno)) from None
    except (RecursionError, ValueError) as exc:  # nesting too deep; an int of too many digits
        raise FormulaSyntaxError(f"invalid JSON: {str(exc).splitlines()[0][:100] or type(exc).__name__}",
                                 SourcePosition(source)) from None
    where = SourcePosition(source)
    if not isinstance(data, dict) or not isinstance(data.get("formulas"), list):
        raise FormulaSyntaxError("expected a JSON object with a 'formulas' list", where)
    if data.get("format", FORMAT_NAME) != FORMAT_NAME or data.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        raise FormulaSyntaxError(
            f"unsupported format {data.get('format')!r} version {data.get('version')!r} "
            f"(expected {FORMAT_NAME!r} version {FORMAT_VERSION})",
            where,
        )
    return data


def _atom_names(data: dict[str, Any], where: SourcePosition) -> dict[str, int]:
    """The theory's ``atoms`` (name -> int from 1, in order), when it lists them."""
    names: dict[str, int] = {}
    if not isinstance(data.get("atoms", []), list):
        raise FormulaSyntaxError("'atoms' is not a list of atom names", where)
    for name in data.get("atoms", []):
        if not isinstance(name, str):
            raise FormulaSyntaxError(f"atom names must be strings, got {name!r}", where)
        names.setdefault(compact_atom(name), len(names) + 1)
    return names


def _signature(data: dict[str, Any], source: str | None) -> Signature | None:
    """The ``predicates`` and ``domains`` of a lifted theory that declares its atoms so
    (None: it lists them, or has none)."""
    if "predicates" not in data and "domains" not in data:
        return None
    where = SourcePosition(source, None, "predicates")
    if "atoms" in data:
        raise FormulaSyntaxError("a theory lists its 'atoms' or declares them ('predicates', 'domains'), not both",
                                 where)
    domains, predicates = data.get("domains"), data.get("predicates")
    shape = ('expected "domains": [{"name": TEXT, "constants": [TEXT, ...]}, ...] and '
             '"predicates": [{"name": TEXT, "domains": [TEXT, ...]}, ...]')
    if not (isinstance(domains, list) and isinstance(predicates, list)
            and all(isinstance(d, dict) and isinstance(d.get("name"), str) and isinstance(d.get("constants"), list)
                    and all(isinstance(c, str) for c in d["constants"]) for d in domains)
            and all(isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("domains"), list)
                    and all(isinstance(d, str) for d in p["domains"]) for p in predicates)):
        raise FormulaSyntaxError(shape, where)
    try:
        return Signature(tuple((p["name"], tuple(p["domains"])) for p in predicates),
                         tuple((d["name"], parse_constants(d["constants"], f"domain {d['name']}")) for d in domains))
    except ModelError as exc:
        raise FormulaSyntaxError(exc.message, where) from None


def _check_levels(data: dict[str, Any], formulas: list[PossibilisticFormula], resolution: Resolution,
                  source: str | None) -> None:
    """The ``levels`` list, when there is one, is the formulas' levels (else the file was
    cut short or edited)."""
    if "levels" in data:
        try:
            said = sorted({parse_level(v, resolution) for v in data["levels"]}) if isinstance(data["levels"], list) else None
        except (WeightError, TypeError):
            said = None
        if said is None or said != sorted({pf.steps for pf in formulas}) or len(said) != len(data["levels"]):
            raise FormulaSyntaxError(
                "the 'levels' list is not the levels of the formulas: the file is cut short or was edited",
                SourcePosition(source, None, "levels"),
            )


def _types(items: object, where: SourcePosition) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], dict[str, str]]:
    """The ``types`` list: (name, constants) pairs and prefix -> type name."""
    shape = 'expected "types": [{"name": TEXT, "variable_prefix": TEXT, "constants": [TEXT, ...]}, ...]'
    if not isinstance(items, list):
        raise FormulaSyntaxError(shape, where)
    types, prefix_of = [], {}
    for item in items:
        if not (isinstance(item, dict) and isinstance(item.get("name"), str)
                and isinstance(item.get("variable_prefix"), str) and isinstance(item.get("constants"), list)
                and all(isinstance(c, str) for c in item["constants"])):
            raise FormulaSyntaxError(shape, where)
        types.append((item["name"], tuple(item["constants"])))
        prefix_of[item["variable_prefix"]] = item["name"]
    return tuple(types), prefix_of
