#!/usr/bin/env python3
"""What a subscriber of a `gestured --replay` daemon gets (mk/arm64-replay.sh).

daemon-stream.py SOCKET COUNT: waits for the daemon's control socket, subscribes, starts
the replay (`replay-start`) and prints the stream's first COUNT lines.
daemon-stream.py --normalize: prints the JSON lines on standard input.
Either way each line loses its clock members (`t`, `until`, `delayed_from`: the daemon's
run on from its start), as DaemonReplayTests compare the stream with `replay --json`."""
import json, socket, sys, time

CLOCK = ("t", "until", "delayed_from")

def connect(path, deadline):
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                sys.exit(f"daemon-stream: no daemon on {path}")
            time.sleep(0.1)

def without_clock(line):
    value = json.loads(line)
    for key in CLOCK:
        value.pop(key, None)
    return json.dumps(value, separators=(",", ":"))

def main():
    if sys.argv[1:] == ["--normalize"]:
        for line in sys.stdin:
            print(without_clock(line))
        return
    if len(sys.argv) != 3 or not sys.argv[2].isdigit():
        sys.exit("usage: daemon-stream.py SOCKET COUNT | daemon-stream.py --normalize")
    path, count = sys.argv[1], int(sys.argv[2])
    deadline = time.monotonic() + 60
    subscriber = connect(path, deadline)
    stream = subscriber.makefile("rb")
    subscriber.sendall(b'{"cmd":"subscribe"}\n')
    stream.readline()
    control = connect(path, deadline)
    control.sendall(b'{"cmd":"replay-start"}\n')
    control.makefile("rb").readline()
    subscriber.settimeout(120)
    for _ in range(count):
        line = stream.readline()
        if not line:
            sys.exit("daemon-stream: the daemon closed the stream")
        print(without_clock(line))

main()
