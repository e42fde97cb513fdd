#!/usr/bin/env python3
"""A userspace impaired link for a private network namespace (the kernel here has no netem).

It makes an inner network namespace joined to the current one by two TUN devices and forwards every IP packet
between them itself: each packet is held for a delay drawn uniformly from DELAY +- JITTER ms (each way), and dropped
with probability LOSS (each way, independently). Packets keep their order in each direction, as on a real path
(a packet never overtakes the one before it; a packet that draws a shorter delay waits for it).

    inner namespace                      current namespace
    INNER_IP/24 on <name>i, default  ->  relay  ->  OUTER_IP/24 on <name>o  ->  local sockets (any local address)

A process started in the inner namespace (nsenter -t PID -n ...) reaches every address of the current namespace
only through the relay. Python standard library only; needs CAP_NET_ADMIN (root inside the namespace).

Protocol: prints one JSON line {"ready": true, "pid": HOLDER_PID, "inner": INNER_IP, "outer": OUTER_IP} once the
link is up. A line "stats" on stdin prints {"up": {...}, "down": {...}} counters ("up" = inner -> outer). EOF on
stdin or SIGTERM tears everything down (the inner namespace dies with its holder process, the TUN devices with it).
"""
import argparse
import collections
import fcntl
import json
import os
import random
import select
import signal
import struct
import subprocess
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000


def tun(name):
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


def sh(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--delay-ms", type=float, default=40.0, help="one-way delay, ms (default 40)")
    p.add_argument("--jitter-ms", type=float, default=10.0, help="uniform +- around the delay, ms (default 10)")
    p.add_argument("--loss", type=float, default=0.02, help="drop probability per packet and direction (default 0.02)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--name", default="imp0", help="TUN name prefix: <name>i inside, <name>o outside (default imp0)")
    p.add_argument("--inner-ip", default="10.205.0.2")
    p.add_argument("--outer-ip", default="10.205.0.1")
    a = p.parse_args()
    if os.environ.get("LIVEAI_IN_NETNS") != "1" and os.environ.get("LIVEAI_IMPAIR_ANY_NS") != "1":
        sys.exit("relay.py: run it inside the private network namespace (scripts/netns-run.sh), never on the host")
    rng = random.Random(a.seed)
    # The relay is the network: on a machine busy with the browser and the services it must not wait for a core
    # (every ms it waits is delay the link was not set to add). Best effort; it uses little CPU.
    try:
        os.nice(-10)
    except OSError:
        pass

    own_ns = os.readlink("/proc/self/ns/net")
    holder = subprocess.Popen(["unshare", "-n", "--", "sleep", "infinity"])
    deadline = time.monotonic() + 5
    while os.readlink(f"/proc/{holder.pid}/ns/net") == own_ns:
        if time.monotonic() > deadline or holder.poll() is not None:
            sys.exit("relay.py: could not make the inner namespace (unshare -n)")
        time.sleep(0.005)

    def down(*_):
        holder.kill()
        sys.exit(0)

    signal.signal(signal.SIGTERM, down)
    signal.signal(signal.SIGINT, down)
    inner_if, outer_if = f"{a.name}i", f"{a.name}o"
    fd_in = tun(inner_if)
    fd_out = tun(outer_if)
    ns = ["nsenter", "-t", str(holder.pid), "-n", "--"]
    sh("ip", "link", "set", inner_if, "netns", str(holder.pid))
    sh(*ns, "ip", "link", "set", "lo", "up")
    sh(*ns, "ip", "addr", "add", f"{a.inner_ip}/24", "dev", inner_if)
    sh(*ns, "ip", "link", "set", inner_if, "up")
    sh(*ns, "ip", "route", "add", "default", "dev", inner_if)
    sh("ip", "addr", "add", f"{a.outer_ip}/24", "dev", outer_if)
    sh("ip", "link", "set", outer_if, "up")

    # direction -> (source fd, destination fd); "up" is inner -> outer.
    dirs = {"up": (fd_in, fd_out), "down": (fd_out, fd_in)}
    queues = {d: collections.deque() for d in dirs}
    last = {d: 0.0 for d in dirs}
    stats = {d: {"packets": 0, "dropped": 0, "bytes": 0} for d in dirs}
    by_fd = {fd_in: "up", fd_out: "down"}
    stdin = sys.stdin.fileno()
    print(json.dumps({"ready": True, "pid": holder.pid, "inner": a.inner_ip, "outer": a.outer_ip}), flush=True)

    buf = b""
    while True:
        now = time.monotonic()
        nxt = min((q[0][0] for q in queues.values() if q), default=None)
        timeout = None if nxt is None else max(0.0, nxt - now)
        readable, _, _ = select.select([fd_in, fd_out, stdin], [], [], timeout)
        now = time.monotonic()
        for fd in readable:
            if fd == stdin:
                chunk = os.read(stdin, 4096)
                if not chunk:
                    down()
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    if line.strip() == b"stats":
                        print(json.dumps(stats), flush=True)
                continue
            d = by_fd[fd]
            while True:
                try:
                    pkt = os.read(fd, 65536)
                except BlockingIOError:
                    break
                s = stats[d]
                s["packets"] += 1
                if rng.random() < a.loss:
                    s["dropped"] += 1
                    continue
                s["bytes"] += len(pkt)
                release = max(now + (a.delay_ms + rng.uniform(-a.jitter_ms, a.jitter_ms)) / 1000.0, last[d])
                last[d] = release
                queues[d].append((release, pkt))
        for d, q in queues.items():
            dst = dirs[d][1]
            while q and q[0][0] <= now:
                try:
                    os.write(dst, q.popleft()[1])
                except OSError:
                    pass  # the other side is down or its queue is full: the packet is lost, like on a wire


if __name__ == "__main__":
    main()
