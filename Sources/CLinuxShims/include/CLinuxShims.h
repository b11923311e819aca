#pragma once
// Linux system calls that Glibc's Swift overlay does not expose (epoll, timerfd,
// signalfd, pidfd) and function-like macros or packed structs Swift cannot use directly.
#ifdef __linux__
#include <stdint.h>
#include <sys/types.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <spawn.h>
#include <signal.h>
#include <sys/xattr.h>

/// epoll_ctl without the packed `struct epoll_event` (Swift cannot lay it out on x86_64).
int cls_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);

/// epoll_wait into two parallel arrays of at most `max` entries (max <= 64).
int cls_epoll_wait(int epfd, uint64_t *data, uint32_t *events, int max, int timeout_ms);

/// posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34, needs _GNU_SOURCE).
int cls_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from);

/// pipe2(2) and accept4(2), hidden from Swift without _GNU_SOURCE.
int cls_pipe2(int fds[2], int flags);
int cls_accept4(int fd, int flags);

/// getsockopt(SO_PEERCRED): `struct ucred` needs _GNU_SOURCE. 0, or -1 with errno set.
int cls_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/// pidfd_open(2): an fd that becomes readable when the process exits; -1 with errno set.
int cls_pidfd_open(pid_t pid);

/// prctl(PR_SET_CHILD_SUBREAPER, 1): orphaned descendants are reparented to this process
/// instead of init. 0, or -1 with errno set.
int cls_set_child_subreaper(void);

/// The wait(2) status macros.
int cls_wifexited(int status);
int cls_wexitstatus(int status);
int cls_wifsignaled(int status);
int cls_wtermsig(int status);

#endif
