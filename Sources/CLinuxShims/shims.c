#include "CLinuxShims.h"
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/prctl.h>

int cls_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event event = { .events = events, .data.u64 = data };
    return epoll_ctl(epfd, op, fd, &event);
}

int cls_epoll_wait(int epfd, uint64_t *data, uint32_t *events, int max, int timeout_ms) {
    struct epoll_event ready[64];
    if (max > 64) max = 64;
    int n = epoll_wait(epfd, ready, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        data[i] = ready[i].data.u64;
        events[i] = ready[i].events;
    }
    return n;
}

int cls_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int cls_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }
int cls_accept4(int fd, int flags) { return accept4(fd, NULL, NULL, flags); }

int cls_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

int cls_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int cls_set_child_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

int cls_wifexited(int status) { return WIFEXITED(status); }
int cls_wexitstatus(int status) { return WEXITSTATUS(status); }
int cls_wifsignaled(int status) { return WIFSIGNALED(status); }
int cls_wtermsig(int status) { return WTERMSIG(status); }
