#ifndef UNCENTER_CLIBUV_SHIM_H
#define UNCENTER_CLIBUV_SHIM_H
#include <uv.h>
#include <errno.h>
#include <sys/socket.h>

/// Reads the peer credentials of a connected Unix domain socket (SO_PEERCRED).
/// Linux's `struct ucred` is only declared under _GNU_SOURCE, which Swift's Glibc
/// module is not built with, so this mirrors its kernel ABI layout (three 32-bit
/// fields: pid, uid, gid). Returns 0 or a negative errno, like libuv calls do.
static inline int uncenter_peercred(int fd, int *pid, unsigned *uid, unsigned *gid) {
  struct { int pid; unsigned uid; unsigned gid; } cred;
  socklen_t len = sizeof(cred);
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -errno;
  if (len != sizeof(cred)) return -EINVAL;
  *pid = cred.pid;
  *uid = cred.uid;
  *gid = cred.gid;
  return 0;
}

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif

/// Reads the supplementary groups of a connected Unix domain socket's peer, as the
/// kernel recorded them at connect() (SO_PEERGROUPS, Linux 4.13).  `*count` is the
/// capacity of `groups` in entries, and on return how many there are; -ERANGE when
/// they do not fit (`*count` is then the number needed).  0 or a negative errno.
static inline int uncenter_peergroups(int fd, unsigned *groups, unsigned *count) {
  socklen_t len = (socklen_t)(*count * sizeof(unsigned));
  int r = getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len);
  *count = (unsigned)(len / sizeof(unsigned));
  return r == 0 ? 0 : -errno;
}

#endif
