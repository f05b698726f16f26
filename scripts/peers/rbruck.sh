#!/usr/bin/env bash
# mcb's tra and tra2 against harp-lab's rbruck_alltoall (the TRA paper's code)
# (https://github.com/harp-lab/rbruck_alltoall), both simulated by SimGrid
# SMPI on the same platform; prints the ratio table mcb / reference with the
# checkout's commit. DIR is your checkout (nothing of it enters mcb).
#
#   scripts/peers/rbruck.sh DIR                     # 4x16, 8x16, 4x32 on dane-32x112, 4 B - 4 KiB
#   scripts/peers/rbruck.sh --cases 2x8 --radix 2,4 --out /tmp/rb DIR
#   scripts/peers/rbruck.sh --help
#
# The work is scripts/peers/sim_peer.py's; see scripts/peers/README.md.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=$(command -v python3 || true)
if [[ -z "$py" ]]; then
  echo "rbruck.sh: python3 not found (Debian: apt-get install python3)" >&2
  exit 2
fi
exec "$py" "$here/sim_peer.py" rbruck "$@"
