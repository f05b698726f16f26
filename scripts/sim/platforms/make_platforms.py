#!/usr/bin/env python3
"""Writes the SimGrid platforms of the papers' machines (scripts/sim/platforms/
PAPER-MACHINE.xml) from one table: every parameter with its value and where
it comes from, copied into the XML as a comment.

  scripts/sim/platforms/make_platforms.py            # rewrite every file of MACHINES, and NAME-nocost of each
  scripts/sim/platforms/make_platforms.py --check    # exit 1 if a file differs from the table (a test)
  scripts/sim/platforms/make_platforms.py --print theta-256x64 --set o=1.2e-6   # one, changed, to stdout

The model, per machine (SimGrid 3.32 SMPI, with scripts/sim/simulate.py's speed
settings, so every send rendezvous):
  - nodes of `cores` cores; a node's NIC is one full-duplex link of `nic_bw`
    bytes/s per direction and `nic_lat` seconds each way (a message between
    nodes crosses the sender's and the receiver's: 2 x nic_lat, plus
    `net_lat` for the switches); the network beyond the NICs is non-blocking
    (`bisection` = None) or one shared link of `bisection` bytes/s;
  - inside a node, a message crosses the node's loopback link: `mem_bw`
    bytes/s shared by every message of the node at once (the copy bandwidth
    of the node's memory for MPI's shared-memory transfers), `mem_lat` seconds;
  - per message, the NIC or the loopback is busy `h` bytes longer (SMPI's
    bw-factor s/(s+h) on sizes 2^(k/4), so within 19% of s+h between two
    of them): N concurrent messages through a NIC take at least N x h /
    nic_bw, a message rate of nic_bw / h per node;
  - per send (MPI_Isend, MPI_Sendrecv and the algorithms SMPI builds on them),
    the sending rank is busy `o` seconds before the message leaves (SMPI's
    smpi/ois); SMPI 3.32 charges nothing to blocking MPI_Send and to
    receives once sends rendezvous, so `o` stands for a send's and a
    receive's software overhead together;
  - SMPI's own latency and bandwidth correction factors are off (1).
In NAME and NAME-nocost a node is one host with `cores` cores and its
loopback is a <cluster> loopback, which SimGrid always makes FATPIPE: the
messages inside a node do not share `mem_bw`, each gets all of it.

NAME-shm, the model of issue 30, adds the node's memory and its cores:
  - every core is a host of its own (one rank per host), named
    nodeI-cJ, with the host property mcb/node = I, from which mcb finds its
    nodes; a node is a <cluster> of its cores inside the network, a
    Floyd-routed zone where each node's NIC link joins one switch;
  - each core's link (`core_bw`, SHARED by its sends and receives, mem_lat/2)
    is the core copying: a message inside a node crosses the sender's core,
    the node's memory and the receiver's core (both copy, as the two-copy
    shared-memory transports of MPICH and Open MPI do), so one core
    receiving many messages takes them one core_bw at a time while many
    cores receiving one each share `mem_bw`;
  - the node's memory is the cluster's backbone, one SHARED link of `mem_bw`:
    every copy of the node at once shares it; where the machine has
    `sockets` > 1, each socket is a cluster with mem_bw / sockets, joined to
    socket 0 (and the NIC behind it) by a link of `xsocket_bw` per direction
    and `xsocket_lat`: a message between sockets crosses both memories and
    that link; where it has a NIC per socket (`nics` = `sockets`: Tuolumne's
    MI300A), every socket reaches the switch through its own NIC link
    (nic_bw / nics) and each pair of sockets has its own link;
  - a message between nodes crosses the sender's core and memory, the two
    NIC links and the receiver's memory and core (the NIC links' latency is
    lowered by mem_lat/2 each, so that the one-way latency between nodes is
    the NAME platform's);
  - local work (mcb/local_work.hpp): the hosts carry mcb/copy-bw
    (`copy_bw`), mcb/reduce-bw (`reduce_bw`) and mcb/call-overhead
    (`call`), at which mcb charges its copies, packs and reductions;
  - SimGrid's time precision is `precision` (0.1 us, the <config> prop
    surf/precision, which simulate.py passes on): events that close
    together are taken at once, so the max-min sharing of a node's memory
    is solved once per 0.1 us, not at every message's start and end; and
    MPI_Wtime costs nothing (smpi/wtime 0: SMPI's 10 ns per call would be
    lengthened to the precision);
  - the max-min solver's precision is `maxmin` (1e-4, the <config> prop
    maxmin/precision; SimGrid's is 1e-5), at which SimGrid no longer aborts
    on thousands of a node's small messages in flight ("Cannot saturate
    more a constraint that has no active element") and simulated times do
    not move.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Sources, cited by key in the table below.
SRC = {
    "paper-loc": "alltoall-manycore-locality (Kinkead et al., SC-W 2025), Sections 1 and 4, Table 1",
    "paper-tra": "alltoall-tunable-radix-tra, Section V (Theta: 4,392 KNL nodes of 64 cores, Aries dragonfly)",
    "dell-opa": "Dell EMC, 'HPC Omni-Path Fabric: Supported Architecture and Application Study' (2016): 100 Gb/s "
                "links, about 160 million messages/s per HFI, 100-110 ns per 48-port edge switch",
    "spr-mem": "Sapphire Rapids: 8 DDR5-4800 channels per socket, 307 GB/s peak per socket (Dell 'Memory "
               "Bandwidth for Next-Gen PowerEdge Servers'; frankdenneman.nl 2023-02-28)",
    "alcf-theta": "ALCF, Theta machine overview and Aries network pages (docs.alcf.anl.gov/theta/hardware-overview)",
    "cray-xc": "Alverson et al., 'Cray XC Series Network' (Cray white paper WP-Aries01-1112): Aries NIC on PCIe "
               "Gen3 x16, about 10 GB/s per direction",
    "knl-mem": "KNL 7230: MCDRAM about 480 GB/s, DDR4 about 90-120 GB/s (lowain.org, 'Intel Xeon Phi Knights "
               "Landing - MCDRAM')",
    "paper-sparbit": "allgather-sparbit, Section IV: Yahoo, 16 nodes of 2 x 4-core Xeon L5420, "
                     "Gigabit Ethernet to two leaf switches (5 + 11 nodes) joined by 10 Gb/s uplinks; Cervino, 5 nodes "
                     "of 2 x 16-core Xeon E5-2683 v4 (2 threads per core), 40 Gb/s links to one switch; Open MPI "
                     "4.0.3",
    "eth": "Ethernet framing: 8 B preamble, 12 B gap, 18 B header and FCS, 40 B of IP and TCP headers per frame "
           "(IEEE 802.3; RFC 791, 793)",
    "core-bw": "one core's sustained bandwidth is bounded by its outstanding cache-line misses (line fill buffers), "
               "not by the memory: about 10-25 GB/s of reads on 2015-2023 Xeon and EPYC cores against 100-300 GB/s "
               "per socket (J. McCalpin, 'Memory bandwidth and machine balance', and his single-thread STREAM "
               "notes; a memcpy of n bytes moves 2n)",
    "call-here": "measured on the machine of the development (AMD EPYC, 2 cores, Debian 12): mcb's host copy "
                 "(mcb::host_memory().copy through its virtual call) of 4 B blocks to scattered destinations, 2^20 "
                 "calls, 4.0-4.2 ns per call; scaled by clock and core for the paper's machine (estimate)",
    "alcf-polaris": "ALCF, Polaris machine overview (docs.alcf.anl.gov/polaris/hardware-overview/machine-overview): "
                    "560 nodes of one 2.8 GHz AMD EPYC 7543P (32 Zen 3 cores), 8 DDR4 channels rated at 204.8 GiB/s, a "
                    "pair of Slingshot network adapters (mlx5_0, mlx5_1 in its affinity table: Slingshot 10, 100 Gb/s "
                    "each, at the time of the TRA paper's Cray MPICH 8.1.16; Slingshot 11 since)",
    "llnl-elcap": "LLNL, El Capitan systems overview (hpc.llnl.gov, 'El Capitan Systems'; Tuolumne, RZAdams and El "
                  "Capitan share its node): 4 AMD MI300A per node, each its own socket and NUMA domain with 128 GB of "
                  "HBM3, 24 Zen 4 cores per MI300A; each MI300A fully connected to its peers by two Infinity Fabric "
                  "links of 256 GB/s; HPE Cray EX255a blades with 4 Slingshot 11 ports (200 Gb/s) per node",
    "est": "estimate (no published measurement found), to be checked by scripts/sim/calibrate.py",
    "speed": "measured on the machine of the development (docs/simulation.md, 'Speed of the node model'): node_aware "
             "at 32 x 112 on dane-32x112-shm, simulated times against SimGrid's default 1e-9 s",
    "solver": "measured on the machine of the development (docs/simulation.md, 'Where it still crawls'): seven "
              "algorithms on 2 x 16 and 4 x 112 of dane-32x112-shm, simulated times at maxmin/precision 1e-4 against "
              "1e-5",
    "cal": "calibrated against the paper's stated times (scripts/sim/calibrate.py prints them side by side)",
}

MACHINES = {
    "dane-32x112": {
        "title": "Dane (LLNL) and Amber (SNL): Intel Sapphire Rapids, 2 x 56 cores per node, Cornelis Omni-Path "
                 "(the locality paper's machines); 32 nodes",
        "nodes": 32, "cores": 112,
        "nic_bw": (12.5e9, "dell-opa", "100 Gb/s per direction, one HFI per node"),
        "nic_lat": (0.45e-6, "est", "about 1 us one-way MPI latency over PSM2/OPX: 2 x 0.45 us + switches"),
        "net_lat": (0.1e-6, "dell-opa", "one 48-port edge switch, 100-110 ns"),
        "bisection": (None, "est", "non-blocking fat tree assumed (the paper gives no topology)"),
        "mem_bw": (150e9, "spr-mem", "614 GB/s peak per node; shared-memory MPI copies twice and reaches "
                                     "about a quarter of it with all cores busy (estimate)"),
        "mem_lat": (0.3e-6, "est", "0.2-0.4 us intra-socket, 0.5-0.8 us across sockets (shared memory)"),
        "h": (78.0, "dell-opa", "12.5 GB/s / 160 M messages/s = 78 B of NIC time per message"),
        "o": (0.3e-6, "est", "per-message software overhead of PSM2/OPX (onload NIC), send and receive"),
        "core_bw": (12e9, "core-bw", "one Sapphire Rapids core copying: about 24 GB/s of reads and writes, 12 GB/s "
                                     "copied (estimate)"),
        "copy_bw": (12e9, "core-bw", "a local copy or pack by one core, as core_bw (estimate)"),
        "reduce_bw": (20e9, "core-bw", "operand bytes a core reads per second in a vectorised k-way sum (estimate)"),
        "call": (8e-9, "call-here", "per copy or reduction call on a 2.0 GHz Sapphire Rapids core, 8 ns (about 2x "
                                   "the 4 ns measured here)"),
        "sockets": (2, "spr-mem", "2 sockets of 56 cores, each with its 8 DDR5 channels: mem_bw split between them"),
        "xsocket_bw": (80e9, "est", "4 UPI 2.0 links at 16 GT/s between the sockets, about 25 GB/s each per direction "
                                    "in practice: 80 GB/s per direction (estimate)"),
        "xsocket_lat": (0.3e-6, "est", "0.5-0.8 us across sockets against 0.2-0.4 us inside one (mem_lat's note)"),
    },
    "theta-256x64": {
        "title": "Theta (ALCF): Cray XC40, Intel KNL 7230, 64 cores per node, Aries dragonfly (the TRA paper's "
                 "machine); 256 nodes (P up to 16,384)",
        "nodes": 256, "cores": 64,
        "nic_bw": (3.1e9, "cal", "the NIC's bandwidth as alltoall traffic sees it through the dragonfly: "
                                 "TRA radix 2 at P = 2048, S = 128 B takes 16.24 ms here, 16.17 ms on Theta (the "
                                 "Aries NIC itself: about 10 GB/s per direction [cray-xc])"),
        "nic_lat": (1.0e-6, "est", "2.5-4 us one-way from one KNL core (slow single thread): 2 x 1 us + network"),
        "net_lat": (0.5e-6, "alcf-theta", "up to 3-5 router hops of about 0.1 us in the dragonfly"),
        "bisection": (None, "est", "Aries adaptive routing modelled as non-blocking between NICs"),
        "mem_bw": (100e9, "knl-mem", "DDR4 90-120 GB/s (cache mode in front: MCDRAM 480 GB/s)"),
        "mem_lat": (1.0e-6, "est", "KNL shared memory, 1-2 us"),
        "h": (80.0, "est", "Aries message rate about 100 M/s per NIC: 8 GB/s / 100 M = 80 B"),
        "o": (1.0e-6, "est", "KNL per-message software overhead, about 1 us per message per core"),
        "core_bw": (4e9, "core-bw", "one KNL core (1.3 GHz, few outstanding misses) copying from MCDRAM-cached "
                                    "DDR4: about 8 GB/s of reads and writes, 4 GB/s copied (estimate)"),
        "copy_bw": (4e9, "core-bw", "a local copy or pack by one KNL core, as core_bw (estimate)"),
        "reduce_bw": (6e9, "core-bw", "operand bytes a KNL core reads per second in an AVX-512 k-way sum (estimate)"),
        "call": (25e-9, "call-here", "per copy or reduction call on a 1.3 GHz KNL core (in-order-like, 2 wide), 25 "
                                    "ns (about 6x the 4 ns measured here)"),
    },
    "tuolumne-32x96": {
        "title": "Tuolumne (LLNL): 4 AMD MI300A APUs of 24 Zen 4 cores per node (96 cores), HPE Slingshot 11 (the "
                 "locality paper's third machine, Figure 18); 32 nodes",
        "nodes": 32, "cores": 96,
        "nic_bw": (100e9, "llnl-elcap", "4 Slingshot 11 NICs of 25 GB/s per direction, one per MI300A: 100 GB/s per "
                                       "node (the -shm variant gives each socket its own)"),
        "nic_lat": (0.7e-6, "est", "about 1.8-2 us one-way MPI latency over Slingshot 11: 2 x 0.7 us + switches"),
        "net_lat": (0.4e-6, "est", "dragonfly, up to 3 switch hops of 100-350 ns"),
        "bisection": (None, "est", "non-blocking between NICs (the paper gives no topology)"),
        "mem_bw": (240e9, "est", "the CPU cores of an MI300A reach its HBM3 through the Infinity Fabric, not at the "
                                 "GPU's 5.3 TB/s: CPU-only STREAM about 0.2-0.4 TB/s per APU (docs/research/"
                                 "machines.md), about 1 TB/s per node; two-copy shared-memory MPI reaches about a "
                                 "quarter of it, as on Dane: 240 GB/s per node (estimate)"),
        "mem_lat": (0.3e-6, "est", "shared memory inside one MI300A, 0.2-0.4 us"),
        "h": (80.0, "est", "Slingshot 11 (Cassini) message rate about 300 M/s per 25 GB/s NIC: 80 B per message"),
        "o": (0.3e-6, "est", "per-message software overhead of Cray MPICH over libfabric (cxi) on a 3.7 GHz Zen 4 "
                             "core"),
        "core_bw": (16e9, "core-bw", "one Zen 4 core copying: about 32 GB/s of reads and writes, 16 GB/s copied "
                                     "(estimate)"),
        "copy_bw": (16e9, "core-bw", "a local copy or pack by one core, as core_bw (estimate)"),
        "reduce_bw": (25e9, "core-bw", "operand bytes a Zen 4 core reads per second in an AVX-512 k-way sum "
                                       "(estimate)"),
        "call": (5e-9, "call-here", "per copy or reduction call on a 3.7 GHz Zen 4 core, 5 ns (about the 4 ns "
                                   "measured here)"),
        "sockets": (4, "llnl-elcap", "4 MI300A sockets of 24 cores, each with its own HBM3: mem_bw split between "
                                     "them"),
        "nics": (4, "llnl-elcap", "one NIC per socket: a socket's messages to other nodes leave through its own NIC"),
        "xsocket_bw": (128e9, "llnl-elcap", "every pair of MI300A joined by 2 Infinity Fabric links of 256 GB/s: "
                                            "128 GB/s per direction between two sockets"),
        "xsocket_lat": (0.3e-6, "est", "about 0.3 us more for shared memory on another MI300A"),
    },
    "polaris-64x32": {
        "title": "Polaris (ALCF): one AMD EPYC 7543P of 32 Zen 3 cores per node, HPE Slingshot (the TRA paper's "
                 "second machine, Figures 11-12); 64 nodes (P up to 2048)",
        "nodes": 64, "cores": 32,
        "nic_bw": (25e9, "alcf-polaris", "2 Slingshot 10 NICs of 100 Gb/s: 25 GB/s per direction per node"),
        "nic_lat": (0.8e-6, "est", "about 2 us one-way MPI latency over Slingshot 10 (ConnectX-5, verbs): 2 x 0.8 "
                                   "us + switches"),
        "net_lat": (0.4e-6, "est", "dragonfly, up to 3 switch hops of 100-350 ns"),
        "bisection": (None, "est", "non-blocking between NICs (the paper gives no topology)"),
        "mem_bw": (50e9, "alcf-polaris", "204.8 GiB/s peak (8 DDR4-3200 channels); shared-memory MPI copies twice "
                                         "and reaches about a quarter of it with all cores busy (estimate)"),
        "mem_lat": (0.3e-6, "est", "shared memory on one Milan socket, 0.2-0.4 us"),
        "h": (80.0, "est", "ConnectX-5 message rate about 150 M/s per 12.5 GB/s NIC: 80 B per message"),
        "o": (0.4e-6, "est", "per-message software overhead of Cray MPICH over verbs on a 2.8 GHz Zen 3 core"),
        "core_bw": (10e9, "core-bw", "one Zen 3 core copying: about 20 GB/s of reads and writes, 10 GB/s copied "
                                     "(estimate)"),
        "copy_bw": (10e9, "core-bw", "a local copy or pack by one core, as core_bw (estimate)"),
        "reduce_bw": (16e9, "core-bw", "operand bytes a Zen 3 core reads per second in an AVX2 k-way sum (estimate)"),
        "call": (6e-9, "call-here", "per copy or reduction call on a 2.8 GHz Zen 3 core, 6 ns (about 1.5x the 4 ns "
                                   "measured here)"),
    },
    "yahoo-16x8": {
        "title": "Yahoo (University of Neuchatel): 16 nodes of 2 x 4-core Xeon L5420, Gigabit Ethernet (the Sparbit "
                 "paper's first cluster; its 8 cores per node, so P up to 128: the paper's counts above 128 were "
                 "oversubscribed, which SMPI does not model)",
        "nodes": 16, "cores": 8,
        "nic_bw": (125e6, "paper-sparbit", "1 Gb/s per direction"),
        "nic_lat": (12e-6, "est", "25-50 us one-way over Open MPI's TCP transport on GbE: 2 x 12 us + switches"),
        "net_lat": (4e-6, "est", "one or three store-and-forward GbE switches"),
        "bisection": (None, "paper-sparbit", "not limiting: the leaves' 10 Gb/s uplinks carry at most 5 and 11 "
                                            "hosts of 1 Gb/s (11:10 on the larger leaf, left out of the model)"),
        "mem_bw": (4e9, "est", "2008 front-side bus: peak about 21 GB/s per node, STREAM 6-8 GB/s; shared-memory "
                               "MPI copies twice"),
        "mem_lat": (0.7e-6, "est", "Open MPI shared memory on a 2008 Xeon, 0.5-1 us"),
        "h": (80.0, "eth", "78 B of Ethernet, IP and TCP framing per message (one frame for a small message)"),
        "o": (8e-6, "est", "per-message cost of the kernel TCP stack, 5-15 us per message"),
        "core_bw": (2e9, "core-bw", "one 2008 Harpertown core behind the front-side bus: about 4 GB/s of reads "
                                    "and writes, 2 GB/s copied (estimate)"),
        "copy_bw": (2e9, "core-bw", "a local copy or pack by one core, as core_bw (estimate)"),
        "reduce_bw": (3e9, "core-bw", "operand bytes a core reads per second in an SSE k-way sum (estimate)"),
        "call": (8e-9, "call-here", "per copy or reduction call on a 2.5 GHz Harpertown core, 8 ns (about 2x the 4 ns "
                                   "measured here)"),
    },
    "cervino-5x32": {
        "title": "Cervino (University of Neuchatel): 5 nodes of 2 x 16-core Xeon E5-2683 v4, 40 Gb/s links to one "
                 "switch (the Sparbit paper's second cluster; its 32 cores per node, so P up to 160: the paper's "
                 "counts above 160 ran 2 processes on some cores, which SMPI does not model)",
        "nodes": 5, "cores": 32,
        "nic_bw": (5e9, "paper-sparbit", "40 Gb/s per direction"),
        "nic_lat": (4e-6, "est", "the paper does not name the fabric; 40 Gb Ethernet with Open MPI's TCP transport "
                                 "assumed: about 10 us one-way (InfiniBand would be 1.5-2 us)"),
        "net_lat": (1e-6, "paper-sparbit", "one switch (flat topology); its latency estimated"),
        "bisection": (None, "paper-sparbit", "one switch, non-blocking"),
        "mem_bw": (40e9, "est", "2 x 4 channels of DDR4-2400: 154 GB/s peak per node, STREAM 110-120 GB/s; "
                                "shared-memory MPI copies twice and reaches about a quarter of peak"),
        "mem_lat": (0.4e-6, "est", "Open MPI shared memory on Broadwell, 0.3-0.5 us"),
        "h": (80.0, "eth", "78 B of Ethernet, IP and TCP framing per message, as on Yahoo"),
        "o": (3e-6, "est", "per-message cost of the kernel TCP stack on Broadwell, 3-5 us"),
        "core_bw": (6e9, "core-bw", "one Broadwell-EP core copying: about 12 GB/s of reads and writes, 6 GB/s "
                                    "copied (estimate)"),
        "copy_bw": (6e9, "core-bw", "a local copy or pack by one core, as core_bw (estimate)"),
        "reduce_bw": (10e9, "core-bw", "operand bytes a core reads per second in an AVX2 k-way sum (estimate)"),
        "call": (8e-9, "call-here", "per copy or reduction call on a 2.1 GHz Broadwell core, 8 ns (about 2x the 4 ns "
                                   "measured here)"),
        "sockets": (2, "paper-sparbit", "2 sockets of 16 cores (E5-2683 v4), 4 DDR4 channels each"),
        "xsocket_bw": (30e9, "est", "2 QPI links at 9.6 GT/s, about 19 GB/s each per direction: 30 GB/s in practice "
                                    "(estimate)"),
        "xsocket_lat": (0.3e-6, "est", "Broadwell-EP remote-socket shared memory, 0.2-0.4 us more"),
    },
}


def bw_factors(h):
    """SMPI bw-factor string: on sizes 2^(k/4), the factor s / (s + h)."""
    if h <= 0:
        return "0:1"
    sizes = sorted({max(1, round(2 ** (k / 4))) for k in range(0, 4 * 26 + 1)})
    return "0:1;" + ";".join(f"{t}:{t / (t + h):.6g}" for t in sizes)


# The parameters of the NAME-shm model only (the node's memory and cores, local work).
SHM_KEYS = ("core_bw", "copy_bw", "reduce_bw", "call", "sockets", "nics", "xsocket_bw", "xsocket_lat", "precision",
            "maxmin")

# The node model's time precision (SimGrid's surf/precision, in seconds):
# events within it of the current date are taken together, so a node's
# max-min sharing is solved once per 0.1 us instead of at every event (the
# memory link puts all of a node's messages into one component). Measured
# (source "speed"): 166 -> 59 s of CPU at 32 x 112, simulated times within
# 0.03% at 1 KiB and above and 1.4% at 4 B. simulate.py passes it to smpirun.
NODE_MODEL_PRECISION = 1e-7

# The node model's max-min precision (SimGrid's maxmin/precision; its
# default 1e-5): a usage below it counts as zero. At 1e-5 multi-leader's
# nonblocking inner at 4 B, 32 x 112, aborted in the solver (a constraint's
# usage of 1.007e-5 next to one of 3.1e6); at 1e-4 simulated times are the
# same to the nanosecond on 2 x 16 and 4 x 112 (source "solver").
NODE_MODEL_MAXMIN = 1e-4


def head(name, m, keys):
    """The XML's opening: title, every parameter in `keys` with its source, the config."""
    v = {k: val[0] for k, val in m.items() if isinstance(val, tuple)}
    lines = ["<?xml version='1.0'?>", '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             f"<!-- mcb platform {name}: {m['title']}.",
             "     Written by scripts/sim/platforms/make_platforms.py (edit the table there, not this file).",
             "     Simulated times on it are a model's, not the machine's. Parameters and their sources:"]
    for key, val in m.items():
        if isinstance(val, tuple) and key in keys:
            value, src, why = val
            lines.append(f"       {key} = {value}: {why} [{SRC[src]}]".replace("--", "-"))  # XML comments
    lines.append("-->")
    lines.append('<platform version="4.1">')
    lines.append("  <config>")
    lines.append('    <prop id="smpi/lat-factor" value="0:1"/>')
    lines.append(f'    <prop id="smpi/bw-factor" value="{bw_factors(v["h"])}"/>')
    if "precision" in v:
        # SMPI's 10 ns per MPI_Wtime (smpi/wtime) is a sleep, which SimGrid
        # lengthens to the precision: the timer would cost 0.1 us. Free here.
        lines.append(f'    <prop id="surf/precision" value="{v["precision"]:g}"/>')
        lines.append('    <prop id="smpi/wtime" value="0"/>')
    if "maxmin" in v:
        lines.append(f'    <prop id="maxmin/precision" value="{v["maxmin"]:g}"/>')
    lines.append("  </config>")
    return v, lines


def xml_shm(name, m):
    """NAME-shm: a node is a <cluster> of single-core hosts whose links are the
    cores copying and whose backbone is the node's memory (module docstring)."""
    v, lines = head(name, m, [k for k in m])
    if v["bisection"]:
        sys.exit(f"make_platforms.py: {name}: a shared bisection is not modelled in the -shm variant")
    nic_lat = v["nic_lat"] + v["net_lat"] / 2 - v["mem_lat"] / 2  # the cores' links add mem_lat/2 at each end
    if nic_lat < 0:
        sys.exit(f"make_platforms.py: {name}: mem_lat exceeds the latency between nodes")
    lines.append(f'  <zone id="{name}" routing="Floyd">')
    lines.append('    <zone id="network" routing="Full">')
    lines.append('      <router id="switch"/>')
    lines.append("    </zone>")
    sockets = int(v.get("sockets", 1))
    if m["cores"] % sockets:
        sys.exit(f"make_platforms.py: {name}: {sockets} sockets do not divide {m['cores']} cores")

    def cluster(cid, first, count, mem_bw, router, indent):
        """The cores [first, first + count) of node i sharing one memory."""
        out = [f'{indent}<cluster id="{cid}" prefix="node{i}-c" suffix="" radical="{first}-{first + count - 1}" '
               f'core="1" speed="1Gf" router_id="{router}"',
               f'{indent}         bw="{v["core_bw"]:g}Bps" lat="{v["mem_lat"] / 2:g}s" sharing_policy="SHARED" '
               f'bb_bw="{mem_bw:g}Bps" bb_lat="0s" bb_sharing_policy="SHARED">']
        for key, value in (("mcb/node", i), ("mcb/copy-bw", f'{v["copy_bw"]:g}'), ("mcb/reduce-bw",
                                                                                   f'{v["reduce_bw"]:g}'),
                           ("mcb/call-overhead", f'{v["call"]:g}'), ("smpi/ois", f'0:{v["o"]:g}:0')):
            out.append(f'{indent}  <prop id="{key}" value="{value}"/>')
        out.append(f"{indent}</cluster>")
        return out

    nics = int(v.get("nics", 1))
    if nics not in (1, sockets):
        sys.exit(f"make_platforms.py: {name}: {nics} NICs for {sockets} sockets (one, or one per socket)")
    if nics > 1:
        # One NIC per socket (Tuolumne's MI300A): every socket is a cluster of
        # the network zone with its own NIC link to the switch, and each pair
        # of sockets of a node has its own link (fully connected).
        per = m["cores"] // sockets
        for i in range(m["nodes"]):
            for k in range(sockets):
                lines += cluster(f"node{i}-s{k}", k * per, per, v["mem_bw"] / sockets, f"node{i}-s{k}-r", "    ")
        for i in range(m["nodes"]):
            for k in range(sockets):
                lines.append(f'    <link id="node{i}-nic{k}" bandwidth="{v["nic_bw"] / nics:g}Bps" '
                             f'latency="{nic_lat:g}s" sharing_policy="SPLITDUPLEX"/>')
            for k in range(sockets):
                for j in range(k + 1, sockets):
                    lines.append(f'    <link id="node{i}-x{k}-{j}" bandwidth="{v["xsocket_bw"]:g}Bps" '
                                 f'latency="{v["xsocket_lat"]:g}s" sharing_policy="SPLITDUPLEX"/>')
        for i in range(m["nodes"]):
            for k in range(sockets):
                lines.append(f'    <zoneRoute src="node{i}-s{k}" dst="network" gw_src="node{i}-s{k}-r" '
                             f'gw_dst="switch"><link_ctn id="node{i}-nic{k}" direction="UP"/></zoneRoute>')
                for j in range(k + 1, sockets):
                    lines.append(f'    <zoneRoute src="node{i}-s{k}" dst="node{i}-s{j}" gw_src="node{i}-s{k}-r" '
                                 f'gw_dst="node{i}-s{j}-r"><link_ctn id="node{i}-x{k}-{j}" direction="UP"/>'
                                 f'</zoneRoute>')
        lines.append("  </zone>")
        lines.append("</platform>")
        return "\n".join(lines) + "\n"
    for i in range(m["nodes"]):
        if sockets == 1:
            lines += cluster(f"node{i}", 0, m["cores"], v["mem_bw"], f"node{i}-gw", "    ")
            continue
        # Sockets: a cluster per socket with its share of the memory, joined
        # by the inter-socket link (UPI, QPI), which also carries the other
        # sockets' traffic to the NIC (attached to socket 0).
        per = m["cores"] // sockets
        lines.append(f'    <zone id="node{i}" routing="Floyd">')
        lines.append(f'      <zone id="node{i}-io" routing="Full"><router id="node{i}-gw"/></zone>')
        for k in range(sockets):
            lines += cluster(f"node{i}-s{k}", k * per, per, v["mem_bw"] / sockets, f"node{i}-s{k}-r", "      ")
        lines.append(f'      <link id="node{i}-s0-io" bandwidth="1e15Bps" latency="0s" sharing_policy="FATPIPE"/>')
        for k in range(1, sockets):
            lines.append(f'      <link id="node{i}-x{k}" bandwidth="{v["xsocket_bw"]:g}Bps" '
                         f'latency="{v["xsocket_lat"]:g}s" sharing_policy="SPLITDUPLEX"/>')
        lines.append(f'      <zoneRoute src="node{i}-s0" dst="node{i}-io" gw_src="node{i}-s0-r" gw_dst="node{i}-gw">'
                     f'<link_ctn id="node{i}-s0-io"/></zoneRoute>')
        for k in range(1, sockets):
            for dst, gw in ((f"node{i}-s0", f"node{i}-s0-r"), (f"node{i}-io", f"node{i}-gw")):
                lines.append(f'      <zoneRoute src="node{i}-s{k}" dst="{dst}" gw_src="node{i}-s{k}-r" gw_dst="{gw}">'
                             f'<link_ctn id="node{i}-x{k}" direction="UP"/></zoneRoute>')
        lines.append("    </zone>")
    for i in range(m["nodes"]):
        lines.append(f'    <link id="node{i}-nic" bandwidth="{v["nic_bw"]:g}Bps" latency="{nic_lat:g}s" '
                     f'sharing_policy="SPLITDUPLEX"/>')
    for i in range(m["nodes"]):
        lines.append(f'    <zoneRoute src="node{i}" dst="network" gw_src="node{i}-gw" gw_dst="switch">'
                     f'<link_ctn id="node{i}-nic" direction="UP"/></zoneRoute>')
    lines.append("  </zone>")
    lines.append("</platform>")
    return "\n".join(lines) + "\n"


def xml(name, m):
    if m.get("shm"):
        return xml_shm(name, m)
    v, lines = head(name, m, [k for k in m if k not in SHM_KEYS])
    bb = ""
    if v["bisection"]:
        bb = f' bb_bw="{v["bisection"]:g}Bps" bb_lat="{v["net_lat"]:g}s" bb_sharing_policy="SHARED"'
        link_lat = v["nic_lat"]
    else:
        link_lat = v["nic_lat"] + v["net_lat"] / 2  # the switches' latency split over the two NIC links
    lines.append(f'  <cluster id="{name}" prefix="node" suffix="" radical="0-{m["nodes"] - 1}" core="{m["cores"]}" '
                 f'speed="1Gf"')
    lines.append(f'           bw="{v["nic_bw"]:g}Bps" lat="{link_lat:g}s" sharing_policy="SPLITDUPLEX"{bb}')
    lines.append(f'           loopback_bw="{v["mem_bw"]:g}Bps" loopback_lat="{v["mem_lat"]:g}s">')
    lines.append(f'    <prop id="smpi/ois" value="0:{v["o"]:g}:0"/>')
    lines.append("  </cluster>")
    lines.append("</platform>")
    return "\n".join(lines) + "\n"


def variants():
    """Every machine, each without per-message costs (NAME-nocost: o = 0,
    h = 0), for the claims that depend on them (scripts/claims/claims.py), and each
    with the node's memory, its cores and local work (NAME-shm)."""
    out = {}
    for name, m in MACHINES.items():
        out[name] = m
        nocost = dict(m, title=m["title"] + ", WITHOUT per-message costs (o = 0, h = 0: for comparison only)")
        nocost["o"] = (0.0, m["o"][1], "off in this variant; " + m["o"][2])
        nocost["h"] = (0.0, m["h"][1], "off in this variant; " + m["h"][2])
        out[name + "-nocost"] = nocost
        out[name + "-shm"] = dict(m, shm=True, title=m["title"] + ", with the node's shared memory, cores that copy "
                                  "and local work charged (issue 30)",
                                  precision=(NODE_MODEL_PRECISION, "speed", "SimGrid's time precision (surf/precision): "
                                             "events within 0.1 us are taken together; 3x faster at 32 x 112, simulated "
                                             "times within 1.4% of 1e-9 s at 4 B and 0.03% from 1 KiB"),
                                  maxmin=(NODE_MODEL_MAXMIN, "solver", "SimGrid's max-min precision (maxmin/precision; "
                                          "its default 1e-5, at which the solver aborted on multi-leader's nonblocking "
                                          "inner at 32 x 112): simulated times the same to 1 ns on 2 x 16 and 4 x 112"))
        # The claims' sensitivity (scripts/claims/claims.py): the memory and local-work
        # costs halved (rates doubled, latency and per-call overhead halved) or doubled.
        for tag, factor in (("half", 0.5), ("double", 2.0)):
            v = dict(out[name + "-shm"], title=out[name + "-shm"]["title"] + f"; memory and local-work costs x{factor:g} "
                     "(sensitivity only)")
            for key in ("core_bw", "copy_bw", "reduce_bw", "mem_bw") + (("xsocket_bw",) if "xsocket_bw" in m else ()):
                v[key] = (m[key][0] / factor, m[key][1], f"x{1 / factor:g} in this variant; " + m[key][2])
            for key in ("mem_lat", "call") + (("xsocket_lat",) if "xsocket_lat" in m else ()):
                v[key] = (m[key][0] * factor, m[key][1], f"x{factor:g} in this variant; " + m[key][2])
            out[f"{name}-shm-{tag}"] = v
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--print", metavar="NAME", help="write NAME's platform to stdout instead of the files")
    p.add_argument("--check", action="store_true", help="exit 1 if a platform file differs from the table")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="with --print: override a parameter (e.g. o=1.2e-6, h=100, nic_bw=6e9)")
    args = p.parse_args()
    if args.print:
        if args.print not in variants():
            sys.exit(f"make_platforms.py: no machine '{args.print}' (have: {', '.join(variants())})")
        m = dict(variants()[args.print])
        for kv in args.set:
            key, _, value = kv.partition("=")
            if key not in m or not isinstance(m[key], tuple):
                sys.exit(f"make_platforms.py: --set {kv}: no parameter '{key}'")
            try:
                m[key] = (float(value), "cal", f"set to {value} (make_platforms.py option set)")
            except ValueError:
                sys.exit(f"make_platforms.py: --set {kv}: not a number")
        sys.stdout.write(xml(args.print, m))
        return 0
    if args.set:
        sys.exit("make_platforms.py: --set goes with --print")
    stale = 0
    for name, m in variants().items():
        path = os.path.join(HERE, name + ".xml")
        if args.check:
            current = open(path).read() if os.path.isfile(path) else ""
            if current != xml(name, m):
                print(f"make_platforms.py: scripts/sim/platforms/{name}.xml differs from the table: run make_platforms.py")
                stale += 1
            continue
        with open(path, "w") as f:
            f.write(xml(name, m))
        print(f"wrote scripts/sim/platforms/{name}.xml")
    if args.check and not stale:
        print(f"make_platforms.py: {len(variants())} platform files match the table")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
