#!/usr/bin/env python3
"""Whole-process wall time and peak RSS, medians of interleaved runs.

Usage: measure.py RUNS NAME=CMD [NAME=CMD ...]   (CMD is split with shlex)
Each round runs every command once, in order, so load on a shared machine
falls on all of them alike. A process is started with posix_spawn (no shell)
and reaped with wait4, which gives its own peak RSS. Prints one line per
command: NAME median_ms median_rss_mb.
"""
import os
import shlex
import statistics
import sys
import time


def run(argv):
    devnull = os.open(os.devnull, os.O_WRONLY)
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    t0 = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    _, _, ru = os.wait4(pid, 0)
    t1 = time.perf_counter()
    os.close(devnull)
    return (t1 - t0) * 1000.0, ru.ru_maxrss / 1024.0


def main():
    runs = int(sys.argv[1])
    cmds = [a.split("=", 1) for a in sys.argv[2:]]
    walls = {n: [] for n, _ in cmds}
    rss = {n: [] for n, _ in cmds}
    for _ in range(runs):
        for name, cmd in cmds:
            w, m = run(shlex.split(cmd))
            walls[name].append(w)
            rss[name].append(m)
    for name, _ in cmds:
        print(f"{name} {statistics.median(walls[name]):.2f} {statistics.median(rss[name]):.1f}")


if __name__ == "__main__":
    main()
