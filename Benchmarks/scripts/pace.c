/* Writes an evemu recording's events to a file (a named pipe) as `struct input_event`
 * records, each frame at its recorded time: the daemon's `--stream` input then arrives as
 * a live device's would, woken by another process, with no timer of its own
 * (daemon-bench.py's CPU measurement of live-like input).
 *
 *     pace RECORDING.evemu OUTPUT [SLOWER]
 *
 * SLOWER (default 1) stretches the recorded times by that factor: the instruction counts
 * take 4, so that a loaded machine delays no frame into the next one's read. */
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: pace RECORDING.evemu OUTPUT [SLOWER]\n");
        return 2;
    }
    double slower = argc == 4 ? atof(argv[3]) : 1;
    FILE *in = fopen(argv[1], "r");
    int out = open(argv[2], O_WRONLY | O_CLOEXEC);
    if (!in || out < 0) {
        perror(in ? argv[2] : argv[1]);
        return 1;
    }
    struct input_event frame[256];
    int count = 0;
    double first = -1;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    char line[256];
    while (fgets(line, sizeof line, in)) {
        double t;
        unsigned type, code;
        int value;
        if (sscanf(line, "E: %lf %x %x %d", &t, &type, &code, &value) != 4) continue;
        if (first < 0) first = t;
        if (count < 256) {
            frame[count] = (struct input_event){ .type = (unsigned short)type, .code = (unsigned short)code, .value = value };
            count++;
        }
        if (type != EV_SYN || code != SYN_REPORT) continue;
        long long due = (long long)start.tv_sec * 1000000000LL + start.tv_nsec + (long long)((t - first) * slower * 1e9);
        struct timespec at = { .tv_sec = due / 1000000000LL, .tv_nsec = due % 1000000000LL };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) != 0) {}
        ssize_t size = (ssize_t)(count * sizeof frame[0]);
        if (write(out, frame, (size_t)size) != size) {
            perror("write");
            return 1;
        }
        count = 0;
    }
    return 0;
}
