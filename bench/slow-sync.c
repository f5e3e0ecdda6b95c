/*
 * A disk whose syncs are slow (a network volume), imitated for benches: every fsync and
 * fdatasync of the process takes SLOW_SYNC_US microseconds longer than the disk does. SQLite's
 * syncs and libuv's (the thread pool's) both go through these. Build and use it with
 *
 *   gcc -shared -fPIC -O2 -o /tmp/slow-sync.so bench/slow-sync.c -ldl
 *   LD_PRELOAD=/tmp/slow-sync.so SLOW_SYNC_US=3000 npm exec -- node bench/mixed-load.ts --side …
 *
 * (the servers a bench starts inherit both variables). Not part of the build, nor of the tests.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void slow_down(void) {
  const char *value = getenv("SLOW_SYNC_US");
  long us = value ? atol(value) : 0;
  if (us <= 0) return;
  struct timespec pause = { us / 1000000, (us % 1000000) * 1000 };
  nanosleep(&pause, 0);
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  int result = real(fd);
  slow_down();
  return result;
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  int result = real(fd);
  slow_down();
  return result;
}
