#pragma once
// Linux system calls that Glibc's Swift overlay does not expose (epoll, timerfd,
// signalfd, posix_spawn file actions) and function-like macros Swift cannot call.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>
#include <signal.h>
#endif
