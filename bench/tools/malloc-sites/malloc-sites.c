// malloc-sites: an LD_PRELOAD probe (bench tool, not part of the server; issue 22, i22g). For a sample
// of the glibc allocations whose usable size is in (512, 1024], (32768, 65536] or (65536, 131072)
// bytes (classes 0, 1, 2; every BT_EVERY0-th / BT_EVERY1-th / 2nd one, default 16 / 2 / 2), writes
// one line to $BT_OUT-<pid>.txt: class, usable size, thread id, wall-clock ms, then two stacks —
// glibc backtrace() (|N) and a frame-pointer walk (|F), which also crosses V8's JIT frames (node 20's
// binary and V8's generated code keep frame pointers). Every 2 s a "C" line has each class's count
// and bytes (all allocations, not only the sampled ones). free() is not tracked. See README.md.
//   gcc -O2 -shared -fPIC -fno-omit-frame-pointer -o malloc-sites.so malloc-sites.c -lpthread
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>
#include <malloc.h>
#include <execinfo.h>
#include <sys/syscall.h>
#include <time.h>
extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
static int fd = -1;
static long ctr[3];
static long cum[3];
static long every[3] = {16, 2, 2};
static __thread int busy;
static __thread unsigned long stlo, sthi;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static void stack_bounds(void) {
  pthread_attr_t a; void *lo; size_t sz;
  if (pthread_getattr_np(pthread_self(), &a) == 0) { pthread_attr_getstack(&a, &lo, &sz); stlo = (unsigned long)lo; sthi = stlo + sz; pthread_attr_destroy(&a); }
  else { stlo = 1; sthi = 1; }
}
static void sample(size_t u, int c) {
  busy = 1;
  if (!stlo) stack_bounds();
  void *nb[40]; int n = backtrace(nb, 40);
  unsigned long fb[64]; int f = 0;
  unsigned long fp = (unsigned long)__builtin_frame_address(0);
  while (f < 64 && fp >= stlo && fp + 16 <= sthi && (fp & 7) == 0) {
    unsigned long next = ((unsigned long *)fp)[0], ret = ((unsigned long *)fp)[1];
    fb[f++] = ret;
    if (next <= fp) break;
    fp = next;
  }
  struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts);
  char buf[4096]; int k = snprintf(buf, sizeof buf, "S %d %zu %ld %ld |N", c, u, (long)syscall(SYS_gettid), (long)(ts.tv_sec * 1000L + ts.tv_nsec / 1000000));
  for (int i = 1; i < n && k < 3900; i++) k += snprintf(buf + k, sizeof buf - k, " %lx", (unsigned long)nb[i]);
  k += snprintf(buf + k, sizeof buf - k, " |F");
  for (int i = 0; i < f && k < 4070; i++) k += snprintf(buf + k, sizeof buf - k, " %lx", fb[i]);
  buf[k++] = '\n';
  pthread_mutex_lock(&mu); if (write(fd, buf, k) < 0) {} pthread_mutex_unlock(&mu);
  busy = 0;
}
static inline void add(void *p) {
  if (!p || fd < 0 || busy) return;
  size_t u = malloc_usable_size(p); int c;
  if (u > 512 && u <= 1024) c = 0; else if (u > 32768 && u <= 65536) c = 1; else if (u > 65536 && u < 131072) c = 2; else return;
  __atomic_fetch_add(&cum[c], (long)u, __ATOMIC_RELAXED);
  if (__atomic_fetch_add(&ctr[c], 1, __ATOMIC_RELAXED) % every[c] == 0) sample(u, c);
}
static void *dumper(void *arg) {
  (void)arg; char b[256];
  for (;;) { sleep(2); int n = snprintf(b, sizeof b, "C %ld %ld %ld %ld %ld %ld\n", ctr[0], cum[0], ctr[1], cum[1], ctr[2], cum[2]);
    pthread_mutex_lock(&mu); if (write(fd, b, n) < 0) {} pthread_mutex_unlock(&mu); }
  return NULL;
}
__attribute__((constructor)) static void init(void) {
  const char *out = getenv("BT_OUT"); if (!out) return;
  busy = 1; void *x[4]; backtrace(x, 4);
  const char *e0 = getenv("BT_EVERY0"), *e1 = getenv("BT_EVERY1");
  if (e0) every[0] = atol(e0);
  if (e1) every[1] = atol(e1);
  char path[512]; snprintf(path, sizeof path, "%s-%d.txt", out, (int)getpid());
  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pthread_t th; pthread_create(&th, NULL, dumper, NULL);
  busy = 0;
}
void *malloc(size_t n) { void *p = __libc_malloc(n); add(p); return p; }
void free(void *p) { __libc_free(p); }
void *calloc(size_t a, size_t b) { void *p = __libc_calloc(a, b); add(p); return p; }
void *realloc(void *q, size_t n) { void *p = __libc_realloc(q, n); if (p && p != q) add(p); return p; }
void *memalign(size_t al, size_t n) { void *p = __libc_memalign(al, n); add(p); return p; }
void *aligned_alloc(size_t al, size_t n) { void *p = __libc_memalign(al, n); add(p); return p; }
int posix_memalign(void **r, size_t al, size_t n) { void *p = __libc_memalign(al, n); if (!p) return 12; add(p); *r = p; return 0; }
