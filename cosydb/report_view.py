"""The text layout of ``cosydb report``: ranked problems fitted to a width, or the catalog tree.
Names from the trace are shown with their control characters escaped (``names.printable``)."""

from __future__ import annotations

import re
import textwrap

from . import info, names

SUFFIX = "txt"


def needs_rows(view) -> bool:
    """Whether the text of ``view`` shows the rows listed (``result["results"]``): the tree does,
    the problem list does not."""
    return view.tree


def text(result: dict, view) -> str:
    """``cosydb report``'s table: the ranked problems fitted to ``view.width`` (``--tree``:
    every row in the catalog's hierarchy), after an evaluation of some ``--property`` only,
    what was stored and what kept (``view``: a ``cosydb.formats.ReportView``)."""
    mode = "raw" if not view.demangle else "full" if view.wide else "short"
    if view.tree:
        lines = tree(result, mode, view.per_location, view.show_all)
    else:
        lines = problems(result, view.width, mode, view.wide, view.top, view.show_all)
    kept = result["experiment"]["kept_results_of"]
    if view.properties and kept:
        lines.append(
            f"stored the rows of {', '.join(view.properties)} in property_results; "
            f"the earlier rows of {len(kept)} other properties are kept"
        )
    return "".join(line + "\n" for line in lines)


def value_text(value: float | None, unit: str) -> str:
    """A value with its unit, times in s, ms or µs ('1.5 s', '63.3 ms', '300 bytes'); '' for none."""
    if value is None:
        return ""
    if unit == "s":
        for scale, suffix in ((1, "s"), (1e-3, "ms"), (1e-6, "µs")):
            if abs(value) >= scale or suffix == "µs":
                return f"{value / scale:.3g} {suffix}"
    return f"{value:.4g} {unit}"


def locations_text(locations: list[dict], shown: int = 2) -> str:
    """The locations most affected: '3, 5 (+4 more)'; a thread as 'rank:thread'."""
    threads = any(x["thread"] for x in locations)
    labels = [f"{x['rank']}:{x['thread'] or 0}" if threads else str(x["rank"]) for x in locations]
    more = len(labels) - shown
    return ", ".join(labels[:shown]) + (f" (+{more} more)" if more > 0 else "")


def same_items(same: list[dict]) -> list[str]:
    """The properties measuring a problem's time too (its ``same``), each with its family:
    ['idle_late_sender (asl_mpi)', 'late_sender (cre)']."""
    return [f"{m['property']} ({m['family']})" for m in same]


def same_text(same: list[dict]) -> str:
    """``same_items`` as one line, '= idle_late_sender (asl_mpi), late_sender (cre)'; '' for none."""
    return "= " + ", ".join(same_items(same)) if same else ""


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + names.ELLIPSIS


def _listing(lead: str, items: list[str], width: int, tail: str = "") -> list[str]:
    """``lead`` and as many whole ``items`` as fit ``width`` with ``tail``, the rest counted
    ('a, b (+3 more)'): a list is shortened by its items, never cut inside a word. When not
    even one item fits, the whole list wrapped over lines."""
    for shown in range(len(items), 0, -1):
        more = len(items) - shown
        text = lead + ", ".join(items[:shown]) + (f" (+{more} more)" if more else "") + tail
        if len(text) <= width:
            return [text]
    indent = lead[: len(lead) - len(lead.lstrip())]
    return _wrapped(lead + ", ".join(items) + tail, width, False, indent)


def _with_path(lead: str, callpath: str, width: int, wide: bool) -> str:
    """``lead`` and then ``callpath`` elided in its middle to fit ``width`` (``names.fit``)."""
    return lead + (callpath if wide else names.fit(callpath, max(width - len(lead), 20)))


def _wrapped(text: str, width: int, wide: bool, indent: str = "") -> list[str]:
    """Prose wrapped at ``width`` (one line when ``wide``), continuation lines indented."""
    if wide:
        return [text]
    return textwrap.wrap(text, width, subsequent_indent=indent + "  ", break_on_hyphens=False) or [text]


def _info(text: str) -> str:
    """A property's one-line info without the trailing reference ('(Scalasca's x)')."""
    return text.split(" (Scalasca", 1)[0].split(" (ASL", 1)[0].rstrip(".") + "."


def header(result: dict, width: int = 10**6) -> list[str]:
    """The experiment and the report's settings, as many fields a line as fit ``width``."""
    exp = result["experiment"]
    basis = names.short(exp["rank_basis"]) if exp["rank_basis"] else "whole run"
    fields = [
        f"experiment {exp['experiment_id']}: {exp['name']}",
        f"rank basis: {basis}",
        f"threshold: {exp['threshold']:.3g} ({exp['threshold']:.1%} of the rank basis)",
    ]
    fields += [f"focus region: {exp['region']}"] if exp["region"] else []
    fields += [f"baseline: {exp['baseline']}"] if exp["baseline"] else []
    lines = [fields[0]]
    for field in fields[1:]:
        if len(lines[-1]) + 3 + len(field) <= width:
            lines[-1] += "   " + field
        else:
            lines.append("  " + field)
    if exp["other_experiments"]:
        others = [o["name"] + (" (profile)" if o["is_profile"] else "") for o in exp["other_experiments"]]
        lines += _listing("  also in this database: ", others, width, " (choose with --experiment)")
    return lines


def problems(
    result: dict, width: int, mode: str = "short", wide: bool = False, top: int = 10, show_all: bool = False
) -> list[str]:
    """The ranked problems, each with what it is, what it contains and what else holds there;
    then the bottleneck, what could not be evaluated, the load warnings and the notation.
    No line is longer than ``width`` unless ``wide`` or a call path's leaf alone is longer:
    lists are shortened by their items, call paths in their middle, prose is wrapped."""
    result = names.printable(_shown_in_problems(result))
    fit = (lambda text, w: text) if wide else _cut
    limit = 10**6 if wide else width  # of a line that is a list: unbounded when wide
    entries = result["problems"]
    shown = entries[:top]
    lines = header(result, limit) + _phases(result, width, wide)
    if not entries:
        empty = not result["experiment"]["is_profile"] and not result["experiment"]["number_of_events"]
        lines.append("no problems: the trace holds no events" if empty else "no problems above the threshold")
    else:
        name_w = max(len("problem"), *(len(e["property"]) for e in shown))
        ranks = [locations_text(e["locations"]) for e in shown]
        ranks_w = max(len("ranks most affected"), *(len(r) for r in ranks))
        lead = f"  {'#':>2}  {'problem':<{name_w}}  {'value':>9}  {'severity':>8}  {'ranks most affected':<{ranks_w}}  "
        # too narrow for a call-path column: each problem's call path on a line of its own
        narrow = not wide and width - len(lead) < 30
        pad = " " * 6
        lines.append(lead.rstrip() if narrow else fit(lead + "where (most specific call path)", width))
        for i, (e, ranks_) in enumerate(zip(shown, ranks), 1):
            row = (
                f"  {i:>2}  {e['property']:<{name_w}}  {value_text(e['value'], e['unit']):>9}  "
                f"{e['severity']:>8.1%}  {ranks_:<{ranks_w}}  "
            )
            if narrow:
                lines += [row.rstrip(), _with_path(pad + "at ", names.path(e["place"], mode), width, wide)]
            else:
                lines.append(_with_path(row, names.path(e["place"], mode), width, wide))
            lines += _wrapped(pad + _info(e["info"]), width, wide, pad)
            if e["parts"]:
                parts = [f"{p['property']} {value_text(p['value'], e['unit'])}" for p in e["parts"]]
                lines += _listing(pad + "of which ", parts, limit)
            if e["same"]:
                lines += _listing(pad + "= ", same_items(e["same"]), limit)
            more = f"+{len(e['places']) - 1} more call paths (--tree)" if len(e["places"]) > 1 else ""
            if e["also"]:
                lead = pad + (more + "; " if more else "") + "also holds here: "
                lines += _listing(lead, e["also"], limit)
            elif more:
                lines.append(pad + more)
        if len(entries) > top:
            lines.append(f"  ({len(entries) - top} more problems: --top {len(entries)})")
        b = entries[0]
        lead = (
            f"bottleneck: {b['property']}, {value_text(b['value'], b['unit'])} ({b['severity']:.1%})"
            + (f", ranks {locations_text(b['locations'])}" if b["locations"] else "")
            + " at "
        )
        lines.append(_with_path(lead, names.path(b["place"], mode), width, wide))
    lines += _root_causes(result, width, mode, wide, ROOT_CAUSE_CLASSES, ROOT_CAUSES_EACH)
    lines += _critical_path(result, width, mode, wide, top=3)
    lines += _not_evaluable(result, limit, show_all) + _warnings(result, width, wide)
    notation = (
        "value: summed over the problem's call paths; severity: for times, value / time of all "
        "locations (threads included) in the rank basis (JSON's asl_severity: the property's own); "
        "=: the catalog's other measures of the same time; ranks: most affected first "
        "(r:t = thread t of rank r)"
    )
    lines += [notation] if wide else textwrap.wrap(notation, width)  # prose is wrapped, never cut
    return lines


#: The problem list's root causes: of the classes of wait state most explained, the causes most
#: to blame in each.
ROOT_CAUSE_CLASSES = 2
ROOT_CAUSES_EACH = 3


def _shown_in_problems(result: dict) -> dict:
    """``result`` without what the problem list does not show (the rows listed, the root causes
    beyond those shown), so that only what is shown is escaped: at a thousand ranks, the
    rest is thousands of rows."""
    causes = [
        c
        for c in result.get("root_causes") or []
        if c["class_index"] <= ROOT_CAUSE_CLASSES and c["cause_index"] <= ROOT_CAUSES_EACH
    ]
    return {k: v for k, v in result.items() if k != "results"} | {"root_causes": causes}


def _root_causes(result: dict, width: int, mode: str, wide: bool, classes: int, top: int) -> list[str]:
    """The wait states most explained by delay costs (Scalasca's delay_*) and, for each, the
    call paths and locations whose extra time caused them: where balancing the work removes
    the waiting elsewhere."""
    causes = [c for c in result.get("root_causes") or [] if c["class_index"] <= classes]
    if not causes:
        return []
    fit = (lambda text, w: text) if wide else _cut
    lines = _wrapped(
        "root causes: the time that made others wait (delay; long-term: through waits it caused)", width, wide
    )
    for c in causes:
        if c["cause_index"] == 1:
            waited = f"{value_text(c['waited_s'], 's')} waited, " if c["waited_s"] else ""
            lines.append(fit(f"  {c['wait_label']}: {waited}caused by", width))
        if c["cause_index"] > top:
            continue
        long_term = f" (long-term {value_text(c['long_term_s'], 's')})" if c["long_term_s"] else ""
        lead = f"    {value_text(c['cause_s'], 's'):>9}  rank {locations_text([c])}{long_term}  "
        lines.append(_with_path(lead, names.path(c["callpath"], mode), width, wide))
    return lines


def _critical_path(result: dict, width: int, mode: str, wide: bool, top: int) -> list[str]:
    """The critical path's length and its top activities (Scalasca's critical_path): where
    shortening the work shortens the run."""
    activities = result.get("critical_path") or []
    if not activities:
        return []
    lines = _wrapped(
        f"critical path: {value_text(activities[0]['path_s'], 's')}; its largest activities "
        "(shortening them shortens the run):",
        width,
        wide,
    )
    for a in activities[:top]:
        lead = (
            f"  {value_text(a['on_path_s'], 's'):>9}  {a['path_share']:>6.1%}  ranks {locations_text(a['locations'])}"
        )
        # an imbalance below 0.1 % of the activity is a rounding residue, not a finding
        shown = a["imbalance_s"] >= 1e-3 * a["on_path_s"]
        imbalance = f", of which imbalance {value_text(a['imbalance_s'], 's')}" if shown else ""
        lines.append(_with_path(f"{lead}{imbalance}  ", names.path(a["callpath"], mode), width, wide))
    return lines


#: from this share of the run in MPI_Init and MPI_Finalize on, the report says so
PHASES_SHOWN = 0.1


def phases_text(result: dict) -> tuple[str, str | None] | None:
    """The share of the run in MPI's initialisation and finalisation when large, and the
    command that ranks the problems against the main work instead (view ``run_phases``):
    (text, command or None); None when the share is below ``PHASES_SHOWN``."""
    phases = result.get("phases")
    if not phases or phases["init_finalize_share"] is None or phases["init_finalize_share"] < PHASES_SHOWN:
        return None
    calls = ", ".join(dict.fromkeys(p["callpath"].rsplit("/", 1)[-1] for p in phases["phases"]))
    text = (
        f"run phases: {calls} take {phases['init_finalize_share']:.1%} of the run "
        f"({value_text(phases['init_finalize_s'], 's')} of all locations' time); "
    )
    region = names.short(phases["main_region"]) if phases["main_region"] else None
    if not phases["main_region_suggested"]:
        largest = f" (the largest, {region}, holds {phases['main_region_share']:.1%})" if region else ""
        return text + f"no region holds 80% of the rest{largest}: choose one with --rank-basis", None
    text += f"the main work, {region}, holds {phases['main_region_share']:.1%} of the rest; ranked against it:"
    return text, phases["command"]


def _phases(result: dict, width: int, wide: bool) -> list[str]:
    """``phases_text`` wrapped, its command on a line of its own (a command is not wrapped)."""
    shown = phases_text(result)
    if shown is None:
        return []
    text, command = shown
    return _wrapped(text, width, wide) + (["  " + command] if command else [])


def _not_evaluable(result: dict, width: int, show_all: bool) -> list[str]:
    missing = result["not_evaluable"]
    if not missing:
        return []
    count = sum(len(v) for v in missing.values())
    if show_all:
        return [f"{count} properties not evaluable:"] + [
            f"  {name}: {reason}" for reason, props in missing.items() for name in props
        ]
    reasons = [re.sub(r"\s*\(.*?\)|^(no|needs) ", "", reason) for reason in missing]
    return _listing(f"{count} properties need data this experiment lacks: ", reasons, width, " (--all lists them)")


def _warnings(result: dict, width: int, wide: bool) -> list[str]:
    if not result["warnings"]:
        return []
    text = "; ".join(info.warning_text(w) for w in result["warnings"])
    return _wrapped(f"load warnings: {text} (cosydb info for details)", width, wide)


def tree(result: dict, mode: str = "short", per_location: bool = False, show_all: bool = False) -> list[str]:
    """Every listed row in the catalog's hierarchy (aggregates included), as rows of columns,
    then what could not be evaluated. The rows, their order, depth and ranks are those of
    the view ``report_rows``."""
    shown = [r for r in result["results"] if r["status"] == "evaluated" and (r["location_id"] is None or per_location)]
    result = names.printable({k: v for k, v in result.items() if k not in ("results", "root_causes")})
    table = [("property", "call path", "ranks", "severity", "value", "confidence")]
    previous = None
    for r in names.printable(shown):
        name = "" if r["property"] == previous else "  " * r["depth"] + r["property"]
        previous = r["property"]
        who = r["ranks"] if r["location_id"] is None else [dict(rank=r["rank"], thread=r["thread"], value=r["value"])]
        table.append(
            (
                name,
                names.path(r["place"], mode),
                locations_text(who, 99),
                f"{r['severity']:.4f}",
                value_text(r["value"], r["unit"]),
                f"{r['confidence']:g}",
            )
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    return (
        header(result)
        + ["  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in table]
        + _not_evaluable(result, 10**6, show_all)
    )
