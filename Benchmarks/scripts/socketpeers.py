"""The shipped config as the scripts that run the daemon on it take it (daemon-bench.py,
startup-order.py): with listening peers for its socket actions, or without any action."""
import os
import re
import socket
import threading


# Messages each peer received, by the socket path the config named (`with_socket_peers`).
received = {}


def with_socket_peers(config, workdir, frame_rate=None, name="shipped-with-peers"):
    """A copy of `config` whose socket actions point into `workdir`, each with a peer that
    reads what the daemon sends (as the kiosk's app would) and counts it in `received`: a
    peer that is absent makes the daemon retry with a backoff, which is work, not idleness.
    `frame_rate`: a `[daemon] frame_rate` value for the copy (`'"every-frame"'`). Returns
    the copy's path; `name` keeps copies and their peers apart."""
    with open(config) as f:
        lines = f.read().split("\n")
    if frame_rate is not None:
        lines.insert(lines.index("[daemon]") + 1, f"frame_rate = {frame_rate}")
    paths = {}
    for i, line in enumerate(lines):
        m = re.match(r'\s*socket\s*=\s*"([^"]+)"', line)
        if not m:
            continue
        datagram = any(re.match(r"\s*datagram\s*=\s*true", l) for l in lines[i + 1:i + 4])
        if m.group(1) not in paths:
            paths[m.group(1)] = (os.path.join(workdir, f"{name}-peer{len(paths)}.sock"), datagram)
        lines[i] = line.replace(m.group(1), paths[m.group(1)][0])
    for original, (path, datagram) in paths.items():
        peer = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM if datagram else socket.SOCK_STREAM)
        peer.bind(path)
        if not datagram:
            peer.listen()
        received[original] = 0
        threading.Thread(target=drain_peer, args=(peer, datagram, original), daemon=True).start()
    copy = os.path.join(workdir, name + ".toml")
    with open(copy, "w") as f:
        f.write("\n".join(lines))
    return copy


def drain_peer(peer, datagram, original):
    while True:
        if datagram:
            peer.recv(65536)
            received[original] += 1
        else:
            connection, _ = peer.accept()
            threading.Thread(target=lambda c: [None for _ in iter(lambda: c.recv(65536), b"")], args=(connection,),
                             daemon=True).start()


def without_actions(config, workdir):
    """A copy of `config` without its actions (every `[gesture.NAME.on.STATE]` table and
    `[[...]]` entry dropped, with its keys): the same devices, views and gestures, so the
    daemon recognizes the same, and dispatches nothing. Returns the copy's path."""
    kept, dropping = [], False
    for line in open(config).read().split("\n"):
        if re.match(r"\s*\[", line):
            dropping = re.match(r"\s*\[\[?\s*gesture\.[^\]]*\.on\.", line) is not None
        if not dropping:
            kept.append(line)
    copy = os.path.join(workdir, "shipped-without-actions.toml")
    with open(copy, "w") as f:
        f.write("\n".join(kept))
    return copy
