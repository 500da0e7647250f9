#!/usr/bin/env bash
# What creating `plc compile`'s files costs the file system alone, with no compiler
# (docs/performance.md, "What remains", the eighteenth round).
#
#   scripts/files-floor.sh DIR [N]      default N: 10000 (gen(10000)'s 20 000 files)
#
# Makes DIR/orchestration and DIR/kernels and, on two threads (one per directory, as
# `plc compile` does), N files in each the way plc writes them: an `openat` with
# O_CREAT | O_EXCL, one `write` of gen(N)'s sizes (2 275 and 780 bytes) and a `close`.
# Prints the wall and CPU time from GNU `/usr/bin/time`. DIR must not exist; it is left
# for you to remove (removing it right before the next run makes that run slower on ext4:
# see the docs).
set -euo pipefail
DIR=${1:?usage: scripts/files-floor.sh DIR [N]}
N=${2:-10000}
[ -e "$DIR" ] && { echo "$DIR exists" >&2; exit 2; }
BIN=$(mktemp -d)/files-floor
trap 'rm -rf "$(dirname "$BIN")"' EXIT
cc -O2 -pthread -x c -o "$BIN" - <<'C'
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char text[2275];
static const char *root;
static int n;

static void *make(void *arg) {
    long k = (long)arg;
    char dir[4096], name[64];
    snprintf(dir, sizeof dir, "%s/%s", root, k ? "kernels" : "orchestration");
    if (mkdir(dir, 0755) != 0) { perror(dir); exit(1); }
    int d = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, k ? "accumulate_band_%d_incore_0.cpp" : "entry_%d.cpp", i);
        int f = openat(d, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (f < 0) { perror(name); exit(1); }
        size_t len = k ? 780 : sizeof text;
        if (write(f, text, len) != (ssize_t)len) { perror(name); exit(1); }
        close(f);
    }
    close(d);
    return NULL;
}

int main(int argc, char **argv) {
    root = argv[1];
    n = atoi(argv[2]);
    memset(text, 'x', sizeof text);
    if (mkdir(root, 0755) != 0) { perror(root); return 1; }
    pthread_t t[2];
    for (long k = 0; k < 2; k++) pthread_create(&t[k], NULL, make, (void *)k);
    for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
    return 0;
}
C
/usr/bin/time -f "$((2 * N)) files in $DIR: %e s wall, %U s user, %S s system" "$BIN" "$DIR" "$N"
