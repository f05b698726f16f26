"""scripts/claims/claims.py's code: the papers' claims against mcb's simulated
numbers (docs/claims.md). Standard library only; scripts/claims/claims.py is the
command (it runs main() of cli.py).

One job per module, each importing only the ones above it:

  data.py      the paper-scale CSVs read (totals with their phases), a parameter, one time, the thin mark
  tra.py       the TRA paper's claims: radix sweeps, stated points, TRA2's radices, Polaris
  locality.py  the locality paper's claims: Figures 7-18 on Dane, Amber and Tuolumne
  sparbit.py   the Sparbit paper's claims: shares of the cells, orders, gains, stripped maps
  table.py     the table: every claim with its paper's value, tolerance and evaluating function; COSTS
  doc.py       the table as Markdown; docs/claims.md's table and quoted numbers against it
  cli.py       the command line and main(): every claim on every model, sensitivity, summary
"""
