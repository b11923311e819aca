/* Appends CLOCK_MONOTONIC in nanoseconds to a file: the command action of the end-to-end
 * latency measurement (daemon-bench.py), exec'd by the daemon's shell, so its time is that
 * of the command's process having started. */
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if (argc != 2) {
        fprintf(stderr, "usage: stamp FILE\n");
        return 2;
    }
    FILE *out = fopen(argv[1], "a");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    fprintf(out, "%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
    return fclose(out) == 0 ? 0 : 1;
}
