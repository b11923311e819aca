// uhid-replay: a HID panel through /dev/uhid, so that the kernel's own HID driver
// (hid-multitouch) builds the evdev device from the panel's report descriptor and turns
// its reports into touches. The real-kernel tier's counterpart of evemu-device and
// evemu-play (vm/README.md, "HID panels through the kernel's driver").
//
//     uhid-replay PANEL.hid < EVENTS
//
// PANEL.hid is hid-tools' hid-recorder format: `R: size bytes...` (the report
// descriptor), `N: name`, `P: phys`, `I: bus vendor product` (hex); `#` lines and `D:`
// lines are comments, `E:` lines are ignored here. The device lives until stdin ends
// or a SIGTERM/SIGINT comes (closing /dev/uhid destroys it: an unplug).
//
// stdin carries the reports in the same format, `E: seconds size bytes...`, in batches:
// a batch is played with its lines' relative timing (its first line at once) and ends at
// any line that is not an `E:` line; after each one, `played N, held back up to H ms,
// late up to M ms` goes to stdout (how much longer than planned the wait between two
// reports was, and how far behind its time a report went in, at most: a loaded host
// starves the writer, and a Win8 panel's driver lifts a finger after 100 ms without a
// report). Between
// reports the kernel's requests are answered: SET_REPORT is accepted (hid-multitouch
// sets the input mode and latency), GET_REPORT fails with EIO (we have no feature values:
// the driver then takes the contact count from the descriptor's logical maximum). Every
// request is logged on stderr.
//
// Built static on the host (vm/build-initramfs.sh): the guests' busybox has no Python
// for hid-tools' own hid-replay.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/uhid.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;

static void on_signal(int sig) { (void)sig; stopping = 1; }

static void die(const char *what, const char *detail) {
    fprintf(stderr, "uhid-replay: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static void send_event(int fd, const struct uhid_event *ev) {
    if (write(fd, ev, sizeof(*ev)) != (ssize_t)sizeof(*ev)) die("write /dev/uhid", strerror(errno));
}

// Parses "size b0 b1 ..." (hex bytes) into buf; returns the size, -1 when malformed.
static int parse_bytes(const char *s, unsigned char *buf, size_t cap) {
    char *end;
    long size = strtol(s, &end, 10);
    if (end == s || size < 0 || (size_t)size > cap) return -1;
    for (long i = 0; i < size; i++) {
        s = end;
        unsigned long b = strtoul(s, &end, 16);
        if (end == s || b > 0xff) return -1;
        buf[i] = (unsigned char)b;
    }
    return (int)size;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *const event_names[] = {
    [UHID_START] = "start", [UHID_STOP] = "stop", [UHID_OPEN] = "open",
    [UHID_CLOSE] = "close", [UHID_OUTPUT] = "output",
};

// Reads one event from the kernel and answers it when it is a request.
static void answer_kernel(int fd) {
    struct uhid_event ev, reply;
    ssize_t n = read(fd, &ev, sizeof(ev));
    if (n < 0) {
        if (errno == EINTR || errno == EAGAIN) return;
        die("read /dev/uhid", strerror(errno));
    }
    memset(&reply, 0, sizeof(reply));
    switch (ev.type) {
    case UHID_GET_REPORT:
        fprintf(stderr, "uhid-replay: GET_REPORT %u (type %u): EIO\n", ev.u.get_report.rnum,
                ev.u.get_report.rtype);
        reply.type = UHID_GET_REPORT_REPLY;
        reply.u.get_report_reply.id = ev.u.get_report.id;
        reply.u.get_report_reply.err = EIO;
        send_event(fd, &reply);
        break;
    case UHID_SET_REPORT:
        fprintf(stderr, "uhid-replay: SET_REPORT %u (type %u, %u bytes): accepted\n",
                ev.u.set_report.rnum, ev.u.set_report.rtype, ev.u.set_report.size);
        reply.type = UHID_SET_REPORT_REPLY;
        reply.u.set_report_reply.id = ev.u.set_report.id;
        send_event(fd, &reply);
        break;
    default:
        if (ev.type < sizeof(event_names) / sizeof(event_names[0]) && event_names[ev.type])
            fprintf(stderr, "uhid-replay: %s\n", event_names[ev.type]);
        break;
    }
}

// Serves the kernel's requests until `until` (monotonic seconds), or until stdin is
// readable when wait_stdin is set. Returns 0 when stopping.
static int serve(int fd, double until, int wait_stdin) {
    while (!stopping) {
        struct pollfd fds[2] = {{.fd = fd, .events = POLLIN}, {.fd = 0, .events = POLLIN}};
        int timeout = -1;
        if (!wait_stdin) {
            double left = until - now();
            if (left <= 0) return 1;
            timeout = (int)(left * 1000) + 1;
        }
        int n = poll(fds, wait_stdin ? 2 : 1, timeout);
        if (n < 0 && errno != EINTR) die("poll", strerror(errno));
        if (n > 0 && (fds[0].revents & POLLIN)) answer_kernel(fd);
        if (n > 0 && (fds[0].revents & (POLLERR | POLLHUP))) die("/dev/uhid", "hung up");
        if (wait_stdin && n > 0 && fds[1].revents) return 1;
    }
    return 0;
}

static void create_device(int fd, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die(path, strerror(errno));
    struct uhid_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.type = UHID_CREATE2;
    struct uhid_create2_req *c = &ev.u.create2;
    char line[16384];
    int have_rdesc = 0;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = 0;
        unsigned bus, vendor, product;
        if (strncmp(line, "R: ", 3) == 0) {
            int size = parse_bytes(line + 3, c->rd_data, sizeof(c->rd_data));
            if (size <= 0) die(path, "malformed R: line");
            c->rd_size = (unsigned short)size;
            have_rdesc = 1;
        } else if (strncmp(line, "N: ", 3) == 0) {
            snprintf((char *)c->name, sizeof(c->name), "%.*s", (int)sizeof(c->name) - 1, line + 3);
        } else if (strncmp(line, "P: ", 3) == 0) {
            snprintf((char *)c->phys, sizeof(c->phys), "%.*s", (int)sizeof(c->phys) - 1, line + 3);
        } else if (sscanf(line, "I: %x %x %x", &bus, &vendor, &product) == 3) {
            c->bus = (unsigned short)bus;
            c->vendor = vendor;
            c->product = product;
        }
    }
    fclose(f);
    if (!have_rdesc) die(path, "no R: line (report descriptor)");
    send_event(fd, &ev);
    fprintf(stderr, "uhid-replay: created %s (%04x:%04x, descriptor of %u bytes)\n", c->name,
            c->vendor, c->product, c->rd_size);
}

// One batch played: "played N, held back up to H ms, late up to L ms".
static void report(int played, double held, double late) {
    printf("played %d, held back up to %.0f ms, late up to %.0f ms\n", played, held * 1000, late * 1000);
}

int main(int argc, char **argv) {
    if (argc != 2) die("usage: uhid-replay PANEL.hid < EVENTS", NULL);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    int fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
    if (fd < 0) die("/dev/uhid", strerror(errno));
    create_device(fd, argv[1]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    // Unbuffered: poll() on fd 0 must see every line stdio has not yet taken.
    setvbuf(stdin, NULL, _IONBF, 0);

    char line[16384];
    struct uhid_event ev;
    int played = 0, in_batch = 0;
    // late: how far behind its time a report went in, at most; held: how much longer than
    // planned the wait from one report to the next was, at most (a hid-multitouch panel
    // with MT_QUIRK_STICKY_FINGERS lifts its contacts after 100 ms without a report).
    double batch_start = 0, first_time = 0, late = 0, held = 0, prev_due = 0, prev_sent = 0;
    while (serve(fd, 0, 1) && fgets(line, sizeof(line), stdin)) {
        double t;
        int offset;
        if (sscanf(line, "E: %lf %n", &t, &offset) != 1) {
            if (in_batch) report(played, held, late);
            in_batch = 0, played = 0, late = 0, held = 0;
            continue;
        }
        if (!in_batch) in_batch = 1, batch_start = now(), first_time = t;
        memset(&ev, 0, sizeof(ev));
        ev.type = UHID_INPUT2;
        int size = parse_bytes(line + offset, ev.u.input2.data, sizeof(ev.u.input2.data));
        if (size <= 0) die("malformed E: line", line);
        ev.u.input2.size = (unsigned short)size;
        double due = batch_start + (t - first_time);
        if (!serve(fd, due, 0)) break;
        send_event(fd, &ev);
        double sent = now();
        if (sent - due > late) late = sent - due;
        if (played > 0 && (sent - prev_sent) - (due - prev_due) > held) held = (sent - prev_sent) - (due - prev_due);
        prev_due = due, prev_sent = sent;
        played++;
    }
    if (in_batch) report(played, held, late);
    // Closing /dev/uhid destroys the device, as an unplug does.
    close(fd);
    return 0;
}
