"""The locality paper's claims (alltoall-manycore-locality): Figures 7-18 on
Dane (and Amber, its nodes), Tuolumne, at 32 x 112 and across node counts."""
import math

from mcbclaims.data import param, thin


def configs_at(rows, size, ranks=3584):
    """{label: time} of every configuration at (ranks, size): 'node_aware/nonblocking', 'system', ...;
    4 processes per leader or group, as in the paper's Figures 10-15 (the
    other counts are Figures 7-9's, read by by_param)."""
    out = {}
    for r in rows:
        if any(param(r, k) not in (None, "4") for k in ("procs-per-leader", "procs-per-group")):
            continue
        if r["ranks"] == ranks and r["size_bytes"] == size:
            inner = param(r, "inner")
            label = r["algorithm"] + (f"/{inner}" if inner else "")
            out[label] = min(out.get(label, math.inf), r["avg_us"])
    return out


def need(configs, size, *algorithms):
    for a in algorithms:
        if not any(k.split("/")[0] == a for k in configs):
            raise LookupError(f"no {a} at {size} B")


def loc_best(size, want):
    """The fastest configuration at `size` is one of `want`'s algorithms."""
    def evaluate(rows):
        c = configs_at(rows, size)
        need(c, size, "system", "node_aware", "locality_aware", "multileader_node_aware")
        best = min(c, key=c.get)
        ranked = sorted(c, key=c.get)[:3]
        return (f"fastest: {', '.join(f'{k} {c[k]:.0f} us' for k in ranked)}",
                best.split("/")[0] == want)
    return evaluate


def loc_beats_system(size, algorithm):
    def evaluate(rows):
        c = configs_at(rows, size)
        need(c, size, "system", algorithm)
        mine = min(v for k, v in c.items() if k.split("/")[0] == algorithm)
        return f"system / {algorithm} = {c['system'] / mine:.2f}x", mine < c["system"]
    return evaluate


def loc_speedup(rows):
    best, sizes = (0.0, None), []
    for size in (4, 64, 1024, 4096):
        c = configs_at(rows, size)
        new = [v for k, v in c.items() if k.split("/")[0] in ("locality_aware", "multileader_node_aware")]
        if "system" not in c or not new:
            continue  # the sizes simulated so far
        sizes.append(size)
        best = max(best, (c["system"] / min(new), size))
    if not sizes:
        raise LookupError("no size with system and locality_aware or multileader_node_aware")
    return (f"up to {best[0]:.2f}x (at {best[1]} B; sizes {', '.join(map(str, sizes))} B)",
            abs(best[0] / 3.0 - 1) <= 0.4, thin(len(sizes), "size"))


def loc_nonblocking(rows):
    wins = total = 0
    for size in (4, 64):
        c = configs_at(rows, size)
        for k, v in c.items():
            if k.endswith("/nonblocking") and k.replace("/nonblocking", "/pairwise") in c:
                total += 1
                wins += v < c[k.replace("/nonblocking", "/pairwise")]
    if not total:
        raise LookupError("no pairs of inner exchanges at 4 and 64 B")
    return (f"nonblocking inner faster in {wins}/{total} (algorithm, size <= 64 B)", wins >= 0.6 * total,
            thin(total, "(algorithm, size) pair"))


def node_counts(rows, size, *algorithms):
    """{nodes: {label: time}} for the node counts (112 ranks per node, the
    node-scaling runs and Figure 10's 32 nodes) where every one of
    `algorithms` was simulated at `size`."""
    out = {}
    for n in (2, 4, 8, 16, 32):
        c = configs_at(rows, size, ranks=112 * n)
        if all(any(k.split("/")[0] == a for k in c) for a in algorithms):
            out[n] = c
    if not out:
        raise LookupError(f"no node count with {', '.join(algorithms)} at {size} B")
    return out


def fastest_of(c, algorithm):
    return min(v for k, v in c.items() if k.split("/")[0] == algorithm)


def phases_of(rows, algorithm, ranks, size, inner, mode=None):
    """{phase: time} of (algorithm, inner exchange) at (ranks, size), or
    None; `mode`: only runs of that --phase-mode."""
    for r in rows:
        if (r["algorithm"] == algorithm and r["ranks"] == ranks and r["size_bytes"] == size
                and param(r, "inner") == inner and mode in (None, r.get("phase_mode"))):
            return {k: v for k, v in r["phases"].items() if k != "total"}
    return None


def loc_fig13(size, small):
    """Hierarchical, pairwise inner, the most nodes simulated: the exchange
    between the leaders dominates below 256 B (small), the gather from 256 B.
    Isolated phases (a barrier between phases, as the paper's breakdowns):
    embedded, the non-leaders' scatter includes their wait for the leader."""
    def evaluate(rows):
        for n in (32, 16, 8, 4, 2):
            ph = phases_of(rows, "hierarchical", 112 * n, size, "pairwise", mode="isolated")
            if ph:
                break
        else:
            raise LookupError(f"no hierarchical/pairwise at {size} B with --phase-mode isolated")
        top = max(ph, key=ph.get)
        text = f"N={n}, {size} B: " + ", ".join(f"{k} {v:.0f} us" for k, v in sorted(ph.items(), key=lambda x: -x[1]))
        return text, top == ("inter_node" if small else "gather")
    return evaluate


def loc_fig14(rows):
    """Node-aware at 32 nodes, both inners: inter-node dominates at every size."""
    good, n, ratios, inners = 0, 0, [], set()
    for size in (4, 64, 1024, 4096):
        for inner in ("pairwise", "nonblocking"):
            ph = phases_of(rows, "node_aware", 3584, size, inner)
            if ph and "inter_node" in ph and "intra_node" in ph:
                n += 1
                inners.add(inner)
                good += ph["inter_node"] > ph["intra_node"]
                ratios.append(ph["intra_node"] / ph["inter_node"])
    if not n:
        raise LookupError("no node_aware phases at 32 nodes")
    return (f"inter-node longer in {good}/{n} (size, inner); intra/inter from {min(ratios):.4f} to "
            f"{max(ratios):.3f}", good == n, thin(len(inners), "inner of the claim's two"))


def loc_fig15(rows):
    """Node-aware, pairwise inner, 4096 B: inter-node dominates at every node count."""
    per, ok = [], True
    for n in (2, 4, 8, 16, 32):
        ph = phases_of(rows, "node_aware", 112 * n, 4096, "pairwise")
        if ph:
            ok &= ph["inter_node"] > ph["intra_node"]
            per.append(f"N={n}: inter {ph['inter_node'] / 1000:.1f} ms, intra {ph['intra_node'] / 1000:.2f} ms")
    if not per:
        raise LookupError("no node_aware/pairwise phases at 4096 B")
    return "; ".join(per), ok, thin(len(per), "node count")


def loc_fig16(rows):
    """Locality-aware at 4096 B, 32 nodes, pairwise inner, 2 to 16 processes
    per group (and node-aware, the paper's one group per node): the
    inter-node exchange dominates at every group size, and 4 or 16 per group
    is the fastest."""
    found = {}
    for r in rows:
        if r["ranks"] == 3584 and r["size_bytes"] == 4096 and param(r, "inner") == "pairwise" and (
                r["file"].startswith("breakdown_locality_aware")):
            if r["algorithm"] == "locality_aware":
                found[f"{param(r, 'procs-per-group')} per group"] = r
            elif r["algorithm"] == "node_aware":
                found["node_aware"] = r
    if not any(k.endswith("per group") for k in found):
        raise LookupError("no locality_aware/pairwise at 4096 B, 32 nodes, per group size (part locality, fig16)")
    inter = all(r["phases"]["inter_node"] > r["phases"]["intra_node"] for r in found.values())
    best = min(found, key=lambda k: found[k]["avg_us"])
    text = "; ".join(f"{k}: inter {r['phases']['inter_node'] / 1000:.1f} ms, intra "
                     f"{r['phases']['intra_node'] / 1000:.2f} ms, total {r['avg_us'] / 1000:.1f} ms"
                     for k, r in sorted(found.items(), key=lambda x: x[1]["avg_us"]))
    return f"fastest {best}; {text}", inter and best in ("4 per group", "16 per group")


FIG17_18 = ("system", "node_aware", "locality_aware", "multileader_node_aware")


def among(rows, size, ranks):
    """{algorithm: fastest time} of Figures 17-18's four at (ranks, size)."""
    c = configs_at(rows, size, ranks)
    need(c, size, *FIG17_18)
    return {a: fastest_of(c, a) for a in FIG17_18}


def loc_fig17(rows):
    """Amber (Dane's model): of the four, multi-leader + node-aware the
    fastest at 4 B and node-aware at 4096 B."""
    small, large = among(rows, 4, 3584), among(rows, 4096, 3584)
    bs, bl = min(small, key=small.get), min(large, key=large.get)
    return (f"4 B: fastest {bs} ({small[bs]:.0f} us); 4096 B: fastest {bl} ({large[bl] / 1000:.1f} ms)",
            bs == "multileader_node_aware" and bl == "node_aware")


def loc_fig18(rows):
    """Tuolumne: node-aware the fastest of the four at 4 B with the system
    MPI close behind (within 25%), and the system MPI the fastest at 4096 B."""
    small, large = among(rows, 4, 3072), among(rows, 4096, 3072)
    bs, bl = min(small, key=small.get), min(large, key=large.get)
    close = small["system"] / small["node_aware"]
    return (f"4 B: fastest {bs}, system / node_aware {close:.2f}x; 4096 B: fastest {bl} "
            f"({large[bl] / 1000:.1f} ms)", bs == "node_aware" and close <= 1.25 and bl == "system")


def by_param(rows, algorithm, size, name, ranks=3584):
    """{(parameter value, inner): time} of `algorithm` at (ranks, size)."""
    out = {}
    for r in rows:
        if r["algorithm"] == algorithm and r["ranks"] == ranks and r["size_bytes"] == size:
            key = (int(param(r, name)), param(r, "inner"))
            out[key] = min(out.get(key, math.inf), r["avg_us"])
    return out


def multileader_sweep(rows, size, fewest):
    """Figure 7 at `size`: every multi-leader beats hierarchical, and the
    fewest leaders (`fewest`: most processes per leader) or the most are
    the best, per inner exchange."""
    ml = by_param(rows, "multileader", size, "procs-per-leader")
    hier = {}
    for r in rows:
        if r["algorithm"] == "hierarchical" and r["ranks"] == 3584 and r["size_bytes"] == size:
            hier[param(r, "inner")] = min(hier.get(param(r, "inner"), math.inf), r["avg_us"])
    inners = sorted({i for _, i in ml} & set(hier))
    if not inners or len({p for p, _ in ml}) < 2:
        points = f" (points locality/fig7-9-hierarchical-*-{size}B and -multileader-*-{size}B)"
        raise LookupError(f"no multileader sweep and hierarchical at {size} B, 32 nodes" + ("" if size == 4 else points))
    ok, out = True, []
    for inner in inners:
        sweep = {p: t for (p, i), t in ml.items() if i == inner}
        best = min(sweep, key=sweep.get)
        ok &= all(t < hier[inner] for t in sweep.values()) and best == (max(sweep) if fewest else min(sweep))
        def fmt(t):
            return f"{t:.0f} us" if size < 1024 else f"{t / 1000:.1f} ms"
        out.append(f"{inner}: hierarchical {fmt(hier[inner])}, multileader " +
                   ", ".join(f"ppl {p} {fmt(t)}" for p, t in sorted(sweep.items())))
    return "; ".join(out), ok


def loc_fig7_small(rows):
    """4 B: every multi-leader beats hierarchical, and the fewest leaders are the best."""
    return multileader_sweep(rows, 4, fewest=True)


def loc_fig7_large(rows):
    """4096 B: every multi-leader beats hierarchical, and the most leaders
    (4 processes per leader) are the best."""
    return multileader_sweep(rows, 4096, fewest=False)


def loc_fig8_most(rows):
    """Node-aware beats locality-aware (its best group size) at most sizes, pairwise inner."""
    wins, sizes = 0, []
    for size in (4, 64, 1024, 4096):
        la = [t for (_, i), t in by_param(rows, "locality_aware", size, "procs-per-group").items() if i == "pairwise"]
        na = [r["avg_us"] for r in rows if r["algorithm"] == "node_aware" and r["ranks"] == 3584
              and r["size_bytes"] == size and param(r, "inner") == "pairwise"]
        if la and na:
            sizes.append(f"{size} B {min(la) / min(na):.2f}x")
            wins += min(na) < min(la)
    if not sizes:
        raise LookupError("no node_aware and locality_aware at 32 nodes")
    return f"locality_aware / node_aware: {', '.join(sizes)}", wins >= 0.7 * len(sizes), thin(len(sizes), "size")


def loc_fig9_small(rows):
    """4 B: multi-leader + node-aware is best with some leaders (ppl 4-16),
    better than one leader per rank (node_aware) and one per node (hierarchical)."""
    mlna = by_param(rows, "multileader_node_aware", 4, "procs-per-leader")
    if len({p for p, _ in mlna}) < 2:
        raise LookupError("no multileader_node_aware sweep at 4 B, 32 nodes")
    ends = [r["avg_us"] for r in rows if r["algorithm"] in ("node_aware", "hierarchical") and r["ranks"] == 3584
            and r["size_bytes"] == 4]
    if not ends:
        raise LookupError("no node_aware or hierarchical at 4 B, 32 nodes")
    (ppl, inner), best = min(mlna.items(), key=lambda kv: kv[1])
    return (f"best multileader_node_aware: ppl {ppl} ({inner}) {best:.0f} us; node_aware/hierarchical best "
            f"{min(ends):.0f} us", best < min(ends))


def loc_fig11(rows):
    algorithms = ("system", "node_aware", "locality_aware", "multileader_node_aware")
    best = beats = 0
    per = []
    counts = node_counts(rows, 4, *algorithms)
    for n, c in counts.items():
        top = min(c, key=c.get).split("/")[0]
        mine = fastest_of(c, "multileader_node_aware")
        best += top == "multileader_node_aware"
        beats += mine < c["system"]
        per.append(f"N={n}: {top}, system/mlna {c['system'] / mine:.2f}x")
    k = len(counts)
    return (f"mlna fastest at {best}/{k} node counts, faster than system at {beats}/{k} ({'; '.join(per)})",
            best >= 0.6 * k and beats >= 0.6 * k, thin(k, "node count"))


def loc_fig12(rows):
    counts = node_counts(rows, 4096, "node_aware", "locality_aware")
    per, ok = [], True
    for n, c in counts.items():
        ratio = fastest_of(c, "node_aware") / fastest_of(c, "locality_aware")
        if n >= 8:
            ok &= ratio > 1
        per.append(f"N={n}: node_aware/locality_aware {ratio:.3f}")
    large = sum(n >= 8 for n in counts)
    if not large:
        raise LookupError("no node count of 8 or more at 4096 B")
    return "; ".join(per), ok, thin(large, "node count of 8 or more")
