/* nbdkit-sleep: the reference for a plugin that blocks. Each read sleeps
   `us` microseconds in its own nbdkit thread (clock_nanosleep, timer slack
   1 ns), then returns zeros: what any plugin that waits for its answer
   costs nbdkit, with no model behind it. Built and used by
   bench/nbd_blocking.sh and bench/nbd_fidelity.sh:
     gcc -O2 -fPIC -shared -o sleep.so bench/nbd_sleep_plugin.c
     nbdkit -U SOCKET --threads 64 ./sleep.so us=37, then fio's nbd
     engine on SOCKET.                                                   */
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL

static long us = 20;

/* us=N: the sleep of each read, in microseconds. */
static int sleep_config(const char *key, const char *value) {
  if (strcmp(key, "us") != 0) {
    nbdkit_error("unknown parameter %s", key);
    return -1;
  }
  char *end;
  us = strtol(value, &end, 10);
  if (end == value || *end != '\0' || us < 0 || us > 1000000) {
    nbdkit_error("us: microseconds from 0 to 1000000, not '%s'", value);
    return -1;
  }
  return 0;
}

/* Every connection shares the one (stateless) disk. */
static void *sleep_open(int readonly) { return (void *)1; }

/* 1 GiB. */
static int64_t sleep_get_size(void *handle) { return INT64_C(1) << 30; }

/* Sleeps, then returns zeros. */
static int sleep_pread(void *handle, void *buf, uint32_t count, uint64_t offset,
                       uint32_t flags) {
  static __thread int slack_set;
  if (!slack_set) {
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    slack_set = 1;
  }
  if (us > 0) {
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    clock_nanosleep(CLOCK_MONOTONIC, 0, &t, NULL);
  }
  memset(buf, 0, count);
  return 0;
}

static struct nbdkit_plugin plugin = {
    .name = "sleep",
    .config = sleep_config,
    .open = sleep_open,
    .get_size = sleep_get_size,
    .pread = sleep_pread,
};

NBDKIT_REGISTER_PLUGIN(plugin)
