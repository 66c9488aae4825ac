"""A sweep (:mod:`.sweep`) as one self-contained HTML page: a table of the sizes, a plot
of the rules per size, what holds with no evidence at each size, and the rules gained,
lost and moved from size to size.

The page fetches nothing and runs no script: the plot is inline SVG, every text is
escaped, and the same sweep gives the same bytes.
"""

from __future__ import annotations

__all__ = ["sweep_html"]

import html

from .sweep import LISTED, Sweep, run_label, runs, size_label, stable_sentence

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 70em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; } th, td { padding: 0.25em 0.8em; border-bottom: 1px solid #ddd; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.stable td { background: #eef7ee; }
code, .rule { font-family: ui-monospace, monospace; font-size: 0.92em; }
ul.rules { list-style: none; padding-left: 1em; } .gained { color: #1a6b1a; } .lost { color: #a11; }
.moved { color: #8a5a00; } .note { color: #555; }
svg text { font-size: 12px; fill: #333; }
"""


def sweep_html(result: Sweep, title: str | None = None, listed: int = LISTED) -> str:
    """The page of ``result`` (``title``: the page's, by default the model's name;
    ``listed``: rules gained, lost and moved shown per size, the rest counted)."""
    name = html.escape(title or result.model)
    labels = [size_label(step.sizes) for step in result.steps]
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{name}: across sizes</title>"
             f"<style>{_STYLE}</style></head><body>",
             f"<h1>{name}: the theory across {len(result.steps)} size(s)</h1>",
             f"<p id=\"stable\">{html.escape(_sentence(stable_sentence(result)))}</p>",
             _table(result, labels), "<h2>Rules per size</h2>", _plot(result, labels),
             "<h2>With no evidence</h2>", _defaults(result, labels)]
    for prev, step, label in zip(labels, result.steps[1:], labels[1:]):
        if not step.changed:
            continue
        parts.append(f"<h2>From {html.escape(prev)} to {html.escape(label)}</h2><p>{len(step.gained):,} gained, "
                     f"{len(step.lost):,} lost, {len(step.moved):,} moved</p>")
        parts.append(_rules("gained", "+", list(step.gained), listed))
        parts.append(_rules("lost", "-", list(step.lost), listed))
        parts.append(_rules("moved", "~", [f"{rule}  (level {old} -> {new})" for rule, old, new in step.moved],
                            listed))
    notes = [f"<li>{html.escape(label)}: {html.escape(step.note)}</li>" for step, label in zip(result.steps, labels)
             if step.note]
    if notes:
        parts.append(f"<h2>How the domains were searched</h2><ul class=\"note\">{''.join(notes)}</ul>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _table(result: Sweep, labels: list[str]) -> str:
    rows = ["<table id=\"sizes\"><tr><th>size</th><th>rules</th><th>levels</th><th>certain</th><th>gained</th>"
            "<th>lost</th><th>moved</th></tr>"]
    for i, last in runs(result):
        step, label = result.steps[i], run_label(result, i, last)
        changes = ("-", "-", "-") if i == 0 else (f"+{len(step.gained):,}", f"-{len(step.lost):,}",
                                                  f"{len(step.moved):,}")
        stable = " class=\"stable\"" if result.settled and i == result.stable_from else ""
        rows.append(f"<tr{stable}><td>{html.escape(label)}</td><td class=\"n\">{step.rules:,}</td>"
                    f"<td class=\"n\">{step.levels:,}</td><td class=\"n\">{step.certain:,}</td>"
                    + "".join(f"<td class=\"n\">{c}</td>" for c in changes) + "</tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _plot(result: Sweep, labels: list[str], width: int = 640, height: int = 260) -> str:
    """Rules (not certain) per size, as an inline SVG line chart, the sizes evenly spaced."""
    values = [step.rules - step.certain for step in result.steps]
    top = max(max(values), 1)
    left, right, up, down = 70, 20, 20, 50
    span = max(len(values) - 1, 1)
    xs = [left + (width - left - right) * i / span for i in range(len(values))]
    ys = [up + (height - up - down) * (1 - v / top) for v in values]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys))
    out = [f"<svg id=\"plot\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" "
           f"aria-label=\"rules per size\">",
           f"<line x1=\"{left}\" y1=\"{height - down}\" x2=\"{width - right}\" y2=\"{height - down}\" stroke=\"#999\"/>",
           f"<line x1=\"{left}\" y1=\"{up}\" x2=\"{left}\" y2=\"{height - down}\" stroke=\"#999\"/>",
           f"<text x=\"{left - 8}\" y=\"{up + 4}\" text-anchor=\"end\">{top:,}</text>",
           f"<text x=\"{left - 8}\" y=\"{height - down + 4}\" text-anchor=\"end\">0</text>",
           f"<polyline points=\"{points}\" fill=\"none\" stroke=\"#2a6fb0\" stroke-width=\"2\"/>"]
    for x, y, v, label in zip(xs, ys, values, labels):
        out.append(f"<circle cx=\"{x:.1f}\" cy=\"{y:.1f}\" r=\"4\" fill=\"#2a6fb0\"><title>{html.escape(label)}: "
                   f"{v:,} rules</title></circle>")
        out.append(f"<text x=\"{x:.1f}\" y=\"{height - down + 18}\" text-anchor=\"middle\">"
                   f"{html.escape(label.split('=')[-1])}</text>")
    out.append(f"<text x=\"{(left + width - right) / 2:.1f}\" y=\"{height - 8}\" text-anchor=\"middle\">"
               f"{html.escape(', '.join(name for name, _ in result.steps[0].sizes))} size (rules that are not "
               f"certain)</text></svg>")
    return "\n".join(out)


def _defaults(result: Sweep, labels: list[str]) -> str:
    rows = ["<table id=\"defaults\"><tr><th>size</th><th>what holds with no evidence</th></tr>"]
    for step, label in zip(result.steps, labels):
        said = "<br>".join(f"<span class=\"rule\">{html.escape(line)}</span>" for line in step.defaults) or "nothing"
        rows.append(f"<tr><td>{html.escape(label)}</td><td>{said}</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _rules(kind: str, sign: str, rules: list[str], listed: int) -> str:
    if not rules:
        return ""
    items = [f"<li class=\"{kind}\"><span class=\"rule\">{sign} {html.escape(rule)}</span></li>"
             for rule in rules[:listed]]
    if len(rules) > listed:
        items.append(f"<li class=\"note\">... and {len(rules) - listed:,} more {kind} (the sweep's JSON lists every "
                     "one)</li>")
    return f"<ul class=\"rules\">{''.join(items)}</ul>"
