#include "CLinuxShims.h"
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <link.h>

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

struct cls_tables { long released; int error; uintptr_t *start; uintptr_t *length; };

/// Releases [start, start + size) rounded inward to pages, if it lies in a read-only PT_LOAD.
static void cls_release(struct dl_phdr_info *info, uintptr_t start, uintptr_t size, struct cls_tables *out) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t first = (start + page - 1) & ~(page - 1), last = (start + size) & ~(page - 1);
    if (size == 0 || last <= first) return;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W) || first < lo || last > hi) continue;
        if (madvise((void *)first, last - first, MADV_DONTNEED) != 0) {
            out->error = errno;
        } else {
            out->released += (long)(last - first);
            if (last - first > *out->length) { *out->start = first; *out->length = last - first; }
        }
        return;
    }
}

static int cls_release_executable_tables(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct cls_tables *out = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
        const ElfW(Dyn) *dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
        uintptr_t rela = 0, relasz = 0, rel = 0, relsz = 0, relr = 0, relrsz = 0;
        for (; dyn->d_tag != DT_NULL; dyn++) {
            switch (dyn->d_tag) {
            case DT_RELA: rela = dyn->d_un.d_ptr; break;
            case DT_RELASZ: relasz = dyn->d_un.d_val; break;
            case DT_REL: rel = dyn->d_un.d_ptr; break;
            case DT_RELSZ: relsz = dyn->d_un.d_val; break;
            case 36 /* DT_RELR */: relr = dyn->d_un.d_ptr; break;
            case 35 /* DT_RELRSZ */: relrsz = dyn->d_un.d_val; break;
            }
        }
        // ld.so rebases some of these entries in place and not others: an address below
        // the load base is still an offset.
        uintptr_t base = info->dlpi_addr;
        if (rela) cls_release(info, rela < base ? rela + base : rela, relasz, out);
        if (rel) cls_release(info, rel < base ? rel + base : rel, relsz, out);
        if (relr) cls_release(info, relr < base ? relr + base : relr, relrsz, out);
    }
    return 1; // the first object is the executable; stop there
}

long cls_release_relocation_tables(uintptr_t *start, uintptr_t *length) {
    *start = 0;
    *length = 0;
    struct cls_tables out = { 0, 0, start, length };
    dl_iterate_phdr(cls_release_executable_tables, &out);
    return out.error && out.released == 0 ? -out.error : out.released;
}
