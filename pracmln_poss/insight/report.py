"""A theory as one self-contained HTML page: its digest first, then every rule, browsable.

The page needs no server and fetches nothing: the rules travel inside it as JSON (in a
``<script type="application/json">``, so that no text of a theory is ever read as
markup), and a small script lays out only the rows on screen, so that a theory of
hundreds of thousands of rules opens as fast as a small one.  The rules can be narrowed
to a level, a predicate, a constant, the flagged ones, and by a search box; a click on
a rule shows its evidence set and its warnings.  The same theory and flags give the
same bytes (nothing of the moment is written into the page).
"""

from __future__ import annotations

__all__ = ["report_html", "write_report", "theory_html"]

import html
import json
import os
from collections.abc import Iterable
from itertools import accumulate

from ..logic.formula import Atom, Constant, Formula, PredAtom, children
from ..logic.syntax import split_atom
from ..possibilistic.protocol import Theory
from ..weights import INF
from .digest import digest_text
from .show import BLOCKING_NOTE, HTML_LEVELS, HTML_RULES, Flag, html_table, render_theory_rule


class _Tags:
    """The predicates and constants each rule mentions, as ints into two sorted tables."""

    def __init__(self, theory: Theory) -> None:
        self.theory = theory
        self.preds: dict[str, int] = {}
        self.consts: dict[str, int] = {}
        self._leaf: dict[object, tuple[int, ...]] = {}

    def _of(self, pred: str, args: Iterable[str]) -> tuple[int, ...]:
        tags = [self.preds.setdefault(pred, len(self.preds))]
        tags += [~self.consts.setdefault(a, len(self.consts)) for a in args]
        return tuple(tags)

    def of(self, f: Formula) -> set[int]:
        """Predicates as ``i``, constants as ``~i`` (renumbered by :meth:`tables`)."""
        found: set[int] = set()
        stack = [f]
        while stack:
            g = stack.pop()
            if isinstance(g, (Atom, PredAtom)):
                key = g.index if isinstance(g, Atom) else g
                tags = self._leaf.get(key)
                if tags is None:
                    tags = self._leaf[key] = (self._of(*split_atom(self.theory.atoms[g.index - 1]))
                                              if isinstance(g, Atom) else
                                              self._of(g.pred, (t.name for t in g.args if isinstance(t, Constant))))
                found.update(tags)
            else:
                stack.extend(children(g))
        return found

    def tables(self) -> tuple[list[str], list[str], dict[int, int]]:
        """The sorted predicate and constant names, and how a provisional tag maps to its
        final one (constants after the predicates)."""
        preds, consts = sorted(self.preds), sorted(self.consts)
        renumber = {self.preds[p]: i for i, p in enumerate(preds)}
        renumber.update({~self.consts[c]: len(preds) + i for i, c in enumerate(consts)})
        return preds, consts, renumber


def _data(theory: Theory, flags: Iterable[Flag], title: str) -> dict[str, object]:
    """What the page shows, as plain JSON values, rules in the order ``show`` lists them."""
    from ..formats.sections import by_level

    flags = list(flags)
    notes: dict[int, list[str]] = {}
    for flag in flags:
        notes.setdefault(id(flag.rule), []).append(flag.message)
    tags = _Tags(theory)
    levels: list[str] = []
    level: list[int] = []
    text: list[str] = []
    origins: dict[str, int] = {}  # (the rules of an evidence set share its origin: each once)
    origin: list[int] = []
    rule_tags: list[set[int]] = []
    flagged: dict[str, list[str]] = {}
    blocking: list[int] = []
    for steps, group in by_level(theory):
        levels.append("certain" if steps == INF else theory.steps_name(steps))
        for pf in group:
            i = len(text)
            level.append(len(levels) - 1)
            text.append(render_theory_rule(pf, theory))
            origin.append(origins.setdefault(pf.origin or "", len(origins)))
            rule_tags.append(tags.of(pf.formula))
            if id(pf) in notes:
                flagged[str(i)] = notes[id(pf)]
            if pf.blocking:
                blocking.append(i)
    preds, consts, renumber = tags.tables()
    final = [sorted(renumber[t] for t in ts) for ts in rule_tags]
    return {
        "title": title,
        "made_by": theory.made_by or "",
        "digest": digest_text(theory, flags),
        "blocking_note": "blocking " + BLOCKING_NOTE,
        "levels": levels,
        "preds": preds,
        "consts": consts,
        "level": level,
        "text": text,
        "origins": list(origins),
        "origin": origin,
        # (one flat list and where each rule's part ends: faster to read than a list per rule)
        "tags": [t for ts in final for t in ts],
        "tag_end": list(accumulate(len(ts) for ts in final)),
        "flags": flagged,
        "blocking": blocking,
    }


def report_html(theory: Theory, flags: Iterable[Flag] = (), title: str = "possibilistic theory") -> str:
    """The HTML report of ``theory`` (see the module): one self-contained page.

    :param flags: warnings to mark on their rules (:func:`~.show.overturned_readings`,
        :func:`~.show.off_target_rules`; on a lifted theory, :func:`~.show.lifted_flags`).
    :param title: the page's title (say, the theory file's name).
    """
    payload = json.dumps(_data(theory, flags, title), ensure_ascii=True, separators=(",", ":"))
    # ("<" only ever occurs inside JSON strings, where \u003c reads back the same, so no
    # text of the theory can close the script element)
    payload = payload.replace("<", "\\u003c")
    # (put in by position, not by replacing: a title or a rule may hold the markers' text)
    before_title, _, rest = _PAGE.partition("%TITLE%")
    before_data, _, after_data = rest.partition("%DATA%")
    return before_title + html.escape(title) + before_data + payload + after_data


def write_report(theory: Theory, path: str | os.PathLike[str], flags: Iterable[Flag] = (),
                 title: str | None = None) -> None:
    """Write :func:`report_html` to ``path`` whole or not at all (``title``: the file's
    name without its extension, by default).

    :raises OutputError: naming the path, when it cannot be written.
    """
    from ..formats import atomic_write, check_writable

    destination = check_writable(path)
    atomic_write(destination, report_html(theory, flags, title or os.path.splitext(os.path.basename(path))[0]))


def theory_html(theory: Theory, max_levels: int | None = HTML_LEVELS, max_rules: int | None = HTML_RULES) -> str:
    """A theory in a notebook: its levels as :func:`~.show.show_html` lays them out; a
    theory larger than that shows (at most ``max_levels`` levels of ``max_rules`` rules)
    has its digest first, so that what it says is on screen, not a table of every row."""
    table, whole = html_table(theory, max_levels=max_levels, max_rules=max_rules)
    if whole:
        return table
    digest = html.escape(digest_text(theory))
    return (f"<details open><summary><b>digest</b> (<code>pracmln-poss report</code> writes every rule as a "
            f"page to browse)</summary><pre>{digest}</pre></details>\n{table}")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="pracmln_poss">
<title>%TITLE%</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 0 1.5em 1.5em; color: #222; }
h1 { font-size: 1.4em; margin: 0.6em 0 0.2em; }
.made { color: #555; font-family: monospace; margin: 0 0 0.5em; word-break: break-all; }
details { margin: 0.5em 0; }
summary { cursor: pointer; font-weight: bold; }
pre { font: 12.5px/1.35 monospace; background: #f6f6f3; padding: 0.6em; white-space: pre-wrap; margin: 0.3em 0; }
.controls { display: flex; flex-wrap: wrap; gap: 0.6em; align-items: center; margin: 0.6em 0; }
.controls input[type=search] { width: 26em; padding: 0.25em; }
.controls select { max-width: 16em; }
#count { color: #555; }
#rules { height: 60vh; overflow-y: auto; position: relative; border: 1px solid #ccc; font: 12.5px monospace; }
#rules .row { position: absolute; left: 0; right: 0; height: 20px; line-height: 20px; white-space: pre;
  overflow: hidden; text-overflow: ellipsis; padding: 0 0.5em; cursor: pointer; box-sizing: border-box; }
#rules .level { background: #e8eef6; font-weight: bold; cursor: default; font-family: system-ui, sans-serif; }
#rules .rule:hover { background: #f3f3f3; }
#rules .flagged { background: #fde8e8; }
#rules .selected { outline: 2px solid #4a7bd0; outline-offset: -2px; }
#rules .from { color: #888; }
#rules .blocking { color: #777; font-style: italic; }
#detail { min-height: 3em; margin-top: 0.5em; padding: 0.5em; border: 1px solid #ddd; background: #fafafa;
  font: 12.5px/1.4 monospace; white-space: pre-wrap; word-break: break-word; }
.warn { color: #b00; }
</style>
</head>
<body>
<script type="application/json" id="report-data">%DATA%</script>
<h1 id="title"></h1>
<p class="made" id="made"></p>
<details open><summary>Digest</summary><pre id="digest"></pre></details>
<h2 style="font-size:1.15em;margin:0.8em 0 0.2em">Rules</h2>
<div class="controls">
  <input type="search" id="search" placeholder="search the rules, e.g. object(c1,Spatula)" aria-label="search">
  <label>level <select id="level"><option value="">all</option></select></label>
  <label>predicate <select id="pred"><option value="">all</option></select></label>
  <label>constant <input id="const" list="consts" size="14" placeholder="any" aria-label="constant"></label>
  <datalist id="consts"></datalist>
  <label><input type="checkbox" id="flagged"> flagged only</label>
  <span id="count"></span>
</div>
<div id="rules" tabindex="0"><div id="spacer"></div></div>
<div id="detail">Click a rule to see its evidence set and its warnings.</div>
<script>
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("report-data").textContent);
  const ROW = 20, n = D.text.length, P = D.preds.length;
  const $ = (id) => document.getElementById(id);
  const tags = Int32Array.from(D.tags), tagEnd = Int32Array.from(D.tag_end);
  const origin = (i) => D.origins[D.origin[i]];
  const tagged = (i, t) => { for (let j = i ? tagEnd[i - 1] : 0; j < tagEnd[i]; j++) if (tags[j] === t) return true; return false; };
  const blocking = new Uint8Array(n);
  for (const i of D.blocking) blocking[i] = 1;
  document.title = D.title;
  $("title").textContent = D.title;
  $("made").textContent = D.made_by ? "made by: " + D.made_by : "";
  $("digest").textContent = D.digest;
  function fill(select, names, offset) {
    const frag = document.createDocumentFragment();
    names.forEach((name, i) => {
      const o = document.createElement("option");
      o.value = String(i + offset); o.textContent = name; frag.appendChild(o);
    });
    select.appendChild(frag);
  }
  fill($("level"), D.levels, 0);
  fill($("pred"), D.preds, 0);
  const constIds = new Map(D.consts.map((c, i) => [c, i + P]));
  // (a ground theory may have tens of thousands of constants: they are offered once asked for)
  $("const").addEventListener("focus", () => {
    if ($("consts").childElementCount) return;
    const frag = document.createDocumentFragment();
    for (const c of D.consts) { const o = document.createElement("option"); o.value = c; frag.appendChild(o); }
    $("consts").appendChild(frag);
  }, { once: true });
  let lower = null, lowerOrigins = null;  // the rules in lower case, made at the first search
  let rows = new Int32Array(0);  // >= 0: a rule; < 0: the title of level -row - 1
  let shown = 0, selected = -1;
  function filter() {
    const q = $("search").value.trim().toLowerCase();
    const lv = $("level").value, pr = $("pred").value, co = $("const").value.trim();
    const onlyFlagged = $("flagged").checked;
    const want = pr === "" ? [] : [Number(pr)];
    if (co !== "") want.push(constIds.has(co) ? constIds.get(co) : -1);
    if (q && lower === null) {
      lower = D.text.map((t) => t.toLowerCase());
      lowerOrigins = D.origins.map((t) => t.toLowerCase());
    }
    const out = [];
    let last = -1;
    shown = 0;
    for (let i = 0; i < n; i++) {
      const l = D.level[i];
      if (lv !== "" && l !== Number(lv)) continue;
      if (onlyFlagged && !(i in D.flags)) continue;
      if (want.length && !want.every((t) => tagged(i, t))) continue;
      if (q && !lower[i].includes(q) && !lowerOrigins[D.origin[i]].includes(q)) continue;
      if (l !== last) { out.push(-l - 1); last = l; }
      out.push(i);
      shown++;
    }
    rows = Int32Array.from(out);
    $("count").textContent = shown.toLocaleString("en") + " of " + n.toLocaleString("en") + " rules" +
      (co !== "" && !constIds.has(co) ? " (no constant " + co + ")" : "");
    $("spacer").style.height = rows.length * ROW + "px";
    $("rules").scrollTop = 0;
    draw();
  }
  const pool = [];
  function draw() {
    const box = $("rules");
    const first = Math.max(0, Math.floor(box.scrollTop / ROW) - 5);
    const last = Math.min(rows.length, Math.ceil((box.scrollTop + box.clientHeight) / ROW) + 5);
    let used = 0;
    for (let r = first; r < last; r++, used++) {
      let el = pool[used];
      if (!el) { el = document.createElement("div"); pool.push(el); box.appendChild(el); }
      el.style.display = "";
      el.style.top = r * ROW + "px";
      const i = rows[r];
      el.replaceChildren();
      if (i < 0) {
        el.className = "row level";
        const l = -i - 1;
        el.textContent = D.levels[l] === "certain" ? "certain" : "level " + D.levels[l];
        el.dataset.rule = "";
        continue;
      }
      el.className = "row rule" + (i in D.flags ? " flagged" : "") + (i === selected ? " selected" : "");
      el.dataset.rule = String(i);
      if (i in D.flags) el.append("\\u26a0 ");
      el.append(D.text[i]);
      if (blocking[i]) { const b = document.createElement("span"); b.className = "blocking"; b.textContent = "  (blocking)"; el.append(b); }
      if (origin(i)) { const s = document.createElement("span"); s.className = "from"; s.textContent = "  from: " + origin(i); el.append(s); }
    }
    for (; used < pool.length; used++) pool[used].style.display = "none";
  }
  function detail(i) {
    selected = i;
    const box = $("detail");
    box.replaceChildren();
    box.append((D.levels[D.level[i]] === "certain" ? "certain" : "level " + D.levels[D.level[i]]) + "\\n" + D.text[i] + "\\n");
    if (origin(i)) box.append("from: " + origin(i) + "\\n");
    if (blocking[i]) box.append(D.blocking_note + "\\n");
    for (const m of D.flags[i] || []) {
      const w = document.createElement("span"); w.className = "warn"; w.textContent = "\\u26a0 " + m + "\\n"; box.append(w);
    }
    draw();
  }
  $("rules").addEventListener("scroll", () => requestAnimationFrame(draw));
  $("rules").addEventListener("click", (e) => {
    const row = e.target.closest(".rule");
    if (row && row.dataset.rule !== "") detail(Number(row.dataset.rule));
  });
  window.addEventListener("resize", draw);
  let timer = 0;
  $("search").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(filter, 150); });
  for (const id of ["level", "pred", "flagged"]) $(id).addEventListener("change", filter);
  $("const").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(filter, 150); });
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("search")) $("search").value = hash.get("search");
  filter();
  document.body.dataset.ready = "1";
  performance.mark("report-ready");
})();
</script>
</body>
</html>
"""
