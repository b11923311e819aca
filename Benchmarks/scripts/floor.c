/* What this machine charges for the daemon's path with none of the daemon's work in it,
 * for daemon-bench.py to print beside the daemon's figures:
 *
 *     floor latency COUNT INTERVAL_MS   a timerfd re-armed for each due time (as --replay
 *                                       paces frames), one line per wake written to a Unix
 *                                       stream socket, read by a child that stamps it;
 *                                       prints p50 and p99 from due time to the read, in µs
 *     floor cpu SECONDS HZ              the same timer wakes alone at HZ; prints the CPU
 *                                       time they cost, in % of one core (schedstat)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long runtime_ns(void) {
    long long ns = -1;
    FILE *f = fopen("/proc/self/schedstat", "r");
    if (f) {
        if (fscanf(f, "%lld", &ns) != 1) ns = -1;
        fclose(f);
    }
    return ns;
}

static int compare(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* A timerfd in an epoll set, as the daemon's loop holds its replay timer. */
struct pacer { int epoll, timer; };

static struct pacer pacer_open(void) {
    struct pacer p = { epoll_create1(EPOLL_CLOEXEC), timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC) };
    struct epoll_event event = { .events = EPOLLIN };
    if (p.epoll < 0 || p.timer < 0 || epoll_ctl(p.epoll, EPOLL_CTL_ADD, p.timer, &event) != 0) {
        perror("floor: epoll/timerfd");
        exit(1);
    }
    return p;
}

static void pacer_wait(struct pacer *p, long long due) {
    struct itimerspec spec = { .it_value = { .tv_sec = due / 1000000000LL, .tv_nsec = due % 1000000000LL } };
    struct epoll_event event;
    uint64_t expirations;
    timerfd_settime(p->timer, TFD_TIMER_ABSTIME, &spec, NULL);
    while (epoll_wait(p->epoll, &event, 1, -1) != 1) {}
    if (read(p->timer, &expirations, sizeof expirations) != sizeof expirations) exit(1);
}

static int latency(int count, long long interval_ns) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        perror("floor: socketpair");
        return 1;
    }
    pid_t reader = fork();
    if (reader == 0) {
        long long *late = calloc((size_t)count, sizeof *late), due;
        int n = 0;
        close(pair[0]);
        while (n < count && read(pair[1], &due, sizeof due) == sizeof due) late[n++] = now_ns() - due;
        qsort(late, (size_t)n, sizeof *late, compare);
        if (n == 0) return 1;
        printf("latency_p50_us=%.1f latency_p99_us=%.1f\n", late[n / 2] / 1e3,
               late[(n * 99 + 99) / 100 - 1] / 1e3);
        return 0;
    }
    close(pair[1]);
    struct pacer p = pacer_open();
    long long start = now_ns() + interval_ns;
    for (int i = 0; i < count; i++) {
        long long due = start + i * interval_ns;
        pacer_wait(&p, due);
        if (write(pair[0], &due, sizeof due) != sizeof due) return 1;
    }
    int status;
    waitpid(reader, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int cpu(int seconds, int hz) {
    struct pacer p = pacer_open();
    long long start = now_ns(), before = runtime_ns();
    for (long long i = 1; i <= (long long)seconds * hz; i++) pacer_wait(&p, start + i * 1000000000LL / hz);
    printf("cpu_percent=%.3f\n", (runtime_ns() - before) / 1e9 / seconds * 100);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "latency") == 0) return latency(atoi(argv[2]), atoll(argv[3]) * 1000000LL);
    if (argc == 4 && strcmp(argv[1], "cpu") == 0) return cpu(atoi(argv[2]), atoi(argv[3]));
    fprintf(stderr, "usage: floor latency COUNT INTERVAL_MS | floor cpu SECONDS HZ\n");
    return 2;
}
