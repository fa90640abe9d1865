#!/usr/bin/env python3
"""malloc-sites symboliser: the probe's samples inside the load's window, as bytes per document by
allocating thread (main = the coordinator; worker = a thread whose stacks ever show workers/ code;
v8/other = V8's platform threads: TurboFan jobs, concurrent GC), the first frame that is not an
allocator, and the first JS frame. Node's own frames from `nm -C /usr/bin/node` (not PIE), JIT frames
from the perf map, shared libraries from the maps. `--full N` prints whole stacks (N frames) instead.

  python3 bench/tools/malloc-sites/sites.py DIR PID DOCS [--every 16,2,2] [--top 25] [--full 14]
"""
import bisect, collections, re, subprocess, sys

args = sys.argv[1:]
opt = {'--every': '16,2,2', '--top': '25', '--full': '0'}
pos = []
while args:
    a = args.pop(0)
    if a in opt: opt[a] = args.pop(0)
    else: pos.append(a)
d, pid, docs = pos[0], pos[1], int(pos[2])
every = [int(x) for x in opt['--every'].split(',')]
top, full = int(opt['--top']), int(opt['--full'])
marks = {}
for l in open(f'{d}/mark-{pid}.txt'):
    k, v = l.split(); marks[k] = int(v)
syms = []
for l in subprocess.run(['nm', '-C', '--defined-only', '/usr/bin/node'], capture_output=True, text=True).stdout.splitlines():
    p = l.split(' ', 2)
    if len(p) == 3 and p[1] in 'tTwW': syms.append((int(p[0], 16), p[2]))
syms.sort(); saddr = [a for a, _ in syms]
jit = []
for l in open(f'{d}/perf-{pid}.map'):
    a, s, n = l.rstrip('\n').split(' ', 2); jit.append((int(a, 16), int(s, 16), n))
jit.sort(); jaddr = [a for a, _, _ in jit]
maps = []
for l in open(f'{d}/maps-{pid}.txt'):
    p = l.split(); lo, hi = [int(x, 16) for x in p[0].split('-')]
    maps.append((lo, hi, p[5] if len(p) > 5 else ''))
cache = {}
def sym(a):
    if a in cache: return cache[a]
    r = None
    i = bisect.bisect_right(jaddr, a) - 1
    if i >= 0 and jit[i][0] <= a < jit[i][0] + jit[i][1]: r = jit[i][2]
    if r is None and a < 0x10000000:
        i = bisect.bisect_right(saddr, a) - 1
        r = re.sub(r'\(.*\)( const)?$', '', syms[i][1]) if i >= 0 else hex(a)
    if r is None:
        r = next((n.split('/')[-1] + '+' + hex(a - lo) for lo, hi, n in maps if lo <= a < hi), hex(a))
    cache[a] = r
    return r
ALLOC = ('libstdc++', 'malloc-sites', 'node::NodeArrayBufferAllocator', 'v8::internal::Heap::AllocateExternalBackingStore',
         'v8::internal::BackingStore', 'v8::internal::AllocAtLeastWithRetry', 'v8::internal::AccountingAllocator', 'v8::internal::Malloced',
         'v8::internal::AlignedAllocWithRetry', 'operator new', 'libc.so', 'v8::ArrayBuffer::NewBackingStore', 'v8::internal::AllocWithRetry',
         'node::Malloc', 'node::UncheckedMalloc', 'node::Realloc', 'node::UncheckedRealloc')
rows, worker_tids = [], set()
for l in open(f'{d}/out-{pid}.txt'):
    if not l.startswith('S '): continue
    head, _, f = l.rstrip('\n').split(' |')
    _, c, u, tid, ts = head.split()
    fr = [sym(int(x, 16)) for x in f.split()[1:]]
    fr = [x for x in fr if not x.startswith('malloc-sites')]
    if any('workers/' in x for x in fr): worker_tids.add(tid)
    if marks['load-start'] <= int(ts) <= marks['load-end']: rows.append((int(c), int(u), tid, fr))
agg = [collections.Counter() for _ in every]; tot = [0] * len(every)
for c, u, tid, fr in rows:
    thr = 'main' if tid == pid else 'worker' if tid in worker_tids else 'v8/other'
    if full:
        key = f'{thr:8} ' + ' < '.join(fr[:full])
    else:
        nat = next((x for x in fr if not x.startswith(ALLOC)), '?')[:70]
        js = re.sub(r'file://\S*/dist/', '', next((x[3:] for x in fr if x.startswith('JS:') and ' node:' not in x), ''))
        if any('Zone::Expand' in x for x in fr[:4]): nat, js = 'V8 Zone segment (TurboFan, parser)', ''
        key = f'{thr:8} {nat} @ {js}'
    agg[c][key] += u * every[c]; tot[c] += u * every[c]
for c, name in enumerate(['(512, 1024]', '(32768, 65536]', '(65536, 131072)'][:len(every)]):
    print(f'=== {name} bytes: {tot[c] / docs:.0f} B/doc during the load')
    for k, v in agg[c].most_common(top): print(f'{v / docs:7.0f} B/doc  {k}')
