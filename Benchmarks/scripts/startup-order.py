#!/usr/bin/env python3
"""Writes the release link's symbol ordering file (mk/release-order.txt): the functions
the daemon runs from exec to READY, and while it plays a recording, so the linker (lld,
`--symbol-ordering-file`) places them next to each other.

    startup-order.py --daemon .build/release/gestured --config config/gestures.toml \
        [--replay RECORDING] --out FILE

Why: the static Swift runtime's functions are spread over 10 MB of .text, and the kernel
maps a 64 KiB window around each page fault of a cached file, so a start-up that calls a
few hundred scattered functions makes megabytes resident. Grouped, they fill few pages.

How: the daemon runs under callgrind (valgrind) until it sends READY=1 or, with --replay,
until it has played the recording (its socket actions sent to peers this script runs), then
gets SIGTERM; every function callgrind saw that is defined in the binary becomes one line,
its symbol name (Swift and the runtime's libraries are built with one section per
function, which is what lets the linker move each). Sorted by name so that a regenerated file diffs cleanly.
A stale file costs nothing but the gain: names that no longer exist are ignored.
"""
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

from socketpeers import with_socket_peers


def defined_functions(binary):
    """Names of the functions the binary defines (its symbol table)."""
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    return {f[2] for f in (line.split() for line in out.splitlines()) if len(f) == 3 and f[1] in "tTwW"}


def request(path, command):
    """One request on the daemon's control socket; the reply's `ok` value."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(path)
        s.sendall((json.dumps(command) + "\n").encode())
        reply = json.loads(s.makefile().readline())
    if "ok" not in reply:
        sys.exit(f"startup-order: {command['cmd']} refused: {reply}")
    return reply["ok"]


def play(control, deadline):
    """Plays the daemon's --replay recording to its end."""
    request(control, {"cmd": "replay-start"})
    while request(control, {"cmd": "status"}).get("replay", {}).get("state") != "finished":
        if time.monotonic() > deadline:
            raise TimeoutError
        time.sleep(0.2)


def called_functions(binary, config, replay, workdir, timeout):
    """Every function name in a callgrind profile of one start, exec to READY, and of the
    replay of `replay` when there is one."""
    # valgrind cannot read the DWARF 5 the Swift compiler writes; the symbol table is enough.
    plain = os.path.join(workdir, "gestured")
    subprocess.run(["strip", "--strip-debug", "-o", plain, binary], check=True)
    notify_path = os.path.join(workdir, "notify")
    profile = os.path.join(workdir, "callgrind.out")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(notify_path)
        notify.settimeout(timeout)
        env = dict(os.environ, NOTIFY_SOCKET=notify_path)
        env.pop("WATCHDOG_USEC", None)
        control = os.path.join(workdir, "control.sock")
        arguments = ["--config", with_socket_peers(config, workdir) if replay else config, "--socket", control]
        if replay:
            arguments += ["--replay", replay]
        proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}",
                                 plain, *arguments],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + timeout
            while b"READY=1" not in notify.recv(4096).split(b"\n"):
                if time.monotonic() > deadline:
                    raise TimeoutError
            if replay:
                play(control, deadline)
        except (TimeoutError, socket.timeout):
            proc.kill()
            sys.exit(f"startup-order: the daemon under valgrind did not start and play within {timeout} s:\n"
                     + proc.communicate()[1][-2000:])
        proc.send_signal(signal.SIGTERM)
        _, log = proc.communicate()
    if not os.path.exists(profile):
        sys.exit(f"startup-order: valgrind wrote no profile:\n{log[-2000:]}")
    names = set()
    with open(profile) as f:
        for line in f:
            m = re.match(r"^c?fn=\(\d+\) (\S+)", line)
            if m:
                names.add(m.group(1))
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--daemon", required=True, help="the release gestured")
    parser.add_argument("--config", required=True, help="the config to start with (the shipped one)")
    parser.add_argument("--replay", help="a recording to play after start-up (its functions join the list)")
    parser.add_argument("--out", required=True, help="the ordering file to write")
    parser.add_argument("--timeout", type=float, default=120, help="seconds to wait for READY under valgrind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        hot = sorted(called_functions(args.daemon, args.config, args.replay, workdir, args.timeout) & defined_functions(args.daemon))
    if not hot:
        sys.exit("startup-order: the profile names no function of the binary; is it stripped?")
    with open(args.out, "w") as f:
        f.writelines(f"{name}\n" for name in hot)
    print(f"startup-order: {len(hot)} functions -> {args.out}")


if __name__ == "__main__":
    main()
