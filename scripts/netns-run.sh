#!/usr/bin/env bash
# Runs a command inside a private network namespace: loopback up and a veth pair 10.203.0.1/24 <-> 10.203.0.2/24,
# both ends inside, and a default route into lvk0. Nothing inside can reach the host's network.
# Usage: scripts/netns-run.sh <command> [args...]
# As root it uses `unshare -n`; otherwise `unshare -rn` (user namespace mapped to root).
#
# With LIVEAI_HOST_LINK="HOST_PID HOST_IF NS_IF HOST_IP NS_IP" (root only; scripts/dev.mjs sets it) it also makes
# a host–namespace link: a veth pair with HOST_IF/HOST_IP/30 in HOST_PID's namespace and NS_IF/NS_IP/30 inside, so a
# browser on the host reaches the namespace without any route through the host's default gateway. The pair is
# created from inside the namespace, so the kernel deletes both ends when the namespace goes away (crash included).
# Exit code 75: that link's interface name or addresses were taken (the caller picks another).
set -euo pipefail
if [ "${LIVEAI_IN_NETNS:-}" = "1" ]; then exec "$@"; fi
flags=(-n)
[ "$(id -u)" = "0" ] || flags=(-r -n)
exec "${LIVEAI_UNSHARE:-unshare}" "${flags[@]}" -- bash -c '
  set -e
  ip link set lo up
  ip link add lvk0 type veth peer name lvk1
  ip addr add 10.203.0.1/24 dev lvk0
  ip addr add 10.203.0.2/24 dev lvk1
  ip link set lvk0 up
  ip link set lvk1 up
  # Firefox gathers no ICE candidate at all (not even on loopback or 10.203.0.x) when no default route exists.
  # This one leads nowhere: for any other address the kernel asks on lvk0 who has it (ARP), only lvk1 inside
  # this same namespace hears the question, nobody answers, and the packet is dropped; no interface here reaches
  # the host. It only makes the namespace look like a machine with a network.
  ip route add default dev lvk0
  # With that route a DNS query would wait for an answer that never comes (a lookup hung for its whole time-out)
  # instead of failing at once as it did without a default route: the name servers of the host are unreachable here.
  for ns in $(sed -n "s/^nameserver[[:space:]]\{1,\}\([0-9.]\{7,15\}\)[[:space:]]*$/\1/p" /etc/resolv.conf 2>/dev/null); do
    case "$ns" in 127.*) ;; *) ip route add unreachable "$ns/32" 2>/dev/null || true ;; esac
  done
  if [ -n "${LIVEAI_HOST_LINK:-}" ]; then
    read -r host_pid host_if ns_if host_ip ns_ip <<<"$LIVEAI_HOST_LINK"
    ip link add "$ns_if" type veth peer name "$host_if" netns "$host_pid" 2>/dev/null || exit 75
    nsenter -t "$host_pid" -n ip addr add "$host_ip/30" dev "$host_if" || exit 75
    nsenter -t "$host_pid" -n ip link set "$host_if" up
    ip addr add "$ns_ip/30" dev "$ns_if"
    ip link set "$ns_if" up
    export LIVEAI_LINK_IP="$ns_ip" LIVEAI_LINK_PEER_IP="$host_ip"
  fi
  unset LIVEAI_HOST_LINK
  export LIVEAI_IN_NETNS=1
  exec "$@"
' netns-run "$@"
