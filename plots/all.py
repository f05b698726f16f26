#!/usr/bin/env python3
"""Makes every paper figure that a results directory has data for.

    /usr/bin/python3 plots/all.py RESULTS_DIR [-o OUTDIR] [--only NAME,...]

Runs every figure (each row of plots/figure.py's TABLE, and each figure
script in plots/: those defining FIGURES and make()) on RESULTS_DIR (the
batch scripts' MCB_RESULTS, or plots/sample), writes PNG and PDF into
OUTDIR (default RESULTS_DIR/figures), and prints one line per figure made
(the summary lines) and one per figure skipped, with the reason (which
results file is missing, and which script writes it).
Exit status: 0 when every figure ran (made or skipped for want of data), 1
when one failed with an error, 3 when --strict and one was skipped.
`plots/figure.py --list` names the figures; scripts/batch/figures.md lists them
with their scripts and plots.
"""
import argparse
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mcbplot  # noqa: E402
import figure  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("directory")
    p.add_argument("-o", "--outdir")
    p.add_argument("--only", help="comma-separated figures (e.g. locality_fig07,tra_fig04; plots/figure.py --list)")
    p.add_argument("--strict", action="store_true", help="exit 3 when a figure was skipped")
    args = p.parse_args()
    if not os.path.isdir(args.directory):
        sys.exit(f"all.py: {args.directory}: no such directory")
    outdir = args.outdir or os.path.join(args.directory, "figures")
    only = set(args.only.split(",")) if args.only else None
    made = skipped = failed = 0
    for unit in figure.figures():
        if only and unit.name not in only:
            continue
        try:
            unit.make(args.directory, outdir)
            made += len(unit.figures)
        except mcbplot.Skip as e:
            skipped += 1
            print(f"skipped {unit.name} ({', '.join(unit.figures)}): {e}")
        except Exception:  # a broken figure must not hide the others
            failed += 1
            print(f"FAILED {unit.name}:\n{traceback.format_exc()}")
    print(f"all.py: {made} figures made, {skipped} scripts skipped, {failed} failed, into {outdir}")
    return 1 if failed else 3 if (skipped and args.strict) else 0


if __name__ == "__main__":
    sys.exit(main())
