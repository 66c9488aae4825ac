"""Package-level promises: import without side effects, explicit __all__, one error root."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import pkgutil
import subprocess
import sys

import pytest

import pracmln_poss
from pracmln_poss import errors

from .support import ROOT, run_python


def modules():
    for info in pkgutil.walk_packages(pracmln_poss.__path__, "pracmln_poss."):
        if info.name != "pracmln_poss.__main__":
            yield info.name


def test_importing_the_package_does_not_import_pracmln():
    code = "import sys, pracmln_poss; print('pracmln' in sys.modules)"
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


SEARCH_MODULES = ("pracmln_poss.transformations.conversion", "pracmln_poss.search.rules", "pracmln_poss.search.rule_search",
                  "pracmln_poss.search.run", "pracmln_poss.search.optima_pass", "pracmln_poss.search.rules_pass",
                  "pracmln_poss.search.forecast", "pracmln_poss.search.workers", "pracmln_poss.search.checkpoint",
                  "multiprocessing", "concurrent.futures.process")
"""What a conversion imports and nothing else needs."""


def test_only_a_conversion_imports_the_rule_search():
    """The package, the command line's parser and ``map`` do not import the transformations'
    rule search (a start-up cost every ``map`` paid); ``convert``, its help and the package's
    ``METHODS`` do, and then ``convert``'s flags are all there."""
    check = f"import json, sys; print(json.dumps(sorted(m for m in {SEARCH_MODULES!r} if m in sys.modules)))"
    for code, imported in [
        ("import pracmln_poss, pracmln_poss.transformations, pracmln_poss.transformations.options", False),
        ("from pracmln_poss.cli import build_parser; build_parser().parse_args(['map', 'm.mln'])", False),
        ("from pracmln_poss.cli import build_parser; build_parser().parse_args(['query', 't', '-q', 'p(A)'])", False),
        ("from pracmln_poss.cli import build_parser; build_parser().parse_args(['convert', 'm.mln', '-k', '2'])", True),
        ("from pracmln_poss.cli import build_parser; build_parser().format_help()", False),
        ("import pracmln_poss; pracmln_poss.METHODS", True),
        ("from pracmln_poss.transformations import *; DefaultsOptions, Runtime, transform_mln", True),
    ]:
        out = run_python(f"{code}\n{check}")
        assert out.returncode == 0, out.stderr
        found = json.loads(out.stdout)
        assert found == (sorted(SEARCH_MODULES) if imported else []), code
    helped = subprocess.run([sys.executable, "-m", "pracmln_poss", "convert", "--help"], capture_output=True, text=True,
                            cwd=ROOT)
    assert helped.returncode == 0 and "--method {exhaustive,selective,defaults,lifted}" in helped.stdout
    assert " -k K" in helped.stdout and "--jobs N" in helped.stdout
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        importlib.import_module("pracmln_poss.transformations").nothing  # noqa: B018


def test_the_options_classes_are_at_the_package_root():
    """Each method's options class is the method (``transform(model, DefaultsOptions(k=2))``)
    and is documented as such: it is at the root beside ``transform``, the same class as in
    ``pracmln_poss.transformations``, and importing the package still does not import the
    rule search (checked above) until one is asked for."""
    import pracmln_poss
    from pracmln_poss import transformations

    for name in ("ExhaustiveOptions", "SelectiveOptions", "DefaultsOptions", "LiftedOptions", "MethodOptions",
                 "Runtime", "Focus"):
        assert name in pracmln_poss.__all__ and getattr(pracmln_poss, name) is getattr(transformations, name), name
    model = pracmln_poss.load_first_order(str(ROOT / "examples" / "paper" / "smokers.mln"))
    by_class = pracmln_poss.transform(model, pracmln_poss.DefaultsOptions(k=1), jobs=1)
    assert pracmln_poss.dumps(by_class) == pracmln_poss.dumps(pracmln_poss.transform(model, "defaults", k=1))


def test_no_module_but_the_root_does_anything_on_import_beyond_defining_names():
    """Only imports, definitions, names bound to values and ``TYPE_CHECKING`` blocks at
    module level: the package's ``__init__`` alone wires things up (theories' displays,
    pracmln's ``MLN.to_possibilistic``), and says so."""
    import ast

    package = ROOT / "pracmln_poss"
    allowed = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.AugAssign)
    for path in sorted(package.rglob("*.py")):
        if path in (package / "__init__.py", package / "__main__.py"):
            continue
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "__name__ == '__main__'"):
                continue
            docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            assert isinstance(node, allowed) or docstring, f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}"


def test_every_module_has_an_explicit_all():
    for name in modules():
        module = importlib.import_module(name)
        assert hasattr(module, "__all__"), name
        for exported in module.__all__:
            assert hasattr(module, exported), f"{name}.{exported}"


def test_every_error_derives_from_the_root_and_a_builtin():
    for _, cls in inspect.getmembers(errors, inspect.isclass):
        if issubclass(cls, Warning):
            assert issubclass(cls, errors.PossWarning), cls  # (warnings have a root of their own)
        elif issubclass(cls, Exception) and cls is not errors.PossError:
            assert issubclass(cls, errors.PossError), cls
            assert any(b in cls.__mro__ for b in (ValueError, TypeError, KeyError, RuntimeError, ImportError,
                                                  OSError)), cls


def _bootstrap():
    spec = importlib.util.spec_from_file_location("bootstrap", ROOT / "tools" / "bootstrap.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bootstrap_refuses_unsupported_pythons_in_one_line():
    bootstrap = _bootstrap()
    assert bootstrap.supported_message(sys.version_info) is None
    for version in ((3, 10, 13), (3, 14, 0), (3, 6, 15)):
        message = bootstrap.supported_message(version)
        assert "3.11, 3.12, 3.13" in message and ".".join(map(str, version)) in message
        assert "\n" not in message


@pytest.mark.parametrize("flag", ["--help", "--no-such-flag"])
def test_bootstrap_s_help_or_an_unknown_flag_sets_up_nothing(flag):
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bootstrap.py"), flag],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == (0 if flag == "--help" else 2), out.stderr
    assert "usage: tools/bootstrap.py" in out.stdout + out.stderr
    assert "installing" not in out.stdout + out.stderr


def test_bootstrap_stays_readable_by_old_pythons():
    """Old interpreters must reach the refusal, not a syntax error: no f-strings,
    annotations or ``from __future__ import annotations`` in the script."""
    import ast

    tree = ast.parse((ROOT / "tools" / "bootstrap.py").read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, ast.JoinedStr), node.lineno
        assert not (isinstance(node, ast.ImportFrom) and node.module == "__future__"), node.lineno
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), node.name


def test_supported_pythons_agree_across_setup_tox_and_bootstrap():
    setup = (ROOT / "setup.cfg").read_text()
    tox = (ROOT / "tox.ini").read_text()
    for major, minor in _bootstrap().SUPPORTED:
        assert f"Programming Language :: Python :: {major}.{minor}" in setup
        assert f"py{major}{minor}" in tox
    assert "python_requires = >=3.11, <3.14" in setup


def test_the_test_command_changes_nothing_outside_the_project():
    """``tox -e py`` (the README's command 2) installs no system package (it ran
    ``tools/install_browser.py``, which runs apt-get as root): only CI's ``.ci/run`` does,
    before the tests."""
    import configparser

    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini")
    for section in tox.sections():
        run = " ".join(tox[section].get(key, "") for key in ("commands_pre", "commands", "commands_post"))
        assert "install_browser" not in run and "apt-get" not in run, (section, run)
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.index("tools/install_browser.py") < ci.index("tox -e py")


def test_pracmln_poss_pracmln_is_the_working_pracmln(pracmln):
    code = "import sys, pracmln_poss; m = pracmln_poss.pracmln; print(m.__name__, m.MLN.__name__, 'pracmln' in sys.modules)"
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["pracmln", "MLN", "True"]


def test_the_old_name_load_still_works_and_warns():
    import pracmln_poss

    with pytest.warns(DeprecationWarning, match="load_ground"):
        assert pracmln_poss.load is pracmln_poss.load_ground


def test_a_plain_import_pracmln_works_in_the_environment_set_up(pracmln):
    """``import pracmln`` alone, in a fresh process, as a pracmln user types it (the
    import hook ``tools/install_pracmln.py`` installs prepares it)."""
    code = "import sys, pracmln; print(pracmln.MLN.__name__, 'pracmln_poss' in sys.modules)"
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["MLN", "True"]


@pytest.mark.slow
@pytest.mark.parametrize("first", ["", "import pracmln_poss; "], ids=["alone", "after pracmln_poss"])
def test_pracmln_s_own_tests_pass_with_us_installed(pracmln, first):
    """pracmln's own test module (inference with EnumerationAsk, MC-SAT, WCSP and Gibbs,
    single and multicore; BPLL/CLL learning; the fuzzy taxonomies): an import hook or a
    shim of ours must never break a pracmln user's code."""
    code = first + "import pracmln.test as t; t.runall()"
    out = run_python(code)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "all test finished after" in out.stdout


def test_pracmln_imports_where_stdout_has_no_buffer(pracmln):
    """A notebook's ``sys.stdout`` has no binary ``buffer``, which pracmln binds at import."""
    code = ("import io, sys\nclass Out(io.TextIOBase):\n    def write(self, s):\n        return len(s)\n"
            "sys.stdout = Out()\nimport pracmln\nsys.stdout.buffer.write(b'x')\nsys.stderr.write('imported')")
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert out.stderr.endswith("imported")
