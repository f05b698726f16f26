#!/usr/bin/env bash
# mcb's node-aware alltoalls against mpi-advance's locality_aware library
# (https://github.com/mpi-advance/locality_aware), both simulated by SimGrid
# SMPI on the same platform; prints the ratio table mcb / reference with the
# checkout's commit. DIR is your checkout (nothing of it enters mcb).
#
#   scripts/peers/locality_aware.sh DIR                     # 4x16, 8x16, 4x32 on dane-32x112, 4 B - 4 KiB
#   scripts/peers/locality_aware.sh --cases 2x8 -m 4,4096 --out /tmp/la DIR
#   scripts/peers/locality_aware.sh --help
#
# The work is scripts/peers/sim_peer.py's; see scripts/peers/README.md.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=$(command -v python3 || true)
if [[ -z "$py" ]]; then
  echo "locality_aware.sh: python3 not found (Debian: apt-get install python3)" >&2
  exit 2
fi
exec "$py" "$here/sim_peer.py" locality_aware "$@"
