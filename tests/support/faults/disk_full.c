/* A full disk for one file, by LD_PRELOAD: write(2) (and pwrite, pwritev) to a file whose path contains
 * SOLVENT_FAULT_MATCH fails with ENOSPC once SOLVENT_FAULT_AFTER bytes have gone to such
 * files, and goes on failing for SOLVENT_FAULT_FAILURES calls (default: for ever) — a disk
 * that fills, or one that fills for a moment and frees again. Other files are untouched, so
 * the run can still write its record about the failure. With SOLVENT_FAULT_DISK set, the
 * disk is one: once a write has failed, every write to a file whose path contains it fails
 * too, until a file whose path contains SOLVENT_FAULT_FREED_BY is removed (room given back).
 * A real full disk needs a mount (root, a tmpfs), which a test cannot count on. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static long long written = 0;
static long long failures = 0;
static int freed = 0;

static int path_contains(int fd, const char* match) {
  if (match == NULL || fd < 3) return 0;
  char link[64], path[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = '\0';
  return strstr(path, match) != NULL;
}

static void note_removal(const char* path) {
  const char* frees = getenv("SOLVENT_FAULT_FREED_BY");
  if (frees != NULL && path != NULL && strstr(path, frees) != NULL) freed = 1;
}

int unlink(const char* path) {
  static int (*real_unlink)(const char*) = NULL;
  if (real_unlink == NULL) real_unlink = (int (*)(const char*))dlsym(RTLD_NEXT, "unlink");
  note_removal(path);
  return real_unlink(path);
}

int remove(const char* path) {
  static int (*real_remove)(const char*) = NULL;
  if (real_remove == NULL) real_remove = (int (*)(const char*))dlsym(RTLD_NEXT, "remove");
  note_removal(path);
  return real_remove(path);
}

/* Whether a write of `count` bytes to fd fails for want of room (errno set). */
static int full(int fd, size_t count) {
  if (!freed && failures > 0 && path_contains(fd, getenv("SOLVENT_FAULT_DISK"))) {
    errno = ENOSPC;
    return 1;
  }
  if (path_contains(fd, getenv("SOLVENT_FAULT_MATCH"))) {
    const char* after = getenv("SOLVENT_FAULT_AFTER");
    const char* limit = getenv("SOLVENT_FAULT_FAILURES");
    const long long budget = after ? atoll(after) : 0;
    const long long max_failures = limit ? atoll(limit) : -1;
    if (written + (long long)count > budget && (max_failures < 0 || failures < max_failures)) {
      ++failures;
      errno = ENOSPC;
      return 1;
    }
    written += (long long)count;
  }
  return 0;
}

ssize_t write(int fd, const void* buf, size_t count) {
  static ssize_t (*real_write)(int, const void*, size_t) = NULL;
  if (real_write == NULL) real_write = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
  if (full(fd, count)) return -1;
  return real_write(fd, buf, count);
}

/* HDF5 and MPI-IO write at offsets (pwrite, pwritev): the same disk for them. */
ssize_t pwrite(int fd, const void* buf, size_t count, off_t offset) {
  static ssize_t (*real_pwrite)(int, const void*, size_t, off_t) = NULL;
  if (real_pwrite == NULL)
    real_pwrite = (ssize_t(*)(int, const void*, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
  if (full(fd, count)) return -1;
  return real_pwrite(fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void* buf, size_t count, off_t offset) {
  return pwrite(fd, buf, count, offset);
}

ssize_t pwritev(int fd, const struct iovec* iov, int n, off_t offset) {
  static ssize_t (*real_pwritev)(int, const struct iovec*, int, off_t) = NULL;
  if (real_pwritev == NULL)
    real_pwritev = (ssize_t(*)(int, const struct iovec*, int, off_t))dlsym(RTLD_NEXT, "pwritev");
  size_t count = 0;
  for (int i = 0; i < n; ++i) count += iov[i].iov_len;
  if (full(fd, count)) return -1;
  return real_pwritev(fd, iov, n, offset);
}
