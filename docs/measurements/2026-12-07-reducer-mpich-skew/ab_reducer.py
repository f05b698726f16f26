import csv, subprocess, sys, statistics, tempfile, os
R = int(sys.argv[1]) if len(sys.argv) > 1 else 10
bins = {"before": "/tmp/wt-before/build/src/mcb_allreduce", "after": "/work/main/build/src/mcb_allreduce"}
cells = [(4096, "plain"), (8192, "plain"), (8192, "registered"), (16384, "registered"), (65536, "registered")]
res = {}
tmp = tempfile.mkdtemp()
for r in range(R):
    for size, buf in cells:
        order = ["before", "after"] if r % 2 else ["after", "before"]
        for v in order:
            B = ["--copy", "copy-in"] if buf == "plain" else ["--buffers", "registered", "--copy", "auto"]
            path = os.path.join(tmp, "r.csv")
            if os.path.exists(path): os.remove(path)
            subprocess.run(["mpirun.openmpi", "--allow-run-as-root", "--bind-to", "core", "-n", "2", bins[v], "--algorithm",
                            "shm_recursive_exchange", "-T", "float", "-m", f"{size}:{size}", "-i", "3000", "-x", "300",
                            "--interface", "persistent,blocking", "--csv", path] + B, check=True, capture_output=True)
            rows = list(csv.DictReader(open(path)))
            for row in [x for x in rows if x["phase"] == "total"]:
                itf = "persistent" if "interface=persistent" in row["params"] else "blocking"
                res.setdefault((size, buf, itf, v), []).append(float(row["median_us"]))
print("size buf interface: before_med after_med  after/before (median of per-launch ratios) [min-max]")
for size, buf in cells:
    for itf in ["persistent", "blocking"]:
        b = res[(size, buf, itf, "before")]; a = res[(size, buf, itf, "after")]
        ratios = [x / y for x, y in zip(a, b)]
        print(f"{size:6d} {buf:10s} {itf:10s} {statistics.median(b):.3f} {statistics.median(a):.3f}  {statistics.median(ratios):.3f} [{min(ratios):.2f}-{max(ratios):.2f}]")
    for v in ["before", "after"]:
        p = res[(size, buf, "persistent", v)]; bl = res[(size, buf, "blocking", v)]
        rr = [x / y for x, y in zip(bl, p)]
        print(f"{'':6s} {'':10s} blocking/persistent {v}: {statistics.median(rr):.3f} [{min(rr):.2f}-{max(rr):.2f}]")
