/* What a long-running MPI process holds, read from /proc (Linux): the
 * preload tests bound their growth over thousands of calls and
 * communicators (tests/preload/preload_client.c, preload_soak.c). */
#ifndef MCB_TESTS_PROC_STATS_H
#define MCB_TESTS_PROC_STATS_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>

struct proc_stats {
  long mappings; /* lines of /proc/self/maps */
  long fds;      /* entries of /proc/self/fd */
  long shm;      /* entries of /dev/shm (the whole node's: other jobs count too) */
  long rss_kib;  /* VmRSS of /proc/self/status */
};

static long proc_count_lines(const char* path) {
  FILE* f = fopen(path, "r");
  if (!f) return -1;
  long n = 0;
  for (int c; (c = fgetc(f)) != EOF;) n += c == '\n';
  fclose(f);
  return n;
}

static long proc_count_entries(const char* path) {
  DIR* d = opendir(path);
  if (!d) return -1;
  long n = 0;
  for (struct dirent* e; (e = readdir(d)) != NULL;)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) ++n;
  closedir(d);
  return n;
}

static long proc_rss_kib(void) {
  FILE* f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kib = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  fclose(f);
  return kib;
}

static struct proc_stats proc_stats_now(void) {
  struct proc_stats s;
  s.mappings = proc_count_lines("/proc/self/maps");
  s.fds = proc_count_entries("/proc/self/fd") - 1; /* less the one opendir holds */
  s.shm = proc_count_entries("/dev/shm");
  s.rss_kib = proc_rss_kib();
  return s;
}

#endif
