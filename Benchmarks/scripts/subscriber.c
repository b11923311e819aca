/* A subscriber of the daemon's event stream for the end-to-end latency measurement
 * (daemon-bench.py): stamps each event line with CLOCK_MONOTONIC as read() returns it, so
 * the figure is the daemon's and the kernel's, not an interpreter's.
 *
 *     subscriber SOCKET MATCH COUNT
 *
 * Subscribes on SOCKET, prints "subscribed" once the daemon has said ok, then prints the
 * time in ns of each line containing MATCH, and exits after COUNT of them (or at EOF). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: subscriber SOCKET MATCH COUNT\n");
        return 2;
    }
    const char *match = argv[2];
    long wanted = strtol(argv[3], NULL, 10);
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    if (strlen(argv[1]) >= sizeof address.sun_path) {
        fprintf(stderr, "%s: path too long\n", argv[1]);
        return 2;
    }
    strcpy(address.sun_path, argv[1]);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        perror(argv[1]);
        return 1;
    }
    const char request[] = "{\"cmd\": \"subscribe\"}\n";
    if (write(fd, request, sizeof request - 1) != (ssize_t)(sizeof request - 1)) {
        perror("write");
        return 1;
    }
    static char buffer[1 << 16];
    size_t used = 0;
    long found = 0;
    int subscribed = 0;
    while (found < wanted) {
        ssize_t n = read(fd, buffer + used, sizeof buffer - used - 1);
        long long stamp = now_ns();
        if (n <= 0) break;
        used += (size_t)n;
        buffer[used] = 0;
        char *line = buffer, *end;
        while ((end = strchr(line, '\n')) != NULL) {
            *end = 0;
            if (!subscribed) {
                if (!strstr(line, "\"ok\"")) {
                    fprintf(stderr, "subscribe refused: %s\n", line);
                    return 1;
                }
                subscribed = 1;
                printf("subscribed\n");
                fflush(stdout);
            } else if (strstr(line, match) && found < wanted) {
                printf("%lld\n", stamp);
                found++;
            }
            line = end + 1;
        }
        used = (size_t)(buffer + used - line);
        memmove(buffer, line, used);
        if (used == sizeof buffer - 1) used = 0; /* a line longer than the buffer: drop it */
    }
    fflush(stdout);
    return found == wanted ? 0 : 1;
}
