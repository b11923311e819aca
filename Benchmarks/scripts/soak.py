#!/usr/bin/env python3
"""The soak: the release daemon under every input kind at once, for a
chosen time, with its resident size, descriptors, children and recognition counts
recorded at intervals and checked against bounds.

    soak.py --daemon .build/release/gestured --gesturectl .build/release/gesturectl \
            --seconds 3600 [--phase 60] --out bench-results/soak.md

Inputs, all at once (docs/BENCHMARKS.md, "Soak"):
  - ten fingers streaming: a synthetic recording (written here, so every count is known)
    replayed cycle after cycle through `--stream` from a named pipe by pace.c, as a device
    delivers it: per cycle ten fingers pan together (gesture `ten`: began and ended once)
    and one finger taps (gesture `tap1`: recognized once);
  - triggers in bursts ({"cmd": "trigger"} of `ping`, a view no finger touches): each one
    is a recognition and a storm of cooldown-free commands against `max_children`;
  - subscribers that stay (the one that counts), lag (subscribe, never read), vanish (read
    a line, close), `gesturectl monitor` killed mid-stream, clients that connect and go;
  - reloads, good (the file rewritten with another message) and bad (a type that does
    not exist), through {"cmd": "reload"};
  - commands that hang past their 1 s timeout (one ignoring SIGTERM, so SIGKILL);
  - a socket target (a Unix listener) that comes and goes.

The run is cut into phases. At the end of each, the inputs stop and the daemon settles
(no children, every client gone, the socket target down), then the script records VmRSS, open fds
(/proc/PID/fd), children (/proc/PID/task/*/children) and the counts. The first phase is
the warm-up whose figures are the baseline. Pass: after each phase, no child left, fds
equal to the baseline, VmRSS within --rss-bound KiB (default 1024) of the baseline, every
expected recognition counted (by the subscriber and by `status`), the daemon alive.
Exit status 0 on pass, 1 on failure. Between phases a sample row is taken every
--interval seconds while the inputs run (information: fds and children vary then).
"""
import argparse
import importlib
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # no __pycache__ in the tree
bench = importlib.import_module("daemon-bench")   # its Daemon: start, READY, requests, /proc readings

# The synthetic panel: 10 slots, 3840 x 2160 units at 8 units/mm, on a 1920 x 1080 screen.
UNITS_X, UNITS_Y, RES = 3840, 2160, 8
FRAME = 1 / 240
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
BTN_TOUCH, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x14a, 0x2f, 0x35, 0x36, 0x39


def mask_lines(type_, bits, size):
    """evemu's `B:` lines: the bits as bytes, eight to a line."""
    data = bytearray(size)
    for bit in bits:
        data[bit // 8] |= 1 << (bit % 8)
    return [f"B: {type_:02x} " + " ".join(f"{b:02x}" for b in data[i:i + 8]) + "\n" for i in range(0, size, 8)]


def description():
    lines = ["# EVEMU 1.3\n", "N: soak synthetic panel\n", "I: 0018 1234 5678 0001\n", "P: 02 00 00 00 00 00 00 00\n"]
    lines += mask_lines(0, [EV_SYN, EV_KEY, EV_ABS], 8)
    lines += mask_lines(EV_KEY, [BTN_TOUCH], 96)
    lines += mask_lines(EV_ABS, [ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID], 8)
    lines += [f"A: {ABS_MT_SLOT:02x} 0 9 0 0 0\n", f"A: {ABS_MT_POSITION_X:02x} 0 {UNITS_X - 1} 0 0 {RES}\n",
              f"A: {ABS_MT_POSITION_Y:02x} 0 {UNITS_Y - 1} 0 0 {RES}\n", f"A: {ABS_MT_TRACKING_ID:02x} 0 65535 0 0 0\n"]
    return "".join(lines)


def cycle_events():
    """One cycle: ten fingers down at once, 0.8 s moving 300 px right, up; 0.3 s later one
    finger taps for 80 ms in the lower right. Returns the `E:` lines."""
    out, t = [], 0.0

    def frame(events):
        nonlocal t
        for type_, code, value in events + [(EV_SYN, 0, 0)]:
            out.append(f"E: {t:.6f} {type_:04x} {code:04x} {value}\n")
        t += FRAME

    def at(px, py):
        return [(EV_ABS, ABS_MT_POSITION_X, int(px * 2)), (EV_ABS, ABS_MT_POSITION_Y, int(py * 2))]

    fingers = [(300 + 120 * i, 500) for i in range(10)]
    frame([e for i, (x, y) in enumerate(fingers) for e in [(EV_ABS, ABS_MT_SLOT, i), (EV_ABS, ABS_MT_TRACKING_ID, i)]
           + at(x, y)] + [(EV_KEY, BTN_TOUCH, 1)])
    steps = int(0.8 / FRAME)
    for step in range(1, steps + 1):
        frame([e for i, (x, y) in enumerate(fingers) for e in [(EV_ABS, ABS_MT_SLOT, i)] + at(x + 300 * step / steps, y)])
    frame([e for i in range(10) for e in [(EV_ABS, ABS_MT_SLOT, i), (EV_ABS, ABS_MT_TRACKING_ID, -1)]]
          + [(EV_KEY, BTN_TOUCH, 0)])
    t += 0.3
    frame([(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, 10)] + at(1600, 900) + [(EV_KEY, BTN_TOUCH, 1)])
    for _ in range(int(0.08 / FRAME)):
        frame([(EV_ABS, ABS_MT_SLOT, 0)] + at(1600, 900))
    frame([(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0)])
    return out


# Recognitions per cycle and per trigger, as (gesture, state).
PER_CYCLE = {("ten", "began"): 1, ("ten", "ended"): 1, ("tap1", "recognized"): 1}
PER_TRIGGER = {("ping", "recognized"): 1}


def config_text(target, message):
    return f"""# The soak's config (Benchmarks/scripts/soak.py), rewritten by its reloads.
[daemon]
command_timeout = "1s"
max_children = 8

[screen]
width = 1920
height = 1080

[view.corner]
frame = {{ x = 0, y = 0, width = 100, height = 100 }}

[gesture.ten]
type = "pan"
min_touches = 10

[[gesture.ten.on.changed]]
socket = "{target}"
message = "pan {{x}} {{y}}"

[gesture.tap1]
type = "tap"

[[gesture.tap1.on.recognized]]
command = "sleep 30"

[[gesture.tap1.on.recognized]]
command = "trap '' TERM; sleep 30"

[gesture.ping]
type = "tap"
view = "corner"

[[gesture.ping.on.recognized]]
command = "sleep 0.3"

[[gesture.ping.on.recognized]]
socket = "{target}"
message = "{message}"
"""


BAD_CONFIG_TAIL = '\n[gesture.broken]\ntype = "no-such-type"\n'


class Soak:
    def __init__(self, args, workdir):
        self.args, self.workdir = args, workdir
        self.target = os.path.join(workdir, "target.sock")
        self.config = os.path.join(workdir, "soak.toml")
        with open(self.config, "w") as f:
            f.write(config_text(self.target, "ping"))
        self.recording = os.path.join(workdir, "cycle.evemu")
        self.desc = os.path.join(workdir, "soak.desc")
        with open(self.desc, "w") as f:
            f.write(description())
        with open(self.recording, "w") as f:
            f.write(description())
            f.writelines(cycle_events())
        self.pace = os.path.join(workdir, "pace")
        subprocess.run(["cc", "-O2", "-o", self.pace, os.path.join(HERE, "pace.c")], check=True)
        self.fifo = os.path.join(workdir, "stream.pipe")
        os.mkfifo(self.fifo)
        # Held open for writing the whole run: each pace run opens and closes the pipe, and
        # the daemon would take the last writer's close as the end of the stream.
        self.fifo_holder = os.open(self.fifo, os.O_RDWR | os.O_CLOEXEC)
        self.running = threading.Event()      # inputs run while set
        self.stop = threading.Event()         # the whole run is over
        self.lock = threading.Lock()
        self.cycles = self.triggers = self.busy = 0
        self.stats = {k: 0 for k in ("reload_ok", "reload_bad", "reload_wrong", "lagging", "vanishing", "monitors",
                                     "raw_clients", "trigger_errors", "target_up", "stream_errors")}
        self.counted = {}
        self.subscriber_lost = None
        self.pacer = None                     # the pace process of the cycle being played
        self.cycle_idle = threading.Event()   # the stream is between cycles
        self.cycle_idle.set()

    # ---- the daemon ----
    def start(self):
        self.daemon = bench.Daemon(self.args.daemon, self.config, self.workdir, "soak",
                                   ["--stream", self.fifo, "--desc", self.desc])
        self.daemon.wait_ready(timeout=15)
        self.pid = self.daemon.proc.pid
        threading.Thread(target=self.drain_notify, daemon=True).start()

    def drain_notify(self):
        """Reads what the daemon sends to $NOTIFY_SOCKET after READY (STATUS= at each
        reload), as systemd would: a full socket makes the daemon warn at every send."""
        self.daemon.notify.settimeout(0.5)
        while not self.stop.is_set():
            try:
                self.daemon.notify.recv(4096)
            except socket.timeout:
                pass
            except OSError:
                return

    def request(self, command, timeout=10):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(self.daemon.socket_path)
            s.sendall((json.dumps(command) + "\n").encode())
            return json.loads(s.makefile().readline())

    def fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def fd_kinds(self):
        """The daemon's fds by what they are: a socket by its bound path (the control
        socket's path for accepted control connections; none for an outgoing one), else the
        link's target."""
        paths = {}
        with open("/proc/net/unix") as f:
            next(f)
            for line in f:
                fields = line.split()
                paths[fields[6]] = fields[7] if len(fields) > 7 else "(unnamed socket)"
        kinds = {}
        for fd in os.listdir(f"/proc/{self.pid}/fd"):
            try:
                link = os.readlink(f"/proc/{self.pid}/fd/{fd}")
            except FileNotFoundError:
                continue
            m = re.match(r"socket:\[(\d+)\]", link)
            kind = paths.get(m.group(1), link) if m else link
            kinds[kind] = kinds.get(kind, 0) + 1
        return kinds

    def log_lines(self):
        self.daemon.log.flush()
        with open(self.daemon.log_path, "rb") as f:
            return sum(1 for _ in f)

    def children(self):
        pids = []
        for tid in os.listdir(f"/proc/{self.pid}/task"):
            with open(f"/proc/{self.pid}/task/{tid}/children") as f:
                pids += f.read().split()
        return pids

    # ---- inputs ----
    def loop(self, period, body):
        """Runs `body` every `period` seconds (jittered) while the inputs run."""
        while not self.stop.is_set():
            if not self.running.wait(0.2):
                continue
            with self.lock:
                self.busy += 1
            try:
                body()
            except OSError:
                pass   # the daemon refused or dropped a client: that is its right under load
            finally:
                with self.lock:
                    self.busy -= 1
            self.stop.wait(period * random.uniform(0.5, 1.5))

    def stream(self):
        while not self.stop.is_set():
            if not self.running.wait(0.2):
                continue
            self.cycle_idle.clear()
            self.pacer = subprocess.Popen([self.pace, self.recording, self.fifo])
            self.pacer.wait()
            with self.lock:
                if self.pacer.returncode == 0:
                    self.cycles += 1
                elif not self.stop.is_set():
                    self.stats["stream_errors"] += 1
            self.cycle_idle.set()
            time.sleep(0.4)   # longer than a tap's interval: each cycle's gestures settle

    def counting_subscriber(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(self.daemon.socket_path)
        s.sendall(b'{"cmd": "subscribe"}\n')
        lines = s.makefile("rb")
        lines.readline()
        for line in lines:
            event = json.loads(line)
            if "stopping" in event:
                break
            key = (event.get("gesture"), event.get("state"))
            with self.lock:
                self.counted[key] = self.counted.get(key, 0) + 1
        if not self.stop.is_set():
            self.subscriber_lost = "the counting subscriber's stream ended (dropped for lagging, or the daemon died)"

    def hold(self, seconds):
        """Waits `seconds`, or less when the inputs stop for a settled sample."""
        until = time.monotonic() + seconds
        while self.running.is_set() and time.monotonic() < until:
            time.sleep(0.1)

    def lagging_subscriber(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(self.daemon.socket_path)
        s.sendall(b'{"cmd": "subscribe"}\n')
        self.stats["lagging"] += 1
        self.hold(random.uniform(2, 6))   # never reads: the daemon drops it or it goes
        s.close()

    def vanishing_subscriber(self):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(self.daemon.socket_path)
            s.sendall(b'{"cmd": "subscribe", "trace": true}\n')
            try:
                s.recv(random.choice([1, 100, 4096]))
            except socket.timeout:
                pass
        self.stats["vanishing"] += 1

    def raw_client(self):
        """Connects and goes: silent, a half line, garbage, a request without reading."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(self.daemon.socket_path)
            s.sendall(random.choice([b"", b'{"cmd": "sta', b"\x00\xff garbage\n", b'{"cmd": "status"}\n' * 20]))
        self.stats["raw_clients"] += 1

    def monitor(self):
        p = subprocess.Popen([self.args.gesturectl, "monitor", "--socket", self.daemon.socket_path],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.hold(random.uniform(0.5, 3))
        p.kill()
        p.wait()
        self.stats["monitors"] += 1

    def reload(self):
        bad = random.random() < 0.5
        text = config_text(self.target, random.choice(["ping", "pong", "ping {x} {y}"]))
        with open(self.config + ".new", "w") as f:
            f.write(text + (BAD_CONFIG_TAIL if bad else ""))
        os.replace(self.config + ".new", self.config)
        reply = self.request({"cmd": "reload"})
        ok = "ok" in reply
        key = "reload_wrong" if ok == bad else ("reload_bad" if bad else "reload_ok")
        self.stats[key] += 1

    def trigger_burst(self):
        for _ in range(random.randint(5, 30)):
            reply = self.request({"cmd": "trigger", "gesture": "ping"})
            with self.lock:
                if "ok" in reply:
                    self.triggers += 1
                else:
                    self.stats["trigger_errors"] += 1

    def socket_target(self):
        """A listener that is up for a while, then gone (closed and unlinked), and back."""
        self.target_wanted_up = threading.Event()
        while not self.stop.is_set():
            if not self.running.wait(0.2):
                continue   # down while the daemon settles: its connection to the target is closed then
            if os.path.exists(self.target):
                os.unlink(self.target)
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(self.target)
            listener.listen()
            listener.settimeout(0.2)
            self.stats["target_up"] += 1
            peers = []
            until = time.monotonic() + random.uniform(1, 5)
            while not self.stop.is_set() and time.monotonic() < until and self.running.is_set():
                try:
                    peer, _ = listener.accept()
                    peer.setblocking(False)
                    peers.append(peer)
                except socket.timeout:
                    pass
                for peer in peers:
                    try:
                        peer.recv(65536)
                    except BlockingIOError:
                        pass
            for peer in peers:
                peer.close()
            listener.close()
            os.unlink(self.target)
            self.hold(random.uniform(1, 4))

    # ---- measuring ----
    def sample(self, phase, kind):
        # /proc first: the status request's own connection would be counted if the daemon
        # has not yet seen it close.
        rss, fds, fd_kinds, children = self.daemon.rss_kib(), self.fds(), self.fd_kinds(), len(self.children())
        status = self.request({"cmd": "status"})["ok"]
        with self.lock:
            counted = dict(self.counted)
            cycles, triggers = self.cycles, self.triggers
        expected = {k: v * cycles for k, v in PER_CYCLE.items()}
        for k, v in PER_TRIGGER.items():
            expected[k] = expected.get(k, 0) + v * triggers
        status_counts = {g["name"]: g.get("count", 0) for g in status.get("gestures", [])}
        return {
            "phase": phase, "kind": kind, "t_s": round(time.monotonic() - self.started, 1),
            "rss_kib": rss, "fds": fds, "fd_kinds": fd_kinds, "children": children,
            "cycles": cycles, "triggers": triggers, "log_lines": self.log_lines(),
            "expected": {f"{g}.{s}": n for (g, s), n in expected.items()},
            "counted": {f"{g}.{s}": counted.get((g, s), 0) for (g, s) in expected},
            "status_counts": status_counts,
            "dispatcher": status.get("dispatcher", {}), "control": status.get("control", {}),
        }

    def quiesce(self):
        """Stops the inputs and lets the daemon settle: the stream between cycles, no child
        (the hanging ones are killed at their timeout), the socket target gone."""
        self.running.clear()
        self.cycle_idle.wait()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and (self.children() or self.busy or os.path.exists(self.target)):
            time.sleep(0.2)
        time.sleep(self.args.settle)

    def run(self):
        self.started = time.monotonic()
        threads = [threading.Thread(target=f, daemon=True) for f in (self.stream, self.counting_subscriber,
                                                                      self.socket_target)]
        self.stream_thread = threads[0]
        for period, body in ((0.7, self.lagging_subscriber), (0.5, self.vanishing_subscriber),
                             (0.3, self.raw_client), (3, self.monitor), (2, self.reload), (3, self.trigger_burst)):
            threads.append(threading.Thread(target=self.loop, args=(period, body), daemon=True))
        for t in threads:
            t.start()
        rows, failures = [], []
        phases = max(2, round(self.args.seconds / self.args.phase))
        baseline = None
        for phase in range(phases):
            self.running.set()
            end = time.monotonic() + self.args.seconds / phases
            while time.monotonic() < end:
                time.sleep(min(self.args.interval, max(0.0, end - time.monotonic())))
                if self.daemon.proc.poll() is not None:
                    break
                if time.monotonic() < end - 1:
                    rows.append(self.sample(phase, "running"))
            if self.daemon.proc.poll() is not None:
                failures.append(f"the daemon exited with status {self.daemon.proc.returncode} ({self.daemon.tail()})")
                break
            self.quiesce()
            # A closed client is counted until the daemon's loop has seen it go: give a
            # loaded machine up to 5 s more; a leaked descriptor stays.
            deadline = time.monotonic() + 5
            while baseline and self.fds() != baseline["fds"] and time.monotonic() < deadline:
                time.sleep(0.2)
            row = self.sample(phase, "settled")
            rows.append(row)
            problems = self.judge(row, baseline)
            row["problems"] = problems
            failures += [f"phase {phase}: {p}" for p in problems]
            if baseline is None:
                baseline = row
            print(format_row(row), file=sys.stderr, flush=True)
        self.stop.set()
        self.running.set()
        return rows, failures, baseline

    def judge(self, row, baseline):
        problems = []
        if row["children"]:
            problems.append(f"{row['children']} children left after settling: {' '.join(self.children())}")
        for key, n in row["expected"].items():
            if row["counted"][key] != n:
                problems.append(f"{key}: the subscriber counted {row['counted'][key]}, expected {n}")
        for gesture in ("ten", "tap1"):   # the engine's own count (status): one per cycle
            if row["status_counts"].get(gesture) != row["cycles"]:
                problems.append(f"status counts {row['status_counts'].get(gesture)} for {gesture}, expected {row['cycles']}")
        if self.subscriber_lost:
            problems.append(self.subscriber_lost)
        if self.stats["reload_wrong"]:
            problems.append(f"{self.stats['reload_wrong']} reloads answered against their file (a bad one ok, or a good one refused)")
        if self.stats["stream_errors"]:
            problems.append(f"pace failed {self.stats['stream_errors']} times writing the stream")
        if baseline is not None:
            if row["fds"] != baseline["fds"]:
                kinds = sorted(set(row["fd_kinds"]) | set(baseline["fd_kinds"]))
                diff = ", ".join(f"{k}: {baseline['fd_kinds'].get(k, 0)} -> {row['fd_kinds'].get(k, 0)}" for k in kinds
                                 if row["fd_kinds"].get(k, 0) != baseline["fd_kinds"].get(k, 0))
                problems.append(f"{row['fds']} open fds, {baseline['fds']} after the warm-up ({diff})")
            growth = row["rss_kib"] - baseline["rss_kib"]
            if growth > self.args.rss_bound:
                problems.append(f"VmRSS grew {growth} KiB since the warm-up (bound {self.args.rss_bound} KiB)")
        return problems


def format_row(row):
    exp, got = row["expected"], row["counted"]
    counts = " ".join(f"{k} {got[k]}/{exp[k]}" for k in exp)
    d = row["dispatcher"]
    return (f"| {row['phase']} | {row['kind']} | {row['t_s']:.0f} | {row['rss_kib']} | {row['fds']} | {row['children']} | "
            f"{row['cycles']} | {row['triggers']} | {counts} | {d.get('commands_started', '-')} | "
            f"{d.get('commands_refused', '-')} | {d.get('commands_timed_out', '-')} | "
            f"{row['control'].get('dropped_subscribers', '-')} | "
            f"{' '.join(f'{g} {n}' for g, n in row['status_counts'].items() if g in ('ten', 'tap1'))} | "
            f"{row['log_lines']} | {'; '.join(row.get('problems', [])) or '-'} |")


HEADER = ("| phase | sample | t (s) | VmRSS (KiB) | fds | children | cycles | triggers | counted/expected | "
          "commands started | refused (max_children) | timed out | subscribers dropped | status counts | log lines | problems |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--daemon", required=True)
    parser.add_argument("--gesturectl", required=True)
    parser.add_argument("--seconds", type=float, default=3600)
    parser.add_argument("--phase", type=float, default=60, help="seconds per phase (the first is the warm-up)")
    parser.add_argument("--interval", type=float, default=10, help="seconds between samples while inputs run")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds of quiet before a settled sample")
    parser.add_argument("--rss-bound", type=int, default=1024, help="KiB of VmRSS growth allowed after the warm-up")
    parser.add_argument("--out", required=True, help="the results file (Markdown; JSON next to it)")
    args = parser.parse_args()
    args.daemon, args.gesturectl = os.path.abspath(args.daemon), os.path.abspath(args.gesturectl)
    with tempfile.TemporaryDirectory(prefix="gestured-soak-") as workdir:
        soak = Soak(args, workdir)
        soak.start()
        try:
            print(HEADER, file=sys.stderr, flush=True)
            rows, failures, baseline = soak.run()
        finally:
            soak.stop.set()
            soak.daemon.stop()
            # A cycle cut short, or one that would wait forever for the pipe: killed until
            # the stream's thread, which starts no other once `stop` is set, has ended.
            for _ in range(50):
                if soak.pacer:
                    soak.pacer.kill()
                    soak.pacer.wait()
                if not getattr(soak, "stream_thread", None) or not soak.stream_thread.is_alive():
                    break
                soak.stream_thread.join(0.1)
            os.close(soak.fifo_holder)
            os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
            shutil.copy(soak.daemon.log_path, os.path.splitext(args.out)[0] + "-daemon.log")
    settled = [r for r in rows if r["kind"] == "settled"]
    summary = (f"soak: {args.seconds:.0f} s in {len(settled)} phases of {args.seconds / max(1, len(settled)):.0f} s; "
               f"{soak.cycles} stream cycles, {soak.triggers} triggers; inputs: "
               + ", ".join(f"{k} {v}" for k, v in soak.stats.items()))
    if baseline and settled:
        last = settled[-1]
        summary += (f"\nafter warm-up: VmRSS {baseline['rss_kib']} KiB, {baseline['fds']} fds; at the end: "
                    f"VmRSS {last['rss_kib']} KiB ({last['rss_kib'] - baseline['rss_kib']:+d}), {last['fds']} fds, "
                    f"{last['children']} children")
    verdict = "PASS" if not failures else "FAIL:\n  " + "\n  ".join(failures)
    table = "\n".join([HEADER] + [format_row(r) for r in rows])
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(f"{table}\n\n{summary}\n\n{verdict}\n")
    with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
        json.dump({"rows": rows, "stats": soak.stats, "failures": failures}, f, indent=1)
    print(f"{table}\n\n{summary}\n\n{verdict}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
