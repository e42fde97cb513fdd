#!/usr/bin/env bash
# Runs a command inside a private network namespace (architecture §6): loopback up and a veth pair
# 10.203.0.1/24 <-> 10.203.0.2/24, both ends inside. Nothing inside can reach the host's network.
# Usage: scripts/netns-run.sh <command> [args...]
# As root it uses `unshare -n`; otherwise `unshare -rn` (user namespace mapped to root).
set -euo pipefail
if [ "${LIVEAI_IN_NETNS:-}" = "1" ]; then exec "$@"; fi
flags=(-n)
[ "$(id -u)" = "0" ] || flags=(-r -n)
exec unshare "${flags[@]}" -- bash -c '
  set -e
  ip link set lo up
  ip link add lvk0 type veth peer name lvk1
  ip addr add 10.203.0.1/24 dev lvk0
  ip addr add 10.203.0.2/24 dev lvk1
  ip link set lvk0 up
  ip link set lvk1 up
  export LIVEAI_IN_NETNS=1
  exec "$@"
' netns-run "$@"
