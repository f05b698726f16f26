#!/usr/bin/env python3
"""Every claim of the five papers that a simulation can address, against
what mcb shows at the same scale: one row per claim with the paper's number,
mcb's simulated number with per-message costs, without them, and on the
full model (per-message costs, the node's shared memory, cores that copy and
local work: NAME-shm), each HOLDS or DIFFERS under the tolerance stated per
claim, and a sensitivity mark: whether the full model's verdict changes with
its memory and local-work costs halved or doubled (NAME-shm-half,
NAME-shm-double).

  scripts/claims/claims.py                          # reads data/paper-scale/ (scripts/sim/paper_scale.py run)
  scripts/claims/claims.py --data DIR --markdown    # the table as Markdown (docs/claims.md carries it)
  scripts/claims/claims.py --write-doc docs/claims.md   # put the data's table under the page's "## The table"
  scripts/claims/claims.py --check-doc docs/claims.md   # the page's table and quoted numbers match the data
  scripts/claims/claims.py --check-doc docs/claims.md --complete   # and every row has its full-model verdict and mark, or why not

A number that the prose of docs/claims.md quotes from the table carries the
row and the column it comes from in an HTML comment right after it:
`12.4%<!--sp-share-yahoo shm-->` (columns: costs, nocost, shm; a verdict
word, HOLDS or DIFFERS, is checked against that column's verdict).
--check-doc fails, listing each, where the page's table is not the one the
data gives or a quoted number is not in its cell; with --complete also
where a simulable row has no full-model verdict (or its verdict no
sensitivity mark) and mcbclaims/table.py gives no measured reason why not
(NO_FULL_MODEL, NO_TWINS: the cell then says NO DATA and the reason), or
gives one for a row that has its data.

Data: DIR/PART-PLATFORM/*.csv[.gz], written by scripts/sim/paper_scale.py
(PART: tra, ...; PLATFORM: the paper's machine NAME, NAME-nocost without
per-message costs, NAME-shm the full model and its -half and -double
twins). A claim whose data is not there says NO DATA and the command that
makes it. The files of a point still running (or cut short) are left out:
paper_scale.py names them on the first line of the point's log,
PART-PLATFORM/.NAME.log, which it removes when the point is done. The numbers are a model's (SimGrid
SMPI, scripts/sim/platforms/make_platforms.py), not the machines'.

Standard library only. The code is the package scripts/claims/mcbclaims/, one
module per job (its __init__.py lists them); this file is the command.
"""

import sys

from mcbclaims.cli import main

if __name__ == "__main__":
    sys.exit(main(__doc__))
