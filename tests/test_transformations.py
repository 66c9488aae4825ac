"""Transformations 1-3 against brute-force MAP inference, and the paper's examples."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pracmln_poss.errors import ArgumentTypeError, ModelError, UnknownNameError
from pracmln_poss.logic.formula import evaluate
from pracmln_poss.model.ground_mln import GroundMLN
from pracmln_poss.possibilistic import Reasoner
from pracmln_poss.possibilistic.filtering import filter_redundant
from pracmln_poss.search.evidence import literal_sets
from pracmln_poss.transformations import transform_mln
from pracmln_poss.weights import INF

from .reference import MapReference
from .strategies import formulas, ground_mlns
from .support import examples


def poss_entails(reasoner, evidence, query):
    return reasoner.entails(list(evidence), query)


def clause(lits):
    from pracmln_poss.transformations.formulas import clause_against

    return clause_against([-l for l in lits])


small_mlns = ground_mlns(max_atoms=4, max_formulas=5)


@pytest.mark.slow
@settings(max_examples=examples(60))
@given(small_mlns, st.sampled_from(["none", "aggressive", "conservative"]), st.data())
def test_exhaustive_is_exact(mln, filtering, data):
    ref = MapReference(mln)
    assume(ref.consistent)
    theory = filter_redundant(transform_mln(mln, "exhaustive"), filtering).theory
    costs = dict(ref.worlds)
    with Reasoner(theory) as r:
        best = ref.optimum_cost()
        for bits in itertools.product((False, True), repeat=mln.n_atoms):
            w = ref_world((False, *bits))
            cost = costs.get(w.values, INF)
            violates_soft = any(not evaluate(wf.formula, w) for wf in mln.soft)
            got = theory.violated_steps(w)
            if filtering != "none":
                continue  # filtering keeps the cuts, not the formulas pi is read from
            # pi = 1 - phi: the highest violated level is the world's penalty (level 0 is
            # real: an optimal world violating some soft formula sits at level 0)
            if cost == INF:
                assert got == INF
            elif not violates_soft:
                assert got is None
            else:
                assert got == cost - best
        for evidence in literal_sets(mln.n_atoms, 2):
            query = data.draw(formulas(mln.n_atoms))
            if ref.penalty(list(evidence)) == INF:
                continue
            assert poss_entails(r, evidence, query) == ref.entails(list(evidence), query)


def ref_world(values):
    from pracmln_poss.map.engine import World

    return World(tuple(values))


@pytest.mark.slow
@settings(max_examples=examples(60))
@given(small_mlns, st.sampled_from(["all", "positive"]), st.integers(0, 2), st.sampled_from(["none", "aggressive"]), st.data())
def test_selective_is_exact_on_its_family(mln, family_kind, k, filtering, data):
    ref = MapReference(mln)
    assume(ref.consistent)
    family = list(literal_sets(mln.n_atoms, k, positive_only=family_kind == "positive"))
    theory = filter_redundant(transform_mln(mln, "selective", family=family), filtering).theory
    with Reasoner(theory) as r:
        for evidence in family:
            if ref.penalty(list(evidence)) == INF:
                continue
            for _ in range(3):
                query = data.draw(formulas(mln.n_atoms))
                assert poss_entails(r, evidence, query) == ref.entails(list(evidence), query), (evidence, query)


BACKENDS = st.sampled_from(["auto", "toulbar2"])  # RC2 (clause sessions), toulbar2 (literal tests)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
@settings(max_examples=examples(40))
@given(mln=small_mlns, filtering=st.sampled_from(["none", "aggressive", "conservative"]), backend=BACKENDS)
def test_defaults_satisfies_proposition_2(k, mln, filtering, backend):
    ref = MapReference(mln)
    assume(ref.consistent)
    theory = filter_redundant(transform_mln(mln, "defaults", k=k, backend=backend), filtering).theory
    with Reasoner(theory) as r:
        for evidence in literal_sets(mln.n_atoms, k):
            if ref.penalty(list(evidence)) == INF:
                continue
            for conclusion in literal_sets(mln.n_atoms, k + 1 - len(evidence)):
                if not conclusion:
                    continue
                query = clause(conclusion)
                assert poss_entails(r, evidence, query) == ref.entails(list(evidence), query), (
                    evidence, conclusion
                )


def test_unknown_method():
    with pytest.raises(UnknownNameError, match="defaults"):
        transform_mln(GroundMLN.from_pairs([("a", 1)]), "magic")


def test_exhaustive_refuses_large_models_unless_forced():
    mln = GroundMLN.from_pairs([(f"a{i}", 1) for i in range(17)])
    with pytest.raises(ModelError, match="2\\*\\*17"):
        transform_mln(mln, "exhaustive")
    small = GroundMLN.from_pairs([(f"a{i}", 1) for i in range(3)])
    with pytest.raises(ModelError):
        transform_mln(small, "exhaustive", max_formulas=2)
    assert len(transform_mln(small, "exhaustive", max_formulas=2, force=True)) == 7


def _focus_questions(mln, evidence_atoms, query_atoms, k):
    """Every (E, C) of the focused guarantee: E a consistent literal set over the
    evidence atoms, C a literal set over the query atoms (the empty clause included),
    |E| + |C| <= k + 1."""
    for e in literal_sets(len(evidence_atoms), k):
        e = tuple(evidence_atoms[abs(l) - 1] * (1 if l > 0 else -1) for l in e)
        for c in literal_sets(len(query_atoms), k + 1 - len(e)):
            yield e, tuple(query_atoms[abs(l) - 1] * (1 if l > 0 else -1) for l in c)


@st.composite
def _foci(draw, n):
    """Evidence and query predicates (here: atoms) of a focus, overlapping or not, or None."""
    names = [f"p{i}" for i in range(1, n + 1)]
    evidence = draw(st.none() | st.lists(st.sampled_from(names), min_size=1, unique=True))
    query = draw(st.none() | st.lists(st.sampled_from(names), min_size=1, unique=True))
    return evidence, query


@pytest.mark.parametrize("k", [0, 1, 2])
@settings(max_examples=examples(60))
@given(data=st.data(), filtering=st.sampled_from(["none", "aggressive"]), backend=BACKENDS)
def test_focused_defaults_answer_exactly_the_focused_questions(k, data, filtering, backend):
    """The guarantee of docs/focus.md, against brute force over all worlds: for E over
    the evidence atoms and C over the query atoms with |E| + |C| <= k + 1,
    (M, E) |-MAP OR C iff (T, E) |-poss OR C."""
    mln = data.draw(ground_mlns(max_atoms=5, max_formulas=6))
    ref = MapReference(mln)
    assume(ref.consistent)
    evidence_preds, query_preds = data.draw(_foci(mln.n_atoms))
    theory = filter_redundant(
        transform_mln(mln, "defaults", k=k, evidence_preds=evidence_preds, query_preds=query_preds, backend=backend),
        filtering,
    ).theory
    ev = [mln.atom(p) for p in evidence_preds] if evidence_preds else list(range(1, mln.n_atoms + 1))
    qs = [mln.atom(p) for p in query_preds] if query_preds else list(range(1, mln.n_atoms + 1))
    heads = {abs(l) for pf in theory.formulas if pf.steps != INF for l in _head_literals(pf)}
    assert heads <= set(qs) | set(ev)
    with Reasoner(theory) as r:
        for e, c in _focus_questions(mln, sorted(ev), sorted(qs), k):
            if ref.optimum_cost(e) == INF:
                continue
            query = clause(c)
            assert poss_entails(r, e, query) == ref.entails(list(e), query), (evidence_preds, query_preds, e, c)


def _head_literals(pf):
    from pracmln_poss.logic.formula import Implies, atoms_of

    f = pf.formula
    return atoms_of(f.right if isinstance(f, Implies) else f)


def test_focus_names_unknown_predicates():
    mln = GroundMLN.from_pairs([("a => b", 1)])
    with pytest.raises(UnknownNameError, match="unknown query predicate 'c'.*a, b"):
        transform_mln(mln, "defaults", query_preds=["c"])


def test_focus_shrinks_the_theory_to_the_query():
    mln = GroundMLN.from_pairs([("a => b", 2), ("b => c", 1), ("c => d", 1), ("a", 1)])
    full = transform_mln(mln, "defaults", k=2)
    focused = transform_mln(mln, "defaults", k=2, evidence_preds=["a"], query_preds=["d"])
    assert len(focused) < len(full)
    with Reasoner(focused) as r:
        assert r.entails([], "d") and r.entails(["!a"], "d") is False


def test_convert_is_transform_then_filtering():
    """The one pipeline of the CLI and the plugin, for a ground and a lifted theory."""
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.transformations import convert_mln

    from .support import PAPER

    model = load_model(PAPER / "smokers.mln", domains={"person": ["A", "B"]}).model
    done = convert_mln(model, k=2, filter="conservative")
    lifted = transform_mln(model, k=2)
    assert done.theory == filter_redundant(lifted, "conservative").theory
    assert done.removed == len(lifted.formulas) - len(done.theory.formulas) > 0
    ground = convert_mln(model, "defaults", k=1, filter="aggressive")
    result = filter_redundant(transform_mln(model, "defaults", k=1), "aggressive")
    assert (ground.theory, ground.removed) == (result.theory, len(result.removed))


def test_an_option_the_method_does_not_have_is_named():
    """``long_blocking`` belongs to the lifted transformation: given to ``defaults`` it is
    an error naming the options ``defaults`` has, not silently ignored."""
    from pracmln_poss.errors import UnknownNameError
    from pracmln_poss.transformations import DefaultsOptions
    from pracmln_poss.transformations.conversion import method_options

    mln = GroundMLN.from_pairs([("a", 1), ("a => b", 2)])
    with pytest.raises(UnknownNameError, match="defaults transformation has no option 'long_blocking'.*prune_heads"):
        transform_mln(mln, "defaults", k=1, long_blocking=True)
    assert method_options("defaults", {"prune_heads": False}) == DefaultsOptions(prune_heads=False)
    # the option reaches the search: without pruning, the head of {b} repeats c, which {} concludes
    free = GroundMLN.from_pairs([("c", 1), ("b => d", 2)])
    pruned, unpruned = (transform_mln(free, "defaults", k=1, prune_heads=p, backend="bruteforce") for p in (True, False))
    assert sum(len(str(f.formula)) for f in unpruned.formulas) > sum(len(str(f.formula)) for f in pruned.formulas)


def test_the_options_object_is_the_method():
    """``transform_mln(m, DefaultsOptions(k=2))`` is ``transform_mln(m, "defaults", k=2)``; options
    and runtime each go one way, and a runtime field the method does not use is an error."""
    from pracmln_poss.errors import ArgumentError, ArgumentTypeError, UnknownNameError
    from pracmln_poss.search.run import RuleStats
    from pracmln_poss.transformations import (
        METHODS,
        DefaultsOptions,
        ExhaustiveOptions,
        Runtime,
        SelectiveOptions,
    )

    mln = GroundMLN.from_pairs([("a", 1), ("a => b", 2), ("b => c", -1)])
    assert [cls.method for cls in METHODS.values()] == list(METHODS)
    for options, keywords in ((DefaultsOptions(k=2, prune_heads=False), {"k": 2, "prune_heads": False}),
                              (SelectiveOptions(k=1, family="positive"), {"k": 1, "family": "positive"}),
                              (ExhaustiveOptions(backend="bruteforce"), {"backend": "bruteforce"})):
        assert transform_mln(mln, options) == transform_mln(mln, options.method, **keywords)
    stats = RuleStats()
    transform_mln(mln, DefaultsOptions(k=2), runtime=Runtime(stats=stats))
    assert stats.evidence_sets == 1 + 6 + 12
    with pytest.raises(ArgumentError, match="options given both in DefaultsOptions and as keywords .k."):
        transform_mln(mln, DefaultsOptions(k=2), k=3)
    with pytest.raises(ArgumentTypeError, match="runtime takes a Runtime"):
        transform_mln(mln, DefaultsOptions(k=2), runtime=Runtime(), jobs=2)
    with pytest.raises(UnknownNameError, match="the exhaustive transformation has no option 'jobs'"):
        transform_mln(mln, ExhaustiveOptions(), runtime=Runtime(jobs=2))
    with pytest.raises(UnknownNameError, match="the selective transformation has no option 'stats'"):
        transform_mln(mln, "selective", stats=RuleStats())


def _sampled_on_a_fake_clock(monkeypatch, engine: float = 1.0, setup: float = 0.0):
    """Every rules of sets the forecast times cost 1 s (those of a set of the last size the
    engine answers, ``engine`` s) and each backbone it finds 0.25 s on a fake clock; its
    sets of the last size each make one rule of three conclusions (thrown away: only their
    time, and the rules taken in, count).  The engine makes a solver once, when first
    needed, at ``setup`` s more: in its first set of the last size it answers, and in
    each backbone it finds (:attr:`.MapEngine.setup_seconds`).  Returns the record, per set whose
    rules ran: its size, the rules written of it, its seconds, its backbones, the rule
    state it ran in and the set."""
    from pracmln_poss.map.engine import MapEngine
    from pracmln_poss.search import forecast, rules_pass
    from pracmln_poss.search.checkpoint import RuleChunk
    from pracmln_poss.search.rule import DefaultRule

    clock = [0.0]
    run_rules, below_k = forecast.run_rules, rules_pass.RuleState._below_k
    sampled: list[tuple[int, int, float, int, object, tuple[int, ...]]] = []
    backbones = [0]  # those the forecast found
    made: set[object] = set()  # (what the engine has made once: its seconds are the engine's setup)

    def once(what: object) -> None:
        if what not in made:
            made.add(what)
            clock[0] += setup

    def timed_rules(search, engine_, state, chunk):
        start, found = clock[0], backbones[0]
        out = run_rules(search, engine_, state, chunk)
        if isinstance(state, rules_pass.TimedState):  # (the forecast's, not the pass's)
            clock[0] += len(chunk)
            e, known = chunk[0]
            if len(e) == search.options.k:
                if not out.impossible and not out.cautious and (known is None or known[2] is None):
                    clock[0] += engine - 1.0
                    once("for the last size")
                out = RuleChunk([DefaultRule(e, (1, 2, 3), 1)], out.impossible, out.cautious)
            sampled.append((len(e), 3 if len(e) == search.options.k else -1, clock[0] - start,
                            backbones[0] - found, state, e))
        return out

    def timed_below_k(self, rep):
        if isinstance(self, rules_pass.TimedState):
            clock[0] += 0.25
            backbones[0] += 1
            once(rep)
        return below_k(self, rep)

    monkeypatch.setattr(forecast, "run_rules", timed_rules)  # (what the samples call; the pass has its own)
    monkeypatch.setattr(rules_pass.RuleState, "_below_k", timed_below_k)
    monkeypatch.setattr(forecast.time, "process_time", lambda: clock[0])
    monkeypatch.setattr(MapEngine, "setup_seconds", property(lambda self: setup * len(made)))
    return sampled


def test_the_rules_pass_is_sampled_while_the_penalties_pass_runs(monkeypatch, every_report):
    """The penalties pass times the rules of sets of its last size as their optima come,
    and of the sets below, the first of each size first (on a fake clock, the budget is
    spent at once), and its reports from then on carry what the rules pass will take:
    the sample's cost per set of the last size (its backbones left out: the pass finds
    each once) over those sets, the cost of each size below, backbones included, over
    its sets, and the rules taken in as the theory writes them (one per conclusion in a
    lifted theory: a rule with three, three).  With one worker, the rules of the subsets
    of a set of the last size run before it in its state, untimed, as they have in the
    pass (which then looks up their backbones).  The sample's rules are thrown away: the
    theory is the one made without progress.  The rules pass's own reports say what its
    chunks done predict (:mod:`pracmln_poss.search.tally`)."""
    from pracmln_poss.search import forecast
    from pracmln_poss.transformations import Runtime

    from .support import converted, smokers

    mln = smokers()
    quiet = converted(mln, {"method": "lifted", "k": 2})
    sampled = _sampled_on_a_fake_clock(monkeypatch)
    seen: list = []
    assert converted(mln, {"method": "lifted", "k": 2}, runtime=Runtime(progress=seen.append)) == quiet
    penalties = [i for i in seen if i.phase.startswith("penalties") and i.note is None]
    measured = [i for i in penalties if i.after is not None]
    assert measured and penalties[0].after is None
    total, last_size = penalties[-1].total, penalties[-1].size
    small, (*before, timed) = sampled[:2], sampled[2:]
    assert [s[0] for s in small] == [0, 1] and timed[0] == last_size == 2  # (over the budget at once)
    assert small[0][3] == 1 and small[0][2] == 1.25  # (the backbone of no evidence, with its rules)
    assert timed[2] == 1.0 + 0.25 * timed[3]  # (its backbones not the last size's cost)
    search = timed[4].search
    rests = {search.canon(tuple(l for l in timed[5] if l != y))[0] for y in timed[5]}
    assert {s[5] for s in before} == rests and len(before) == len(rests)  # (each once)
    assert {s[4] for s in before} == {timed[4]} != {small[0][4]} and set(map(len, rests)) == {1}
    ones = max(i.done for i in penalties if i.size == 1) - 1
    after = measured[0].after
    assert after == pytest.approx(1.0 * (total - 1 - ones) + sampled[0][2] + sampled[1][2] * ones
                                  + forecast.RULE_SECONDS * 3 * total)
    first = measured[0]
    assert first.remaining_overall == pytest.approx(first.remaining + after)
    rules = [i for i in seen if i.phase.startswith("rules") and i.note is None]
    assert rules and all(i.estimate is not None for i in rules)


def test_the_sample_times_each_kind_of_set_as_much_as_it_weighs(monkeypatch, every_report):
    """Given the time, the forecast spends its sample on the sets below the last size as
    much as they weigh in the pass as it predicts it (stratified): on the fake clock,
    the sets of no literal and of one (25) of smokers at k = 2 weigh a tenth of the pass
    (31 s of 295 s), so they get a tenth of the sample's seconds, give or take a set."""
    from pracmln_poss.search import forecast
    from pracmln_poss.transformations import Runtime

    from .support import converted, smokers

    monkeypatch.setattr(forecast, "SAMPLE_LEAST", 80.0)
    sampled = _sampled_on_a_fake_clock(monkeypatch)
    seen: list = []
    converted(smokers(), {"method": "defaults", "k": 2}, runtime=Runtime(progress=seen.append))
    penalties = [i for i in seen if i.phase.startswith("penalties") and i.note is None]
    total = penalties[-1].total
    ones = max(i.done for i in penalties if i.size == 1) - 1
    small = [s for s in sampled if s[4] is sampled[0][4]]  # (in the state of the smaller sets)
    last = [s[2] - 0.25 * s[3] for s in sampled if s[0] == 2]
    small_seconds, last_seconds = sum(s[2] for s in small), sum(last)
    below = small[0][2] + ones * sum(s[2] for s in small[1:]) / len(small[1:])
    at_last = (total - 1 - ones) * last_seconds / len(last)
    assert len(small) > 2 and len(last) > 2
    share = small_seconds / (small_seconds + last_seconds)
    assert abs(share - below / (below + at_last)) < 2.0 / (small_seconds + last_seconds), (share, below, at_last)


def test_the_forecast_prices_once_the_backbones_only_the_last_size_asks_for(monkeypatch, every_report):
    """A set of the last size may ask for the backbone of a set one literal smaller that
    the smaller set's own rules did without (the pass finds it then, once): the sample
    leaves it out of the set's own cost and prices it once, as the timed sets found such
    backbones per representative one literal smaller they touched, over all of those
    (over meals at k = 2, 2.3 s of a rules pass of 21 s were these, priced at nothing).
    On the fake clock each backbone costs 0.25 s; CORA at k = 2 has such sets."""
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.search import forecast
    from pracmln_poss.transformations import Runtime

    from .support import PAPER, converted

    monkeypatch.setattr(forecast, "SAMPLE_LEAST", 80.0)
    sampled = _sampled_on_a_fake_clock(monkeypatch)
    seen: list = []
    converted(load_model(PAPER / "cora.mln").model, {"k": 2}, runtime=Runtime(progress=seen.append))
    penalties = [i for i in seen if i.phase.startswith("penalties") and i.note is None]
    total = penalties[-1].total
    ones = max(i.done for i in penalties if i.size == 1) - 1
    timed = [s for s in sampled if s[0] == 2]
    search = timed[0][4].search
    lazy = [s[3] for s in timed]
    touched = {search.canon(tuple(l for l in s[5] if l != y))[0] for s in timed for y in s[5]}
    assert sum(lazy) > 0 and len(touched) < ones  # (a case the test is for, extrapolated)
    small = [s for s in sampled if s[4] is sampled[0][4]]
    below = small[0][2] + ones * sum(s[2] for s in small[1:]) / len(small[1:])
    at_last = (total - 1 - ones) * sum(s[2] - 0.25 * s[3] for s in timed) / len(timed)
    written = sum(s[1] for s in timed)
    assert penalties[-1].after == pytest.approx(below + at_last + 0.25 * sum(lazy) * ones / len(touched)
                                                + forecast.RULE_SECONDS * written / len(timed) * total)


def test_the_forecast_weighs_each_kind_of_set_as_many_as_it_counts_of_them(monkeypatch, every_report):
    """The rules of a set of the last size cost next to nothing, but for the few the
    engine answers (over meals at k = 2, 7% of the sets and 18 of the 21 s of the rules
    pass, which the first sets of each chunk timed met five times in all): the forecast
    counts the kinds (:func:`~pracmln_poss.search.rules_pass.kind_of`) of many sets of
    each chunk, those whose penalties are all found, times an engine's set of the chunk
    first, and prices each kind at what those of its kind timed cost.  On the fake clock
    an engine's set costs 10 s, any other 1 s."""
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.search import forecast
    from pracmln_poss.search.rules_pass import ENGINE
    from pracmln_poss.transformations import Runtime

    from .support import PAPER, converted

    made: list = []
    init, classify, time_set = forecast.Forecast.__init__, forecast.Forecast._classify, forecast.Forecast._time_set
    calls: list[tuple[dict, list, tuple]] = []  # (per chunk: the first set of each kind, the sets timed, its first)
    monkeypatch.setattr(forecast.Forecast, "__init__", lambda self, *a: (made.append(self), init(self, *a))[1])
    monkeypatch.setattr(forecast.Forecast, "_classify",
                        lambda self, chunk, strict: calls.append((classify(self, chunk, strict), [], chunk[0]))
                        or calls[-1][0])
    monkeypatch.setattr(forecast.Forecast, "_time_set",
                        lambda self, state, e: (calls[-1][1].append(e), time_set(self, state, e))[1])
    monkeypatch.setattr(forecast, "SAMPLE_LEAST", 80.0)
    sampled = _sampled_on_a_fake_clock(monkeypatch, engine=10.0)
    seen: list = []
    converted(load_model(PAPER / "cora.mln").model, {"k": 2}, runtime=Runtime(progress=seen.append))
    (sample,) = made
    timed = [s for s in sampled if s[0] == 2]
    assert sample.kinds[ENGINE] and sum(sample.kinds.values()) > len(timed)  # (counted on more sets than timed)
    assert {kind: seconds / n for kind, (n, seconds) in sample.by_kind.items()} == \
        {kind: 10.0 if kind == ENGINE else 1.0 for kind in sample.by_kind}
    engine_first = [(firsts[ENGINE], e[0], first) for firsts, e, first in calls if ENGINE in firsts and e]
    assert all(timed_first == engine for engine, timed_first, _first in engine_first)  # (an engine's set first)
    assert any(engine != first for engine, _timed, first in engine_first)  # (where the chunk's first is not)
    penalties = [i for i in seen if i.phase.startswith("penalties") and i.note is None]
    total = penalties[-1].total
    ones = max(i.done for i in penalties if i.size == 1) - 1
    share = sample.kinds[ENGINE] / sum(sample.kinds.values())
    assert sample._at_last_size(total) == pytest.approx((total - 1 - ones) * (10.0 * share + 1.0 * (1 - share)))
    # (each set counted as the pass takes it, for as many sets of its chunk as it stands for
    # (here one: no chunk holds more than CLASSIFIED); a set waits while a penalty it needs
    # is not found, and is counted when it is: by the end, every set of the last size)
    from collections import Counter

    from pracmln_poss.search.rules_pass import RuleState, Tables, kind_of
    from pracmln_poss.search.workers import chunked

    complete = RuleState(sample.search, sample.runner.engine, Tables.of(dict(sample.optima), 2))
    truth = Counter(kind_of(sample.search, complete, e, o) for e, o in sample.optima.items() if len(e) == 2)
    assert max(len(c) for c in chunked([e for e in sample.optima if len(e) == 2])) <= forecast.CLASSIFIED
    assert not sample._waiting and sample.kinds == truth


def test_the_forecast_prices_an_engines_set_no_lower_than_an_optimum_of_its_size(monkeypatch, every_report):
    """A set the engine answers, timed just after its optimum was found, may cost next to
    nothing (the engine still holds that optimum; over meals at k = 2 the ten timed cost
    22 ms on average, the same ten 190 ms in the pass): with one worker, the forecast
    prices it at no less than the optima of the last size cost on average, as their
    chunks took (over meals 87 ms, the pass 96).  On the fake clock an engine's set costs nothing, any other 1 s;
    the optima take what they really do."""
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.search import forecast
    from pracmln_poss.search.rules_pass import ENGINE
    from pracmln_poss.transformations import Runtime

    from .support import PAPER, converted

    made: list = []
    heard: list[tuple[int, int, float]] = []  # (per chunk of optima: its sets' size and count, its seconds)
    init, time_chunk = forecast.Forecast.__init__, forecast.Forecast.time
    monkeypatch.setattr(forecast.Forecast, "__init__", lambda self, *a: (made.append(self), init(self, *a))[1])

    def timed(self, chunk, report, seconds):
        heard.append((len(chunk[0]), len(chunk), seconds))
        return time_chunk(self, chunk, report, seconds)

    monkeypatch.setattr(forecast.Forecast, "time", timed)
    monkeypatch.setattr(forecast, "SAMPLE_LEAST", 80.0)
    _sampled_on_a_fake_clock(monkeypatch, engine=0.0)
    seen: list = []
    converted(load_model(PAPER / "cora.mln").model, {"k": 2}, runtime=Runtime(progress=seen.append))
    (sample,) = made
    assert sample.by_kind[ENGINE][0] and not sample.by_kind[ENGINE][1]  # (timed, at nothing)
    optimum = sum(s for size, _n, s in heard if size == 2) / sum(n for size, n, _s in heard if size == 2)
    assert optimum > 0 and {size for size, _n, _s in heard} == {2}  # (only the last size's chunks are heard)
    penalties = [i for i in seen if i.phase.startswith("penalties") and i.note is None]
    total = penalties[-1].total
    ones = max(i.done for i in penalties if i.size == 1) - 1
    share = sample.kinds[ENGINE] / sum(sample.kinds.values())
    assert sample._at_last_size(total) == pytest.approx((total - 1 - ones) * (optimum * share + 1.0 * (1 - share)))
    # (with workers, this process's engine found none of the optima: what the sets timed cost stands)
    sample.runner = type("Workers", (), {"workers": 2})()
    assert sample._engine_price(1.0) == 0.0


def test_what_the_engine_makes_once_is_no_part_of_a_sets_price():
    """A solver the engine makes when first needed (toulbar2, for the questions it is
    handed) is made once per process: with workers, each made its own in the penalties
    pass, and this process's engine makes it in the sample (over meals at k = 2 with two,
    2.3 s in the first set timed, which priced the rules pass at twice its time).  So the
    sample counts no second of it: the forecast is what it is when nothing is made."""
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.search import forecast
    from pracmln_poss.transformations import Runtime

    from .support import PAPER, converted

    model = load_model(PAPER / "cora.mln").model

    def figures(setup: float) -> tuple:
        with pytest.MonkeyPatch.context() as monkeypatch:
            made: list = []
            said: list[float] = []
            init, expect_after = forecast.Forecast.__init__, forecast.Reporter.expect_after
            monkeypatch.setattr(forecast.Forecast, "__init__", lambda self, *a: (made.append(self), init(self, *a))[1])
            monkeypatch.setattr(forecast.Reporter, "expect_after",
                                lambda self, s: (said.append(s), expect_after(self, s))[1])
            monkeypatch.setattr(forecast, "SAMPLE_LEAST", 1e9)  # (every set timed, whatever the setup took)
            _sampled_on_a_fake_clock(monkeypatch, engine=3.0, setup=setup)
            converted(model, {"k": 2}, runtime=Runtime(progress=lambda info: None))
            (sample,) = made
            # (the engine made some in the sets of the last size, some in the backbones)
            assert sample.runner.engine.setup_seconds == setup * (1 + len({*sample.small.backbone,
                                                                        *sample.state.backbone}))
            return said, sample.by_kind, sample.by_size, sample.set_seconds, sample.lazy_seconds

    nothing = figures(0.0)
    assert nothing[0] and nothing[1][forecast.ENGINE][0] and nothing[4]  # (said, and both kinds timed)
    assert figures(5.0) == nothing


def test_a_chunk_not_counted_yet_is_priced_at_its_neighbours_kinds():
    """The chunks of the last size run spread over the pass, and its last eighth at the
    end; the sets the engine answers crowd some stretches of the pass's order (over meals
    at k = 2, its last four tenths): a chunk none of whose sets is counted yet is priced at
    the kinds of its nearest counted chunks in that order, one on each side, not at those
    of all counted chunks pooled."""
    from pracmln_poss.search import forecast
    from pracmln_poss.search.rules_pass import CAUTIOUS, ENGINE

    chunks = [[(100 * c + j,) for j in range(10)] for c in range(6)]
    sample = forecast.Forecast(None, type("Workers", (), {"workers": 2})(), {}, [], chunks)
    sample.timed, sample.set_seconds = 2, 1.0
    sample.by_kind = {ENGINE: (1, 1.0), CAUTIOUS: (1, 0.0)}  # (an engine's set costs 1 s, any other nothing)
    # chunks 0 and 1 counted all cautious, chunk 5 all the engine's; 2, 3 and 4 not counted
    sample.chunk_kinds = {0: {CAUTIOUS: 10.0}, 1: {CAUTIOUS: 10.0}, 5: {ENGINE: 10.0}}
    sample.kinds = {CAUTIOUS: 20.0, ENGINE: 10.0}
    # (2, 3 and 4 lie between 1 and 5: half the engine's each; pooled, a third)
    assert sample._at_last_size(60) == pytest.approx(10 + 3 * 5)
    sample.chunk_kinds[3] = {CAUTIOUS: 10.0}
    sample.kinds[CAUTIOUS] += 10.0
    assert sample._at_last_size(60) == pytest.approx(10 + 0 + 5)  # (2 between 1 and 3, 4 between 3 and 5)


def test_the_kinds_counted_of_a_chunk_stand_for_all_its_sets(monkeypatch):
    """A chunk's sets are counted on a sample of at most :data:`~.forecast.CLASSIFIED`
    spread over it, each for as many of the chunk's sets as it stands for (the chunks
    are of very different sizes: counted alike, the last chunks of CORA's rules at k = 4,
    small and dear, said 23% of its sets the engine answers where it answers 8.6%)."""
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.search import forecast
    from pracmln_poss.transformations import Runtime

    from .support import PAPER, converted

    made: list = []
    init = forecast.Forecast.__init__
    monkeypatch.setattr(forecast.Forecast, "__init__", lambda self, *a: (made.append(self), init(self, *a))[1])
    monkeypatch.setattr(forecast, "CLASSIFIED", 2)
    converted(load_model(PAPER / "cora.mln").model, {"k": 2}, runtime=Runtime(progress=lambda info: None))
    (sample,) = made
    assert sum(sample.kinds.values()) == pytest.approx(len([e for e in sample.optima if len(e) == 2]))


def test_every_option_declares_its_check_with_its_field():
    """Each field of every method's options and of the runtime carries its own check (a
    field named like another method's is checked by its own rule, not by the name's),
    and the options base class cannot be made: a method says how it runs."""
    from dataclasses import dataclass, fields
    from typing import ClassVar

    from pracmln_poss.transformations import METHODS, MethodOptions, Runtime
    from pracmln_poss.transformations.options import option

    for options in (*METHODS.values(), Runtime):
        for f in fields(options):
            assert callable(f.metadata.get("check")), f"{options.__name__}.{f.name} declares no check"

    @dataclass(frozen=True)
    class Named(MethodOptions):
        method: ClassVar[str] = "named"
        k: str = option("any", check=lambda name, value: None)  # (a text, where the search's k is a count)

        def run(self, request, runtime):
            return None

    assert Named(k="text").k == "text"
    with pytest.raises(TypeError, match="abstract"):
        MethodOptions()  # type: ignore[abstract]
    with pytest.raises(ArgumentTypeError, match="k takes"):
        METHODS["defaults"](k="text")


@pytest.mark.parametrize("method", ["defaults", "lifted"])
def test_the_rules_found_are_counted_as_their_chunks_finish(monkeypatch, every_report, method):
    """The rules pass runs its chunks spread over it when someone listens, and hands the
    rules on in their order; the count its reports give is that of every chunk done (it
    was that of the chunks handed on, 0 while the first chunk waited its turn: "0 rules
    found" with 200,000 of CORA's 339,308 classes done at k = 4).  Here the chunks run
    last first, so the first is the last done.  At the end, the count is the theory's."""
    from pracmln_poss.search import run as search_run
    from pracmln_poss.search import workers
    from pracmln_poss.search.run import RuleStats
    from pracmln_poss.transformations import Runtime

    from .support import smokers

    monkeypatch.setattr(search_run, "spread_order", lambda sizes: list(reversed(range(len(sizes)))))
    monkeypatch.setattr(workers, "PART", 2)  # (a chunk reports after each part: reports come while chunks run)
    seen: list = []
    stats = RuleStats()
    transform_mln(smokers(), method, k=3, runtime=Runtime(progress=seen.append, stats=stats))
    rules = [i for i in seen if i.phase.startswith("rules") and i.note is None]
    half = next(i for i in rules if i.done >= i.total / 2)
    assert half.rules > 0, [(i.done, i.rules) for i in rules]
    counts = [i.rules for i in rules]
    assert counts == sorted(counts) and counts[-1] == stats.written(method == "lifted")


def test_no_sample_of_the_rules_pass_is_taken_when_no_one_listens(monkeypatch):
    """Without a progress callback (``--quiet``, a conversion from Python without one)
    the rules pass is not sampled, nor are the chunks run spread over a pass: the
    sample's questions would only change what the engine is asked in the rest of the
    search, and the order would hold results back for nothing."""
    from pracmln_poss.search import forecast, run

    from .support import converted, smokers

    def refused(*args, **kwargs):
        raise AssertionError("sampled with no one to tell")

    monkeypatch.setattr(forecast.Forecast, "time", refused)
    monkeypatch.setattr(run, "spread_order", refused)
    assert converted(smokers(), {"method": "lifted", "k": 2})
    assert converted(smokers(), {"method": "defaults", "k": 2})
