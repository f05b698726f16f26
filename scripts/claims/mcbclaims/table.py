"""The table: every claim a simulation can address (id, paper, figure, what,
the paper's value, its data's part, tolerance, the evaluating function),
the papers SMPI cannot simulate, and where each claim's data lives."""
from mcbclaims.locality import (loc_beats_system, loc_best, loc_fig7_large, loc_fig7_small, loc_fig8_most,
                                loc_fig9_small, loc_fig11, loc_fig12, loc_fig13, loc_fig14, loc_fig15, loc_fig16,
                                loc_fig17, loc_fig18, loc_nonblocking, loc_speedup)
from mcbclaims.sparbit import sparbit_gain, sparbit_order, sparbit_share, sparbit_strip
from mcbclaims.tra import (tra_abs, tra_best_radix_large, tra_best_radix_small, tra_fig9_inter, tra_fig9_r1,
                           tra_fig9_r2, tra_fig11, tra_fig12, tra_order, tra_vs_system)

# Claim group -> (the part of make.sh that makes its data, the platform with
# per-message costs); the data is in PART-PLATFORM/ and PART-PLATFORM-nocost/.
# The third: the part of scripts/sim/paper_scale.py that runs it.
COSTS = {"tra": ("tra", "theta-256x64", "tra"), "locality": ("locality", "dane-32x112", "locality"),
         "yahoo": ("sparbit", "yahoo-16x8", "sparbit"), "cervino": ("sparbit", "cervino-5x32", "sparbit"),
         "polaris": ("tra", "polaris-64x32", "polaris"), "tuolumne": ("locality", "tuolumne-32x96", "tuolumne")}


# Each claim: id, paper, figure, claim, paper's value (text), its group in
# COSTS, tolerance (text), and evaluate(rows) -> (mcb value text, holds[,
# why the verdict is thin]).
CLAIMS = [
    ("loc-abs-3x", "locality", "abstract, 1", "the new algorithms (locality-aware, multi-leader + node-aware) are up "
     "to 3x faster than the system MPI at 32 nodes", "up to 3x", "locality", "within 40%", loc_speedup),
    ("loc-fig10-small", "locality", "Fig. 10, 4", "multi-leader + node-aware is the fastest at small sizes",
     "best at small sizes", "locality", "fastest of all at 4 B", loc_best(4, "multileader_node_aware")),
    ("loc-fig10-small-sys", "locality", "Fig. 10, 4", "multi-leader + node-aware beats the system MPI at small sizes",
     "outperforms system MPI", "locality", "faster at 4 B", loc_beats_system(4, "multileader_node_aware")),
    ("loc-fig10-mid", "locality", "Fig. 10, 4", "node-aware is the fastest at larger sizes", "best at larger sizes",
     "locality", "fastest of all at 1024 B", loc_best(1024, "node_aware")),
    ("loc-fig10-largest", "locality", "Fig. 10, 4", "locality-aware is the fastest at the largest size",
     "best at 4096 B", "locality", "fastest of all at 4096 B", loc_best(4096, "locality_aware")),
    ("loc-fig7-small", "locality", "Fig. 7, 4", "at small sizes every multi-leader beats hierarchical, and fewer "
     "leaders are better", "4 leaders per node best", "locality",
     "at 4 B, every multileader (7, 14, 28 leaders) below hierarchical and 7 leaders (16 per leader) the best, per "
     "inner", loc_fig7_small),
    ("loc-fig7-large", "locality", "Fig. 7, 4", "at large sizes the more leaders per node the faster, and "
     "hierarchical (one leader) the slowest", "performance increases with the number of leaders", "locality",
     "at 4096 B, every multileader (7, 14, 28 leaders) below hierarchical and 28 leaders (4 per leader) the best, per "
     "inner", loc_fig7_large),
    ("loc-fig8-most", "locality", "Fig. 8, 4", "node-aware beats locality-aware at most sizes",
     "node-aware best for most sizes", "locality", "node_aware below locality_aware's best group size at 70% of "
     "the sizes simulated (pairwise inner)", loc_fig8_most),
    ("loc-fig9-small", "locality", "Fig. 9, 4", "at small sizes multi-leader + node-aware is best with many leaders "
     "but not every rank", "around 20 leaders", "locality", "its best of 7, 14, 28 leaders below node-aware (112) "
     "and hierarchical (1) at 4 B", loc_fig9_small),
    ("loc-fig11", "locality", "Fig. 11, 6", "at 4 B, across node counts, multi-leader + node-aware is the fastest "
     "and beats the system MPI in many cases", "best across node counts", "locality",
     "both in at least 60% of the node counts 2..32", loc_fig11),
    ("loc-fig12", "locality", "Fig. 12, Fig. 8", "at 4096 B, locality-aware beats node-aware from 8 to 32 nodes",
     "consistently from 8 to 32 nodes", "locality", "faster at every node count of 8 and more simulated", loc_fig12),
    ("loc-fig13-small", "locality", "Fig. 13, 4.1", "hierarchical (pairwise inner): below 256 B the exchange "
     "between the leaders dominates", "inter-node dominates below 256 B", "locality",
     "inter_node the longest phase at 4 B, at the most nodes simulated", loc_fig13(4, True)),
    ("loc-fig13-large", "locality", "Fig. 13, 4.1", "hierarchical (pairwise inner): from 256 B the gather "
     "(intra-node) dominates", "gather dominates from 256 B", "locality",
     "gather the longest phase at 4096 B, at the most nodes simulated", loc_fig13(4096, False)),
    ("loc-fig14", "locality", "Fig. 14, 4.1", "node-aware, 32 nodes, both inners: the inter-node exchange dominates "
     "at every size", "inter-node dominates", "locality", "inter_node longer than intra_node at 4, 64, 1024, 4096 B",
     loc_fig14),
    ("loc-fig15", "locality", "Fig. 15, 4.1", "node-aware (pairwise inner) at 4096 B: the inter-node exchange "
     "dominates at every node count", "regardless of node count", "locality",
     "inter_node longer than intra_node at every node count simulated", loc_fig15),
    ("loc-fig16", "locality", "Fig. 16, 4.1", "locality-aware at 4096 B, 32 nodes: the inter-node exchange "
     "dominates at every group size, and 16 and 4 processes per group beat the other sizes and node-aware",
     "16 and 4 per group best", "locality", "inter_node longer than intra_node at 2, 4, 8, 16 per group and "
     "node-aware; the fastest is 4 or 16 per group", loc_fig16),
    ("loc-fig17", "locality", "Fig. 17, 4.2", "Amber (the same Sapphire Rapids nodes as Dane: Dane's model): of "
     "node-aware, locality-aware, multi-leader + node-aware and system, multi-leader + node-aware is the fastest "
     "at small sizes and node-aware at large ones", "mlna small, node-aware large", "locality",
     "fastest of the four at 4 B and at 4096 B", loc_fig17),
    ("loc-fig18", "locality", "Fig. 18, 4.2", "Tuolumne (MI300A, 96 cores): node-aware is the fastest at small "
     "sizes with the system MPI slightly slower; the system MPI is the fastest at larger sizes",
     "node-aware small, system large", "tuolumne", "node_aware fastest of the four at 4 B with system within 25%; "
     "system fastest at 4096 B (system is SMPI's, not Cray MPICH)", loc_fig18),
    ("loc-concl-nb", "locality", "6", "a nonblocking inner exchange is often faster, especially at small sizes",
     "often, small sizes", "locality", "in at least 60% of (algorithm, 4 and 64 B)", loc_nonblocking),

    ("tra-fig8-large", "TRA", "Fig. 8, V-A", "for blocks of 1 KiB and more the best radix is about sqrt(P)",
     "r ~ sqrt(P) best for S > 512 at every P", "tra",
     "ceil(sqrt P) within 10% of the best, best in [sqrt(P)/2, 2 sqrt(P)], every (P, S) simulated",
     tra_best_radix_large),
    ("tra-fig8-small", "TRA", "Fig. 8, V-A", "for small blocks the best radix is smaller than sqrt(P), but not 2",
     "optimal radix many times smaller than sqrt(P), not 2", "tra", "2 < best < sqrt(P) at S = 16 B, every P simulated",
     tra_best_radix_small),
    ("tra-r2-128B", "TRA", "Fig. 8(b), V-A", "radix 2, P = 2048, S = 128 B (the calibration point of theta)",
     "16.17 ms", "tra", "within 5% (calibrated: holds by construction with costs)", tra_abs(2, 16170.0, 0.05)),
    ("tra-r46-128B", "TRA", "Fig. 8(b), V-A", "radix 46, P = 2048, S = 128 B", "7.699 ms", "tra", "within 10%",
     tra_abs(46, 7699.0, 0.10)),
    ("tra-sys-32B", "TRA", "Fig. 10(c), V-C", "TRA (radix sqrt(P)) against the vendor alltoall, P = 2048, S = 32 B",
     "3.98x faster", "tra", "within 40% (system is SMPI's, not Cray MPI)", tra_vs_system("tra", 3.98, 0.4, radix=46)),
    ("tra2-sys-32B", "TRA", "Fig. 10(c), V-C", "TRA2 (8, N) against the vendor alltoall, P = 2048, S = 32 B",
     "5.02x faster", "tra", "within 40%", tra_vs_system("tra2", 5.02, 0.4)),
    ("tra-order", "TRA", "Fig. 10, V-C", "TRA2 beats TRA, and both beat the vendor alltoall, for almost all P and S",
     "almost all (P, S)", "tra",
     "each in at least 80% of the cells from P = 512 (to 2048 at 16..4096 B, beyond at 16..64 B)", tra_order),

    ("tra-fig11", "TRA", "Fig. 11, V-D", "Polaris: TRA's best radix is sqrt(P) for most (P, S)",
     "optimal at sqrt(P) for most cases", "polaris", "ceil(sqrt P) within 10% of the best in 2/3 of (P, S)",
     tra_fig11),
    ("tra-fig12", "TRA", "Fig. 12, V-D", "Polaris, weak scaling: TRA and TRA2 both outperform the vendor alltoall "
     "(the gap between them smaller than on Theta)", "both faster than MPI_Alltoall", "polaris",
     "both below system in 80% of the (P, S) cells (system is SMPI's, not Cray MPICH)", tra_fig12),
    ("tra-fig9-r1", "TRA", "Fig. 9, V-B", "TRA2's intra-node phase: the best r1 is sqrt(Q) = 8 in most runs",
     "r1 = 8 in most runs", "tra", "r1 = 8 within 10% of the best in 2/3 of (P, S)", tra_fig9_r1),
    ("tra-fig9-r2", "TRA", "Fig. 9, V-B", "TRA2's inter-node phase: the best r2 is about N = P/Q",
     "r2 ~ P/Q in most cases", "tra", "r2 = N within 10% of the best and best >= N/2 in 2/3 of (P, S)", tra_fig9_r2),
    ("tra-fig9-inter", "TRA", "Fig. 9, V-B", "TRA2's time is dominated by the inter-node phase",
     "dominated by inter-node", "tra", "inter-node phase longer at every (P, S), r1 = 8, r2 = N", tra_fig9_inter),

    ("sp-share-yahoo", "Sparbit", "Fig. 5(a), Table I", "Yahoo, sequential mapping: Sparbit is the fastest of the "
     "five algorithms (average time) in 46.43% of the cells (P up to 256, 1 B-1 MiB)", "46.43% (624/1344)", "yahoo",
     "within 30% of the share (P up to 128 simulated: the paper's counts above 128 were oversubscribed)",
     sparbit_share("block", 46.43, 0.3)),
    ("sp-share-yahoo-cyc", "Sparbit", "Fig. 5(b), Table I", "Yahoo, cyclic mapping: Sparbit fastest in 19.12% of "
     "the cells", "19.12% (257/1344)", "yahoo", "within 30% (cyclic cells: every count whose data has ranks dealt over the nodes; older data only multiples of the 16 nodes)",
     sparbit_share("cyclic", 19.12, 0.3)),
    ("sp-order-yahoo", "Sparbit", "Fig. 5, V", "Yahoo: the sequential mapping gives Sparbit more wins than the "
     "cyclic one", "46.43% > 19.12%", "yahoo", "sequential share above cyclic", sparbit_order),
    ("sp-gain-yahoo", "Sparbit", "Table II", "Yahoo, sequential: Sparbit's mean (median) improvement over the second "
     "best, in the cells it wins", "34.70% (26.16%), highest 84.16%", "yahoo",
     "mean and median within 10 points, highest within 20", sparbit_gain("block", 34.70, 26.16, 84.16, 10.0)),
    ("sp-strip-log-yahoo", "Sparbit", "Fig. 5(a), V", "Yahoo, sequential: in the cells Bruck and recursive "
     "doubling win, with them taken out, Sparbit is the fastest of the rest in 95.48%", "95.48%", "yahoo",
     "within 10% of the share", sparbit_strip(("bruck", "recursive_doubling"), 95.48, 0.1)),
    ("sp-strip-linear-yahoo", "Sparbit", "Fig. 5(a), V", "Yahoo, sequential: in the cells ring and neighbor "
     "exchange win, with them taken out, Sparbit is the fastest of the rest in all", "100%", "yahoo",
     "within 10% of the share", sparbit_strip(("ring", "neighbor_exchange"), 100.0, 0.1)),
    ("sp-share-cervino", "Sparbit", "Fig. 5(c), Table I", "Cervino, sequential mapping: Sparbit fastest in 39.64% "
     "of the cells (P up to 320)", "39.64% (666/1680)", "cervino",
     "within 30% of the share (P up to 160 simulated: above it the paper ran 2 processes on some cores)",
     sparbit_share("block", 39.64, 0.3)),
    ("sp-share-cervino-cyc", "Sparbit", "Fig. 5(d), Table I", "Cervino, cyclic mapping: Sparbit fastest in 30.83% "
     "of the cells", "30.83% (518/1680)", "cervino", "within 30% (cyclic cells: every count whose data has ranks dealt over the nodes; older data only multiples of the 5 nodes)",
     sparbit_share("cyclic", 30.83, 0.3)),
    ("sp-order-cervino", "Sparbit", "Fig. 5, V", "Cervino: the sequential mapping gives Sparbit more wins than the "
     "cyclic one", "39.64% > 30.83%", "cervino", "sequential share above cyclic", sparbit_order),
    ("sp-gain-cervino", "Sparbit", "Table II", "Cervino, sequential: Sparbit's mean (median) improvement over the "
     "second best, in the cells it wins", "30.23% (29.00%), highest 77.78%", "cervino",
     "mean and median within 10 points, highest within 20", sparbit_gain("block", 30.23, 29.00, 77.78, 10.0)),
]

# Claims a simulation can address that are not simulated at the papers'
# scale yet, and what it takes (docs/claims.md).
NOT_YET = []

# Where the full model has no verdict because the point that decides it
# takes hours on this machine (one core per simulation): what was measured,
# in a few words; docs/claims.md ("What is not simulated yet") has the runs.
# The cell says NO DATA and this; --check-doc --complete fails on a row with
# neither a full-model verdict nor a reason, and on a reason for a row that
# has its verdict (the reason is stale: take it out).
SCATTER_DEST = ("the system alltoall from 256 B is MPICH's scatter-destination (each rank's messages to 4 "
                "partners in flight at once), whose node-model CPU time grows about 7x per doubling of the nodes "
                "(1 KiB on 2, 4, 8 nodes x 112: 5, 47, 325 s; 4 KiB on 4 nodes: 123 s): at 32 nodes about 4.5 h "
                "at 1 KiB and 12 h at 4 KiB, extrapolated")
NO_FULL_MODEL = {
    "loc-fig10-mid": SCATTER_DEST,
    "loc-fig10-largest": SCATTER_DEST,
    "loc-fig17": SCATTER_DEST,
    "loc-fig16": "Figure 16 at 32 x 112 is one launch of five configurations (locality-aware with 2, 4, 8, 16 per "
                 "group and node-aware, 4096 B); on the node model its first configuration alone took 60 min "
                 "(2026-11-27, cut short), the launch about 4-5 h",
}

# The same for the sensitivity mark of a full-model verdict: why its
# halved and doubled twins did not run.
NO_TWINS = {
    "loc-fig18": "Figure 18's points on tuolumne-32x96-shm took 66 min together (the system 49 min): about 2 h "
                 "more for the two twins",
}

NOT_SIMULATED = [
    ("multiradix", "allreduce-shared-memory-multiradix",
     "every claim: the algorithms read peers' buffers in shared memory (XPMEM) and their gains come from cache "
     "use and memory traffic; SMPI shares no memory between simulated ranks, and even the node model (NAME-shm) has "
     "memory links but no caches, so it cannot rank them; they are measured on real cores (docs/allreduce.md)"),
    ("ppg", "allreduce-multi-process-per-gpu",
     "every claim: several processes share one GPU's buffers and the cost is GPU copies, kernels and time-slicing; "
     "SMPI has no GPUs and refuses --procs-per-gpu above 1. One real H100 ran mcb once (issue 40: wrong at PPG 4 "
     "without MPS, since fixed); ci/gpu-check.sh measures the figures on a lent GPU (docs/gpu.md), not run yet"),
]
