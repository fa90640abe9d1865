/**
 * Where a process's resident memory sits, from /proc/<pid>/smaps: what is file-backed (the node
 * binary, libraries), glibc's main heap ([heap]), the stacks, and the anonymous mappings by size —
 * SharedArrayBuffers and large ArrayBuffers are one mapping each (past MALLOC_MMAP_THRESHOLD_), V8
 * heap pages are 256 KB mappings, glibc's thread arenas are 64 MB reservations (issue 22: what
 * holds the RSS that no heap or buffer accounts for).
 */
import { readFileSync } from 'node:fs';

export interface Mapping {
  readonly start: number;
  readonly size: number;
  readonly rss: number;
  readonly path: string;
}

export interface SmapsBreakdown {
  /** Resident bytes of file-backed mappings (binary, libraries, mapped files). */
  file: number;
  /** glibc's main arena (brk heap). */
  heap: number;
  stack: number;
  /** Anonymous mappings of ≥ 1 MB that are not 64 MB-aligned arena reservations: SABs, large ArrayBuffers, V8 large objects. */
  anonLarge: number;
  /** Anonymous mappings in glibc's 64 MB thread-arena reservations. */
  anonArenas: number;
  /** Other anonymous mappings (V8 heap pages, thread stacks, small mmaps). */
  anonSmall: number;
  total: number;
  /** The biggest resident anonymous mappings. */
  top: Mapping[];
}

const ARENA = 64 * 1024 * 1024;

export function readMappings(pid: number): Mapping[] {
  const text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const out: Mapping[] = [];
  let cur: { start: number; size: number; path: string } | null = null;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const start = parseInt(head[1], 16);
      cur = { start, size: parseInt(head[2], 16) - start, path: head[3] };
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && cur) out.push({ ...cur, rss: Number(rss[1]) * 1024 });
  }
  return out;
}

export function smapsBreakdown(pid: number, topN = 12): SmapsBreakdown {
  const maps = readMappings(pid);
  const b: SmapsBreakdown = { file: 0, heap: 0, stack: 0, anonLarge: 0, anonArenas: 0, anonSmall: 0, total: 0, top: [] };
  for (const m of maps) {
    b.total += m.rss;
    if (m.path === '[heap]') b.heap += m.rss;
    else if (m.path.startsWith('[stack')) b.stack += m.rss;
    else if (m.path !== '' && !m.path.startsWith('[')) b.file += m.rss;
    // A thread arena is a 64 MB-aligned reservation of up to 64 MB (its unused tail PROT_NONE).
    else if (m.start % ARENA === 0 && m.size <= ARENA) b.anonArenas += m.rss;
    else if (m.size >= 1 << 20) b.anonLarge += m.rss;
    else b.anonSmall += m.rss;
  }
  b.top = maps.filter((m) => m.path === '').sort((x, y) => y.rss - x.rss).slice(0, topN);
  return b;
}

/** VmRSS / VmHWM of a process, in bytes. */
export function procMemory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** CPU seconds (user + system) of a process, or of one thread with `tid`, from /proc. */
export function procCpuSeconds(pid: number, tid?: number): number {
  const fields = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
