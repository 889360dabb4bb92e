#ifndef UNCENTER_CFILEIDENTITY_SHIM_H
#define UNCENTER_CFILEIDENTITY_SHIM_H
/// The calling thread's file-system identity (fsuid, fsgid, supplementary groups),
/// changed with raw system calls.
///
/// Linux keeps credentials per thread.  glibc's setgroups, like setuid and setgid,
/// signals every thread of the process to make the change process-wide (POSIX asks for
/// that); the system call itself changes only the calling thread.  The daemon reads a
/// client's attachment on a thread of its own that takes the client's identity for the
/// open, so it must never go through the wrappers.  Swift cannot call the variadic
/// syscall(2), hence these functions.  32-bit ABIs with 16-bit ids have the *32 calls.
#include <errno.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Sets the calling thread's supplementary groups.  0 or a negative errno.
static inline int uncenter_thread_setgroups(size_t count, const unsigned int *groups) {
#ifdef SYS_setgroups32
  long r = syscall(SYS_setgroups32, count, groups);
#else
  long r = syscall(SYS_setgroups, count, groups);
#endif
  return r == 0 ? 0 : -errno;
}

/// The calling thread's supplementary groups: their count (with capacity 0, only the
/// count), or a negative errno.
static inline int uncenter_thread_getgroups(int capacity, unsigned int *groups) {
#ifdef SYS_getgroups32
  long r = syscall(SYS_getgroups32, capacity, groups);
#else
  long r = syscall(SYS_getgroups, capacity, groups);
#endif
  return r < 0 ? -errno : (int)r;
}

/// Sets the calling thread's fsuid; returns the previous one whether or not it changed
/// (the kernel reports no error).  An invalid id (UINT_MAX) changes nothing: a read.
static inline unsigned int uncenter_thread_setfsuid(unsigned int uid) {
#ifdef SYS_setfsuid32
  return (unsigned int)syscall(SYS_setfsuid32, uid);
#else
  return (unsigned int)syscall(SYS_setfsuid, uid);
#endif
}

/// The same for the fsgid.
static inline unsigned int uncenter_thread_setfsgid(unsigned int gid) {
#ifdef SYS_setfsgid32
  return (unsigned int)syscall(SYS_setfsgid32, gid);
#else
  return (unsigned int)syscall(SYS_setfsgid, gid);
#endif
}

#endif
