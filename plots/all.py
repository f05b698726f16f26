#!/usr/bin/env python3
"""Makes every paper figure that a results directory has data for.

    /usr/bin/python3 plots/all.py RESULTS_DIR [-o OUTDIR] [--only NAME,...]

Runs make() of every figure script in plots/ (those defining FIGURES) on
RESULTS_DIR (the batch scripts' MCB_RESULTS, or plots/sample), writes PNG and
PDF into OUTDIR (default RESULTS_DIR/figures), and prints one line per
figure made (the scripts' summary lines) and one per figure skipped, with
the reason (which results file is missing, and which script writes it).
Exit status: 0 when every figure script ran (made or skipped for want of
data), 1 when one failed with an error, 3 when --strict and one was skipped.
scripts/figures.md lists the figures, scripts and plots.
"""
import argparse
import importlib
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mcbplot  # noqa: E402


def figure_modules():
    for name in sorted(os.listdir(HERE)):
        if name.endswith(".py") and name not in ("all.py", "mcbplot.py"):
            module = importlib.import_module(name[:-3])
            if hasattr(module, "FIGURES") and hasattr(module, "make"):
                yield name, module


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("directory")
    p.add_argument("-o", "--outdir")
    p.add_argument("--only", help="comma-separated figure scripts (e.g. locality_fig07,tra_fig04)")
    p.add_argument("--strict", action="store_true", help="exit 3 when a figure was skipped")
    args = p.parse_args()
    if not os.path.isdir(args.directory):
        sys.exit(f"all.py: {args.directory}: no such directory")
    outdir = args.outdir or os.path.join(args.directory, "figures")
    only = set(args.only.split(",")) if args.only else None
    made = skipped = failed = 0
    for name, module in figure_modules():
        if only and name[:-3] not in only:
            continue
        try:
            module.make(args.directory, outdir)
            made += len(module.FIGURES)
        except mcbplot.Skip as e:
            skipped += 1
            print(f"skipped {name[:-3]} ({', '.join(module.FIGURES)}): {e}")
        except Exception:  # a broken script must not hide the others
            failed += 1
            print(f"FAILED {name[:-3]}:\n{traceback.format_exc()}")
    print(f"all.py: {made} figures made, {skipped} scripts skipped, {failed} failed, into {outdir}")
    return 1 if failed else 3 if (skipped and args.strict) else 0


if __name__ == "__main__":
    sys.exit(main())
