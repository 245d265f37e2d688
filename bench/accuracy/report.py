#!/usr/bin/env python3
"""phaseprobe accuracy report: text table and self-contained HTML from raw data.

run.py collects the raw data of a validation run (configurations, estimates,
measurements) into one JSON document, schema "phaseprobe.accuracy/1". This
module turns that document into the two readable forms: the text tables
printed on stdout (one per application and workload, then the summary) and an
HTML page with inline SVG bar charts (estimated vs measured per node
configuration, like the original study's charts; no external JS/CSS, so the
file can be mailed or committed and still renders).

Keeping the derived numbers (errors, ranks, summary) here rather than in
run.py means a stored raw JSON can be re-rendered later with exactly the same
rules:  report.py DATA.json [--text OUT.txt] [--html OUT.html]

Python 3 standard library only.
"""

import argparse
import html
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import textout  # noqa: E402  (bench/textout.py)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import throughput_probe  # noqa: E402

SCHEMA = "phaseprobe.accuracy/1"


class InputError(Exception):
    """Bad raw data: reported as one line, exit 2."""


# --------------------------------------------------------------------------
# Derived numbers
# --------------------------------------------------------------------------

def raw_tag(app, workload):
    """The prefix of a workload's files in a results folder's raw/."""
    return "%s.%s" % (app, re.sub(r"[^A-Za-z0-9._-]+", "_", workload))


def base_paths(results, app):
    """The base phase files a stored run's estimates of \p app used: in
    its raw/, or, for a run of cross.py, in the stored run's raw/ that
    app["base_dir"] names (relative to \p results)."""
    d = os.path.join(results, app.get("base_dir") or "raw")
    return [os.path.join(d, f) for f in app.get("base_files") or []]


def error_pct(est, meas):
    """Signed relative error of an estimate, in % of the measurement."""
    if est is None or meas is None or meas <= 0:
        return None
    return (est - meas) / meas * 100.0


def places_count(env):
    """How many places OMP_PLACES lists explicitly ("{0}", "{0},{1}",
    "{0:2}:4:2"); None for an abstract name ("cores") or none at all."""
    text = (env or {}).get("OMP_PLACES", "").replace(" ", "")
    if not text.startswith("{"):
        return None
    n, depth, i = 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                # "{...}:len[:stride]" repeats the place len times.
                rest = text[i + 1:].split(",", 1)[0]
                reps = rest.split(":")[1] if rest.startswith(":") else ""
                n += int(reps) if reps.isdigit() else 1
        i += 1
    return n or None


def shares_cores(cfg):
    """True when a configuration puts more threads than places: its threads
    take turns on a core."""
    places = places_count(cfg.get("env"))
    return places is not None and cfg.get("threads", 1) > places


def is_worksharing(phase):
    """A phase timed by its threads' shares (a `for`, `single`, ...) rather
    than fork to join."""
    return not (phase.get("kind") or "parallel").startswith("parallel")


def ranks(values):
    """Rank 1 = smallest time (fastest); None values get no rank."""
    present = sorted((v, i) for i, v in enumerate(values) if v is not None)
    out = [None] * len(values)
    for r, (_, i) in enumerate(present, start=1):
        out[i] = r
    return out


def spread(reps):
    """Relative spread (max-min)/median of repeated measurements, in %."""
    if not reps or len(reps) < 2:
        return 0.0
    med = statistics.median(reps)
    return (max(reps) - min(reps)) / med * 100.0 if med > 0 else 0.0


def sibling_errors(reps):
    """|error| in % of each repetition against the median of the others.

    The error a perfect estimate of one row would show against a single
    measurement of it, on this machine at that time: the noise floor the
    estimates' errors are read against. Rows with fewer than 3 repetitions
    give nothing (the median of one other is one sample, not a centre).
    """
    if not reps or len(reps) < 3:
        return []
    out = []
    for k, rep in enumerate(reps):
        others = statistics.median(reps[:k] + reps[k + 1:])
        if others > 0:
            out.append(abs(rep - others) / others * 100.0)
    return out


def derive(doc):
    """Fills error_pct, ranks, ranking verdicts and the summary in place.

    A ranking is "right" when the estimated order of the configurations equals
    the measured order. Two configurations whose measured medians differ by
    less than their measurement spread (max-min of the repetitions, at least
    the --tie-pct floor) are a measured tie: their order is noise, so the
    "distinguishable" verdict ignores such pairs while the strict verdict does
    not. Both are reported.
    """
    if doc.get("schema") != SCHEMA:
        raise InputError("schema: expected %r, found %r" % (SCHEMA, doc.get("schema")))
    tie_floor = float(doc.get("context", {}).get("tie_pct", 2.0))
    all_err, all_phase_err, all_alt, all_phase_alt = [], [], [], []
    unwarned_err, unwarned_alt, warned = [], [], 0
    padding_ok, padding_warned = [], 0  # rows without / with a padding warning (another CPU)
    inside_n, inside_alt_n = [0, 0], [0, 0]  # estimates inside their rows' range, rows with both
    sibling_errs = []  # every plain repetition against its siblings' median
    in_runs, in_runs_alt = [0, 0], [0, 0]  # measured inside the base runs' estimates, rows with them
    alt_ok_all = True
    strict_ok_all, dist_ok_all = True, True
    turns = {c["label"] for c in doc.get("configs", []) if shares_cores(c)}
    # Configurations of another machine measured in a stored run (cross.py):
    # ranked with the others, left out of every error summary, which are
    # about this run's measurements.
    stored = {c["label"] for c in doc.get("configs", []) if c.get("stored")}
    busy = 0  # per-phase estimates left out: worksharing phases on cores taken in turns
    # run.py --handoff-probe: errors over the repetitions and base runs made
    # while the node kept its near shape alone.
    near_err, near_alt, near_reps, near_base = [], [], [0, 0], [0, 0]
    probed = "handoff_probe" in doc.get("context", {})
    for a in doc.get("apps", []):
        rows = a.get("rows", [])
        for r in rows:
            r["error_pct"] = error_pct(r.get("estimated_s"), r.get("measured_s"))
            r["error_alt_pct"] = error_pct(r.get("estimated_alt_s"), r.get("measured_s"))
            r["spread_pct"] = spread(r.get("measured_reps") or [])
            r["inside_reps"] = inside(r.get("estimated_s"), r.get("measured_reps"))
            r["inside_reps_alt"] = inside(r.get("estimated_alt_s"), r.get("measured_reps"))
        counted = [r for r in rows if r["config"] not in stored]
        if probed:
            near_base[0] += a.get("base_runs_near", 0)
            near_base[1] += len(a.get("base_handoff_probes_ns") or [])
            for r in counted:
                r["error_near_pct"] = error_pct(r.get("estimated_near_s"), r.get("measured_near_s"))
                r["error_alt_near_pct"] = error_pct(r.get("estimated_alt_near_s"), r.get("measured_near_s"))
                near_reps[0] += len(r.get("measured_near_reps") or [])
                near_reps[1] += len(r.get("measured_reps") or [])
                if r["error_near_pct"] is not None:
                    near_err.append(abs(r["error_near_pct"]))
                if r["error_alt_near_pct"] is not None:
                    near_alt.append(abs(r["error_alt_near_pct"]))
        for r in counted:
            sibling_errs += sibling_errors(list(r.get("measured_reps") or []))
            for key, tally in (("estimated_runs_s", in_runs), ("estimated_alt_runs_s", in_runs_alt)):
                ok = inside(r.get("measured_s"), r.get(key))
                if ok is not None:
                    tally[0] += int(ok)
                    tally[1] += 1
        est_rank = ranks([r.get("estimated_s") if r.get("measured_s") is not None else None
                          for r in rows])
        meas_rank = ranks([r.get("measured_s") if r.get("estimated_s") is not None else None
                           for r in rows])
        for r, re_, rm in zip(rows, est_rank, meas_rank):
            r["rank_estimated"], r["rank_measured"] = re_, rm
        strict = all(r["rank_estimated"] == r["rank_measured"] for r in rows)
        dist = True
        ties = []
        pairs = 0
        for i in range(len(rows)):
            for j in range(i + 1, len(rows)):
                ri, rj = rows[i], rows[j]
                if None in (ri.get("estimated_s"), rj.get("estimated_s"),
                            ri.get("measured_s"), rj.get("measured_s")):
                    continue
                pairs += 1
                mi, mj = ri["measured_s"], rj["measured_s"]
                gap = abs(mi - mj) / min(mi, mj) * 100.0
                noise = max(tie_floor, ri["spread_pct"], rj["spread_pct"])
                if gap <= noise:
                    ties.append([ri["config"], rj["config"]])
                    continue
                # Equal estimates for clearly different times rank nothing: wrong.
                if (ri["estimated_s"] - rj["estimated_s"]) * (mi - mj) <= 0:
                    dist = False
        complete = all(r.get("error_pct") is not None for r in rows) and len(rows) > 0
        a["ranking"] = {"strict": strict and complete, "distinguishable": dist and complete,
                        "measured_ties": ties, "complete": complete, "pairs": pairs,
                        "distinguishable_pairs": pairs - len(ties)}
        strict_ok_all &= a["ranking"]["strict"]
        dist_ok_all &= a["ranking"]["distinguishable"]
        all_err += [abs(r["error_pct"]) for r in counted if r.get("error_pct") is not None]
        unwarned_err += [abs(r["error_pct"]) for r in counted
                         if r.get("error_pct") is not None and not r.get("thread_branches")]
        unwarned_alt += [abs(r["error_alt_pct"]) for r in counted
                         if r.get("error_alt_pct") is not None and not r.get("thread_branches")]
        warned += sum(1 for r in counted if r.get("thread_branches"))
        padding_ok += [abs(r["error_pct"]) for r in counted
                       if r.get("error_pct") is not None and not r.get("padding_warned")]
        padding_warned += sum(1 for r in counted if r.get("padding_warned"))
        for key, tally in (("inside_reps", inside_n), ("inside_reps_alt", inside_alt_n)):
            tally[0] += sum(1 for r in counted if r[key])
            tally[1] += sum(1 for r in counted if r[key] is not None)
        all_alt += [abs(r["error_alt_pct"]) for r in counted if r.get("error_alt_pct") is not None]
        alt_est = [r.get("estimated_alt_s") for r in rows]
        if rows and None not in alt_est:
            # The alternative estimate's ranking, with the same tie rule.
            a["ranking"]["alt_distinguishable"] = not any(
                (alt_est[i] - alt_est[j]) * (rows[i]["measured_s"] - rows[j]["measured_s"]) <= 0
                for i in range(len(rows)) for j in range(i + 1, len(rows))
                if [rows[i]["config"], rows[j]["config"]] not in ties)
            alt_ok_all &= a["ranking"]["alt_distinguishable"]
        else:
            alt_ok_all = False
        for p in a.get("phases", []):
            for c, v in p.get("per_config", {}).items():
                v["error_pct"] = error_pct(v.get("estimated_s"), v.get("measured_s"))
                v["error_alt_pct"] = error_pct(v.get("estimated_alt_s"), v.get("measured_s"))
                # A worksharing phase's measured time is its slowest thread's
                # own share (runtime/README.md): where threads take turns on a
                # core that is a part of the construct's wall time, which the
                # estimate is. Shown, left out of the per-phase summary.
                v["busy_time"] = is_worksharing(p) and c in turns
                if c in stored:
                    continue
                if v["busy_time"]:
                    if v["error_pct"] is not None:
                        busy += 1
                    continue
                if v["error_pct"] is not None:
                    all_phase_err.append(abs(v["error_pct"]))
                if v["error_alt_pct"] is not None:
                    all_phase_alt.append(abs(v["error_alt_pct"]))
    n_pairs = sum(a["ranking"]["pairs"] for a in doc.get("apps", []))
    n_dist = sum(a["ranking"]["distinguishable_pairs"] for a in doc.get("apps", []))
    doc["summary"] = {
        "pairs": n_pairs, "distinguishable_pairs": n_dist,
        "program": summary_of(all_err),
        "phases": summary_of(all_phase_err),
        "phases_busy_left_out": busy,
        "program_alt": summary_of(all_alt),
        "phases_alt": summary_of(all_phase_alt),
        "ranking_alt_all_right_distinguishable": alt_ok_all and bool(all_alt),
        "ranking_all_right_strict": strict_ok_all and bool(doc.get("apps")),
        "ranking_all_right_distinguishable": dist_ok_all and bool(doc.get("apps")),
        "goals": {"median_pct": 5.0, "max_pct": 10.0},
        # How many estimates lie between the fastest and the slowest of their
        # own measured repetitions: an error inside that range is one the
        # measurement itself cannot tell from noise.
        "inside_reps": {"n": inside_n[1], "inside": inside_n[0]},
        "inside_reps_alt": {"n": inside_alt_n[1], "inside": inside_alt_n[0]},
        # The same errors without the rows the estimator warned about (a
        # program that branches on its thread count, projected onto another).
        "thread_branch_rows": warned,
        # ... and without those it warned of padded arithmetic on another CPU.
        "padding_warned_rows": padding_warned,
        "program_padding_unwarned": summary_of(padding_ok),
        "program_unwarned": summary_of(unwarned_err),
        "program_alt_unwarned": summary_of(unwarned_alt),
        # The machine's own noise in the same units: one plain repetition
        # against the median of the other repetitions of its row.
        "noise": summary_of(sibling_errs),
        # How often the measured time lies between the lowest and the highest
        # estimate of the base runs taken one at a time (runs made with
        # several base runs): the uncertainty the estimator reports, checked.
        "measured_inside_base_runs": {"n": in_runs[1], "inside": in_runs[0]},
        "measured_inside_base_runs_alt": {"n": in_runs_alt[1], "inside": in_runs_alt[0]},
    }
    if probed:
        doc["summary"]["near"] = {"program": summary_of(near_err), "program_alt": summary_of(near_alt),
                                  "repetitions": {"near": near_reps[0], "n": near_reps[1]},
                                  "base_runs": {"near": near_base[0], "n": near_base[1]}}
    tp = doc.get("context", {}).get("throughput_probe")
    if tp:
        # run.py --throughput-probe: did the node stay the one the uBs measured?
        # Its ratios are over tp["base"]: cross.py probes this machine's
        # configurations, not the stored base node (runs before it: the base).
        doc["summary"]["throughput"] = throughput_probe.verdict(tp, tp.get("base", doc.get("base")),
                                                                tp.get("limit_pct", throughput_probe.LIMIT_PCT))
    return doc


def throughput_lines(doc):
    """The throughput probe's readings, one line each, and its verdict
    (run.py --throughput-probe); none for runs made without it."""
    tv = doc.get("summary", {}).get("throughput")
    if not tv:
        return []
    tp = doc["context"]["throughput_probe"]
    n = {w: sum(p["when"] == w for p in tp.get("probes", [])) for w in ("ubench", "measured")}
    out = ["   throughput probe (four sqrt chains per thread, each configuration's ns per iteration over %s's; "
           "medians of %d probes around the uB runs and %d in the measured rounds):" % (
               tp.get("base", doc.get("base", "?")), n["ubench"], n["measured"])]
    for label, r in tv["configs"].items():
        out.append("     %s: uB runs %s, NPPDB csqrt %s, measured rounds %s%s" % (
            label, fmt(r["ubench"], "%.2f"), fmt(r["nppdb"], "%.2f"), fmt(r["measured"], "%.2f"),
            "" if r["apart_pct"] is None else " (%.0f%% apart%s)" % (
                r["apart_pct"], ": CHANGED" if r["changed"] else "")))
    if tv["changed"]:
        out.append("   NODE CHANGED during the run (%s: readings more than %g%% apart): the uBs and the "
                   "measured runs met different nodes, these errors measure the machine, not the method"
                   % (", ".join(tv["changed"]), tv["limit_pct"]))
    else:
        out.append("   the node kept its shape: every configuration's readings within %g%%" % tv["limit_pct"])
    return out


def inside(est, reps):
    """True when est lies within [min, max] of reps; None without both."""
    if est is None or not reps:
        return None
    return min(reps) <= est <= max(reps)


def summary_of(errs):
    if not errs:
        return {"n": 0, "median_abs_pct": None, "max_abs_pct": None, "mean_abs_pct": None}
    return {"n": len(errs), "median_abs_pct": statistics.median(errs),
            "max_abs_pct": max(errs), "mean_abs_pct": sum(errs) / len(errs)}


# --------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------

def fmt(v, spec="%.4f", none="-"):
    return none if v is None else spec % v


def table(headers, rows):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h))
              for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(str(c).rjust(w) if k else str(c).ljust(w)
                                   for k, (c, w) in enumerate(zip(cells, widths)))
    out = [line(headers), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


def header_lines(doc):
    c = doc.get("context", {})
    m = c.get("machine", {})
    lines = [
        "phaseprobe accuracy: estimated vs measured",
        "machine : %s, %s cores (%s)%s" % (m.get("cpu", "?"), m.get("cores", "?"),
                                           m.get("host", "?"),
                                           ", " + c["load_note"] if c.get("load_note") else ""),
        "commit  : %s%s" % (c.get("commit", "?"), " (+ uncommitted changes)" if c.get("dirty") else ""),
        "date    : %s" % c.get("date", "?"),
        "command : %s" % c.get("command", "?"),
        "base    : %s%s; uB grid: %s%s%s; repetitions: %s (median); measured = %s"
        % (doc.get("base", "?"),
           (" (median of %d instrumented runs)" % c["base_runs"] if c.get("base_runs", 1) > 1 else "")
           + (", taken in turn with the measured repetitions" if c.get("base_alongside") else "")
           + (", sampling off (the first, sampled run gives the streams)"
              if c.get("base_timing") == "unsampled" else ""),
           c.get("grid", "?"),
           (" + %d grown from the phases" % c["grown_ubench_configs"] if c.get("grown_ubench_configs") else "")
           + (" + %d phase clones padded to their phase's tpi" % sum(a.get("padded_clones", 0) for a in doc.get("apps", []))
              if any(a.get("padded_clones") for a in doc.get("apps", [])) else ""),
           (", configurations characterized side by side" if c.get("interleaved") else "")
           + (", median of %d rounds per uB" % c["rounds"] if c.get("rounds", 1) > 1 else ""),
           c.get("repetitions", "?"),
           c.get("measured", "plain program wall time")),
        "configs : " + "; ".join("%s = %s" % (k["label"], " ".join(
            "%s=%s" % kv for kv in sorted(k.get("env", {}).items())))
            for k in doc.get("configs", [])),
    ]
    st = c.get("stored")
    if st:
        sm = st.get("machine") or {}
        lines.append("stored  : the base runs and the (stored) rows' measured times are run %s's, on %s, "
                     "%s cores (%s), commit %s, %s; those rows are ranked with this machine's and left out "
                     "of the summary" % (st.get("folder", "?"), sm.get("cpu", "?"), sm.get("cores", "?"),
                                        sm.get("host", "?"), st.get("commit", "?"), st.get("date", "?")))
    if c.get("left_out"):
        lines.append("left out: %s (cross.py --leave-out: neither projected nor measured here)"
                     % "; ".join(c["left_out"]))
    return lines


def ranking_word(rk):
    if not rk.get("complete", True):
        return "INCOMPLETE (a configuration has no estimate)"
    if rk.get("strict"):
        return "right"
    return "right except measured ties" if rk.get("distinguishable") else "WRONG"


def alt_of(doc):
    """(label, summary phrase, sentence) of the second estimate column."""
    alt = doc.get("context", {}).get("alt") or {"label": "unsampled"}
    if alt.get("label", "unsampled") == "unsampled":
        return ("unsampled", "estimates from the base run's unsampled times",
                "the same from the base phase file with the times of an unsampled instrumented run "
                "(streams kept)")
    args = " ".join(alt.get("estimate_args", []))
    return (alt["label"], "estimates with phaseprobe-estimate " + args,
            "the same base phase file estimated with phaseprobe-estimate " + args)


def near_note(row):
    """A probed row's near-shape part: its near repetitions and the error
    against their median (run.py --handoff-probe)."""
    if "measured_near_reps" not in row:
        return ""
    return "near %d/%d: %s%%" % (len(row["measured_near_reps"]), len(row.get("measured_reps") or []),
                                  fmt(row.get("error_near_pct"), "%+.1f"))


def render_text(doc):
    out = header_lines(doc)
    alt_label, alt_phrase, alt_what = alt_of(doc)
    for a in doc.get("apps", []):
        out.append("")
        out.append("== %s  workload %s  (coverage %s, %d phases, %d unmatched)" % (
            a["app"], a["workload"], fmt(a.get("coverage"), "%.3f"),
            len(a.get("phases", [])), len(a.get("unmatched", []))))
        rows = []
        for r in a.get("rows", []):
            rows.append([r["config"] + (" (base)" if r["config"] == doc.get("base") else "")
                         + (" (stored)" if r.get("stored") else ""),
                         fmt(r.get("estimated_s")), fmt(r.get("measured_s")),
                         fmt(r.get("error_pct"), "%+.1f"), fmt(r.get("spread_pct"), "%.1f"),
                         "%s / %s" % (fmt(r.get("rank_estimated"), "%d"),
                                      fmt(r.get("rank_measured"), "%d")),
                         fmt(r.get("estimated_alt_s")), fmt(r.get("error_alt_pct"), "%+.1f"),
                         "; ".join(x for x in (r.get("note", ""), near_note(r)) if x)])
        out.append(table(["config", "estimated (s)", "measured (s)", "error %", "spread %",
                          "rank est/meas", "est.%s (s)" % alt_label, "error %", "note"], rows))
        rk = a.get("ranking", {})
        out.append("ranking: %s%s" % (ranking_word(rk),
            "" if not rk.get("measured_ties") else "  (measured ties: %s)" % ", ".join(
                "%s~%s" % tuple(t) for t in rk["measured_ties"])))
        bs = a.get("base_runs_spread")
        if bs and bs.get("spread_pct") is not None:
            out.append("base runs: %d, program times %.1f%% apart%s" % (
                a.get("base_runs", 0), bs["spread_pct"],
                "; varied most: " + ", ".join("%s %.4g-%.4g s" % (p["id"], p["min_s"], p["max_s"])
                                              for p in bs.get("phases") or []) if bs.get("phases") else ""))
        ph = [p for p in a.get("phases", []) if p.get("per_config")]
        if ph:
            top = sorted(ph, key=lambda p: -(p.get("weight") or 0))[: doc.get("context", {}).get("top_phases", 5)]
            cfgs = [r["config"] for r in a.get("rows", [])]
            prow = []
            for p in top:
                cells = ["%s %s" % (p["id"], p.get("kind", "")), fmt(p.get("weight"), "%.3f"),
                         (p.get("ubench") or "unmatched")]
                for c in cfgs:
                    v = p["per_config"].get(c, {})
                    cv = v.get("profile_cv_pct")
                    cells.append("%s/%s %s%s%s" % (fmt(v.get("estimated_s"), "%.3g"),
                                                   fmt(v.get("measured_s"), "%.3g"),
                                                   fmt(v.get("error_pct"), "%+.0f%%"),
                                                   " busy" if v.get("busy_time") else "",
                                                   " cv%.0f%%!" % cv if cv is not None and cv > NOISY_CV else ""))
                prow.append(cells)
            out.append("phases (largest weight first; est/meas s, error; measured = instrumented run on that config; "
                       "a phase that is its own top-level region is estimated as the region, with its barriers, "
                       "page faults and fork/join; "
                       "cvN%! = the chosen profile's tpi varies by N% on that node; busy = a worksharing "
                       "phase on threads taking turns on a core: measured is its slowest thread's own share, "
                       "not the construct's wall time, and it is left out of the per-phase summary):")
            out.append(table(["phase", "weight", "uB"] + cfgs, prow))
        if a.get("unmatched"):
            out.append("unmatched: " + "; ".join(a["unmatched"]))
        for w in a.get("warnings", []):
            out.append("warning: " + w)
    s = doc.get("summary", {})
    pr, ph = s.get("program", {}), s.get("phases", {})
    out.append("")
    out.append("== summary over %d program estimates: median |error| %s%%, max |error| %s%% "
               "(goals: median <= 5%%, max <= 10%%)" % (
                   pr.get("n", 0), fmt(pr.get("median_abs_pct"), "%.1f"), fmt(pr.get("max_abs_pct"), "%.1f")))
    out.append("   per-phase (%d estimates%s): median |error| %s%%, max |error| %s%%" % (
        ph.get("n", 0), "; %d busy left out" % s["phases_busy_left_out"] if s.get("phases_busy_left_out") else "",
        fmt(ph.get("median_abs_pct"), "%.1f"), fmt(ph.get("max_abs_pct"), "%.1f")))
    pa, pha = s.get("program_alt", {}), s.get("phases_alt", {})
    if pa.get("n"):
        out.append("   %s (est.%s): program median |error| "
                   "%s%%, max %s%% (%d); per-phase median %s%%, max %s%% (%d); ranking right ignoring ties: %s"
                   % (alt_phrase, alt_label, fmt(pa.get("median_abs_pct"), "%.1f"), fmt(pa.get("max_abs_pct"), "%.1f"), pa["n"],
                      fmt(pha.get("median_abs_pct"), "%.1f"), fmt(pha.get("max_abs_pct"), "%.1f"),
                      pha.get("n", 0), "yes" if s.get("ranking_alt_all_right_distinguishable") else "NO"))
    out.append("   ranking right in every case: %s (strict), %s (ignoring measured ties: %d of %d "
               "configuration pairs were distinguishable)" % (
                   "yes" if s.get("ranking_all_right_strict") else "NO",
                   "yes" if s.get("ranking_all_right_distinguishable") else "NO",
                   s.get("distinguishable_pairs", 0), s.get("pairs", 0)))
    ins, ins_alt = s.get("inside_reps") or {}, s.get("inside_reps_alt") or {}
    if ins.get("n"):
        out.append("   inside the measured range (between the fastest and the slowest repetition): "
                   "%d of %d estimates%s" % (ins["inside"], ins["n"],
                                             "; est.%s %d of %d" % (alt_label, ins_alt["inside"], ins_alt["n"])
                                             if ins_alt.get("n") else ""))
    nz = s.get("noise") or {}
    if nz.get("n"):
        out.append("   noise floor: one plain repetition against the median of the others of its row: "
                   "median %s%%, max %s%% (%d repetitions)" % (
                       fmt(nz.get("median_abs_pct"), "%.1f"), fmt(nz.get("max_abs_pct"), "%.1f"), nz["n"]))
    nr = s.get("near")
    if nr:
        hp = doc.get("context", {}).get("handoff_probe", {})
        pn, pan = nr["program"], nr["program_alt"]
        out.append("   near shape only (handoff probe between CPUs %s around each run, both probes under %s ns: "
                   "%d of %d repetitions, %d of %d base runs): program median |error| %s%%, max %s%% (%d)%s"
                   % (",".join(map(str, hp.get("cpus", []))), fmt(hp.get("near_below_ns"), "%.0f"),
                      nr["repetitions"]["near"], nr["repetitions"]["n"], nr["base_runs"]["near"],
                      nr["base_runs"]["n"], fmt(pn.get("median_abs_pct"), "%.1f"),
                      fmt(pn.get("max_abs_pct"), "%.1f"), pn.get("n", 0),
                      "; est.%s %s%% / %s%% (%d)" % (alt_label, fmt(pan.get("median_abs_pct"), "%.1f"),
                                                     fmt(pan.get("max_abs_pct"), "%.1f"), pan["n"])
                      if pan.get("n") else ""))
    out += throughput_lines(doc)
    ib, iba = s.get("measured_inside_base_runs") or {}, s.get("measured_inside_base_runs_alt") or {}
    if ib.get("n") or iba.get("n"):
        out.append("   measured inside the range of the base runs' own estimates (each base run alone): "
                   "%d of %d%s" % (ib.get("inside", 0), ib.get("n", 0),
                                   "; est.%s %d of %d" % (alt_label, iba["inside"], iba["n"])
                                   if iba.get("n") else ""))
    if s.get("thread_branch_rows"):
        pu, pau = s.get("program_unwarned", {}), s.get("program_alt_unwarned", {})
        out.append("   without the %d estimates warned of code that branches on the thread count: "
                   "median |error| %s%%, max %s%% (%d)%s" % (
                       s["thread_branch_rows"], fmt(pu.get("median_abs_pct"), "%.1f"),
                       fmt(pu.get("max_abs_pct"), "%.1f"), pu.get("n", 0),
                       "; est.%s %s%%, max %s%% (%d)" % (alt_label, fmt(pau.get("median_abs_pct"), "%.1f"),
                                                        fmt(pau.get("max_abs_pct"), "%.1f"), pau.get("n", 0))
                       if pau.get("n") else ""))
    if s.get("padding_warned_rows"):
        pp = s.get("program_padding_unwarned", {})
        out.append("   without the %d estimates warned of padded arithmetic on another CPU: "
                   "median |error| %s%%, max %s%% (%d)" % (
                       s["padding_warned_rows"], fmt(pp.get("median_abs_pct"), "%.1f"),
                       fmt(pp.get("max_abs_pct"), "%.1f"), pp.get("n", 0)))
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# HTML
# --------------------------------------------------------------------------

EST_COLOR, MEAS_COLOR = "#3b6fb6", "#e08a2c"
NOISY_CV = 20.0  # % : a profile this noisy is flagged next to the phase estimate it made


def nice_max(v):
    if v <= 0:
        return 1.0
    e = 10 ** math.floor(math.log10(v))
    for m in (1, 2, 4, 6, 8, 10):  # four even intervals with round labels
        if v <= m * e:
            return m * e
    return 10 * e


ALT_COLOR = "#8fb3e0"


def svg_bars(title, labels, est, meas, alt=None, width=520, height=240, alt_name="unsampled"):
    """Grouped bars (estimated, measured, and the second estimate when there
    is one) per label, with a y axis in seconds."""
    series = [(est, EST_COLOR, "estimated"), (meas, MEAS_COLOR, "measured")]
    if alt and any(v is not None for v in alt):
        series.insert(1, (alt, ALT_COLOR, "est. " + alt_name))
    left, right, top, bottom = 56, 12, 28, 46
    pw, ph = width - left - right, height - top - bottom
    vmax = nice_max(max([v for sr in series for v in sr[0] if v is not None] or [1.0]))
    n = max(len(labels), 1)
    group = pw / n
    bw = min(36.0, group * 0.7 / len(series))
    e = html.escape
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="%s">'
         % (width, height, e(title))]
    s.append('<text x="%d" y="16" font-size="13" font-weight="bold">%s</text>' % (left, e(title)))
    for k in range(5):
        v = vmax * k / 4
        y = top + ph - ph * k / 4
        s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (left, left + pw, y, y))
        s.append('<text x="%d" y="%.1f" font-size="10" text-anchor="end">%.3g</text>' % (left - 4, y + 3, v))
    s.append('<text x="12" y="%d" font-size="10" transform="rotate(-90 12 %d)" text-anchor="middle">seconds</text>'
             % (top + ph // 2, top + ph // 2))
    for i, lab in enumerate(labels):
        x0 = left + group * i + group / 2 - bw * len(series) / 2
        for j, (vals, col, name) in enumerate(series):
            v = vals[i]
            if v is None:
                s.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">n/a</text>'
                         % (x0 + bw * j + bw / 2, top + ph - 4))
                continue
            h = ph * v / vmax
            s.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %.4g s</title></rect>'
                     % (x0 + bw * j, top + ph - h, bw, h, col, e(lab), name, v))
            s.append('<text x="%.1f" y="%.1f" font-size="9" text-anchor="middle">%.3g</text>'
                     % (x0 + bw * j + bw / 2, top + ph - h - 3, v))
        s.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%s</text>'
                 % (left + group * i + group / 2, top + ph + 14, e(lab)))
    s.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#333"/>' % (left, left + pw, top + ph, top + ph))
    ly = height - 12
    for j, (_, col, name) in enumerate(series):
        x = left + 115 * j
        s.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" font-size="11">%s</text>'
                 % (x, ly - 9, col, x + 14, ly, name))
    s.append("</svg>")
    return "".join(s)


CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f2f2f2}
td:first-child,th:first-child{text-align:left}
.ok{color:#176c2c;font-weight:bold}.bad{color:#b3261e;font-weight:bold}
.ctx td{text-align:left}.charts{display:flex;flex-wrap:wrap;gap:12px}
.note{color:#555;font-size:12px}
"""


def render_html(doc):
    e = html.escape
    c = doc.get("context", {})
    m = c.get("machine", {})
    s = doc.get("summary", {})
    pr = s.get("program", {})
    alt_label, alt_phrase, alt_what = alt_of(doc)
    out = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<title>phaseprobe accuracy %s</title><style>%s</style></head><body>" % (e(c.get("date", "")), CSS),
           "<h1>phaseprobe accuracy: estimated vs measured</h1>",
           "<table class=\"ctx\">"]
    for k, v in (("machine", "%s, %s cores (%s)" % (m.get("cpu", "?"), m.get("cores", "?"), m.get("host", "?"))),
                 ("load", c.get("load_note", "")),
                 ("commit", "%s%s" % (c.get("commit", "?"), " (+ uncommitted changes)" if c.get("dirty") else "")),
                 ("date", c.get("date", "?")), ("command", c.get("command", "?")),
                 ("base configuration", doc.get("base", "?")),
                 ("uB grid", "%s%s" % (c.get("grid", "?"), " + %d configurations grown from the phases"
                                       % c["grown_ubench_configs"] if c.get("grown_ubench_configs") else "")),
                 ("repetitions", "%s (median of plain runs)" % c.get("repetitions", "?")),
                 ("stored rows", "" if not c.get("stored") else
                  "base runs and (stored) rows' measured times from %s (%s, commit %s, %s): ranked with "
                  "this machine's rows, left out of the summary" % (
                      c["stored"].get("folder", "?"), (c["stored"].get("machine") or {}).get("cpu", "?"),
                      c["stored"].get("commit", "?"), c["stored"].get("date", "?"))),
                 ("configurations", "; ".join("%s = %s" % (k2["label"], " ".join(
                     "%s=%s" % kv for kv in sorted(k2.get("env", {}).items()))) for k2 in doc.get("configs", [])))):
        if v != "" or k != "stored rows":
            out.append("<tr><th>%s</th><td>%s</td></tr>" % (e(k), e(str(v))))
    out.append("</table>")

    def verdict(ok):
        return '<span class="%s">%s</span>' % ("ok" if ok else "bad", "yes" if ok else "no")

    out.append("<h2>Summary</h2><table><tr><th>over</th><th>n</th><th>median |error| %</th>"
               "<th>max |error| %</th></tr>")
    for name, d in (("program estimates", pr), ("phase estimates", s.get("phases", {})),
                    ("program estimates, est. " + alt_label, s.get("program_alt", {})),
                    ("phase estimates, est. " + alt_label, s.get("phases_alt", {})),
                    ("noise floor: one plain repetition vs the median of its row's others",
                     s.get("noise") or {})):
        if d is s.get("noise") and not d.get("n"):
            continue  # data of runs made before it was computed
        out.append("<tr><td>%s</td><td>%d</td><td>%s</td><td>%s</td></tr>" % (
            name, d.get("n", 0), fmt(d.get("median_abs_pct"), "%.1f"), fmt(d.get("max_abs_pct"), "%.1f")))
    out.append("</table><p>Goals: median &le; 5%%, max &le; 10%%. Ranking right in every case: %s (strict), "
               "%s (ignoring pairs whose measured times differ by less than their noise: %d of %d pairs "
               "were distinguishable).</p>"
               % (verdict(s.get("ranking_all_right_strict")), verdict(s.get("ranking_all_right_distinguishable")),
                  s.get("distinguishable_pairs", 0), s.get("pairs", 0)))
    tl = throughput_lines(doc)
    if tl:
        changed = s["throughput"]["changed"]
        out.append('<p class="%s">%s</p>' % ("bad" if changed else "note",
                                             "<br>".join(e(l.strip()) for l in tl)))

    for a in doc.get("apps", []):
        rows = a.get("rows", [])
        out.append("<h2>%s &mdash; workload %s</h2>" % (e(a["app"]), e(str(a["workload"]))))
        out.append('<p class="note">coverage %s; %d phases, %d unmatched; ranking %s</p>' % (
            fmt(a.get("coverage"), "%.3f"), len(a.get("phases", [])), len(a.get("unmatched", [])),
            ranking_word(a.get("ranking", {}))))
        out.append('<div class="charts">')
        out.append(svg_bars("%s %s: program time" % (a["app"], a["workload"]), [r["config"] for r in rows],
                            [r.get("estimated_s") for r in rows], [r.get("measured_s") for r in rows],
                            alt=[r.get("estimated_alt_s") for r in rows], alt_name=alt_label))
        ph = sorted([p for p in a.get("phases", []) if p.get("per_config")],
                    key=lambda p: -(p.get("weight") or 0))[:2]
        for p in ph:
            cfgs = [r["config"] for r in rows]
            out.append(svg_bars("phase %s (weight %s)" % (p["id"], fmt(p.get("weight"), "%.2f")), cfgs,
                                [p["per_config"].get(k, {}).get("estimated_s") for k in cfgs],
                                [p["per_config"].get(k, {}).get("measured_s") for k in cfgs],
                                alt=[p["per_config"].get(k, {}).get("estimated_alt_s") for k in cfgs],
                                alt_name=alt_label))
        out.append("</div>")
        out.append("<table><tr><th>config</th><th>estimated (s)</th><th>measured (s)</th><th>error %</th>"
                   "<th>spread %</th><th>rank est</th><th>rank meas</th><th>est. " + e(alt_label) +
                   " (s)</th><th>error %</th><th>note</th></tr>")
        for r in rows:
            err = r.get("error_pct")
            cls = "" if err is None else (' class="bad"' if abs(err) > 10 else "")
            alt = r.get("error_alt_pct")
            acls = "" if alt is None else (' class="bad"' if abs(alt) > 10 else "")
            out.append("<tr><td>%s%s</td><td>%s</td><td>%s</td><td%s>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                       "<td>%s</td><td%s>%s</td><td>%s</td></tr>" % (
                           e(r["config"]), (" (base)" if r["config"] == doc.get("base") else "")
                           + (" (stored)" if r.get("stored") else ""),
                           fmt(r.get("estimated_s")), fmt(r.get("measured_s")), cls, fmt(err, "%+.1f"),
                           fmt(r.get("spread_pct"), "%.1f"), fmt(r.get("rank_estimated"), "%d"),
                           fmt(r.get("rank_measured"), "%d"), fmt(r.get("estimated_alt_s")), acls,
                           fmt(alt, "%+.1f"), e(r.get("note", ""))))
        out.append("</table>")
        for w in a.get("warnings", []):
            out.append('<p class="note">warning: %s</p>' % e(w))
        if a.get("unmatched"):
            out.append('<p class="note">unmatched: %s</p>' % e("; ".join(a["unmatched"])))
    out.append('<p class="note">estimated = phaseprobe-estimate program time for that configuration '
               '(from one instrumented run on the base configuration); est. %s = %s; '
               'measured = median wall time of the plain (uninstrumented) program; error = (estimated '
               '- measured) / measured; spread = (max - min) / median of the repetitions; per-phase '
               'measured times come from an unsampled instrumented run on each configuration.</p>'
               % (e(alt_label), e(alt_what)))
    out.append("</body></html>\n")
    return "\n".join(out)


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as ex:
        raise InputError("%s: cannot read: %s" % (path, ex.strerror))
    except json.JSONDecodeError as ex:
        raise InputError("%s:%d:%d: malformed JSON: %s" % (path, ex.lineno, ex.colno, ex.msg))
    if not isinstance(doc, dict):
        raise InputError("%s: expected a JSON object" % path)
    try:
        return derive(doc)
    except InputError as ex:
        raise InputError("%s: %s" % (path, ex))
    except (KeyError, TypeError, ValueError) as ex:
        raise InputError("%s: malformed accuracy data (%s: %s)" % (path, type(ex).__name__, ex))


def main(argv=None):
    ap = argparse.ArgumentParser(description="Render a phaseprobe accuracy raw-data JSON as text and HTML.")
    ap.add_argument("data", help="raw data JSON written by run.py (schema %s)" % SCHEMA)
    ap.add_argument("--text", help="write the text tables here (default: stdout only)")
    ap.add_argument("--html", help="write the HTML report here")
    args = ap.parse_args(argv)
    try:
        doc = load(args.data)
        text = render_text(doc)
        if args.text:
            textout.write_atomically(args.text, text)
        if args.html:
            textout.write_atomically(args.html, render_html(doc))
    except InputError as ex:
        print("report.py: %s" % ex, file=sys.stderr)
        return 2
    except OSError as ex:
        print("report.py: %s: %s" % (ex.filename, ex.strerror), file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
