/**
 * One measured run of a bench, in either of two modes, with one result shape:
 *
 * - closed loop (autocannon): `connections` clients each send the next request when the last one
 *   answered — the server's maximum throughput at that concurrency;
 * - open loop (fixed rate, ours): requests are *scheduled* at `rate`/s whatever the server does,
 *   over a keep-alive pool of `connections` sockets, and each latency runs from the request's
 *   scheduled time, not from when a socket was free. A stalled server therefore shows its stall in
 *   every request that should have been sent meanwhile — the coordinated-omission correction of
 *   wrk2 (autocannon's own `overallRate` resets a per-second budget and corrects with a fixed 1 ms
 *   interval, so it is not used for this).
 */
import http from 'node:http';
import autocannon from 'autocannon';
import { latencyStats, type LatencyStats } from '../report/machine.js';
import type { RequestTemplate } from './scenarios.js';

export interface LoadRunOptions {
  url: string;
  headers: Record<string, string>;
  requests: readonly RequestTemplate[];
  connections: number;
  /** Seconds to run, or undefined with `amount`. */
  durationS?: number;
  /** Requests to send, instead of a duration. */
  amount?: number;
  /** Open loop at this many requests per second; undefined: closed loop. */
  rate?: number;
  /** autocannon's live display on stderr (closed loop, terminals only). */
  live?: boolean;
  /** Give up on an answer after this many seconds (counted as a timeout). */
  timeoutS?: number;
}

export interface LoadRunResult {
  mode: 'closed' | 'open';
  connections: number;
  /** Offered requests per second (open loop), null for closed loop. */
  offered_rps: number | null;
  seconds: number;
  requests: number;
  /** Answers with a 2xx status per second. */
  throughput_rps: number;
  /** Percentiles of 2xx answers, ms (open loop: from the scheduled send time). */
  latency_ms: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

export function runLoad(options: LoadRunOptions): Promise<LoadRunResult> {
  return options.rate === undefined ? closedLoop(options) : openLoop(options, options.rate);
}

async function closedLoop(o: LoadRunOptions): Promise<LoadRunResult> {
  const requests = o.requests.map((t) => ({
    method: t.method, path: t.path, headers: { ...o.headers, 'content-type': t.contentType },
    setupRequest: (req: Record<string, unknown>) => ({ ...req, body: t.body() }),
  }));
  const started = performance.now();
  const instance = autocannon({
    url: o.url, connections: o.connections, timeout: o.timeoutS ?? 30,
    ...(o.amount !== undefined ? { amount: o.amount } : { duration: o.durationS ?? 10 }),
    requests,
  } as unknown as autocannon.Options) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  if (o.live && process.stderr.isTTY) autocannon.track(instance, { outputStream: process.stderr, renderResultsTable: false, renderLatencyTable: false });
  // autocannon's own histogram keeps whole milliseconds (a 0.4 ms search is a p50 of 0), so the
  // 2xx latencies are taken from its per-response event, with the fraction its hrtime measured —
  // the same percentiles as the open loop's.
  const okLatencies: number[] = [];
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) okLatencies.push(responseTime);
  });
  const r = await instance;
  const seconds = (performance.now() - started) / 1000;
  const statuses: Record<string, number> = {};
  for (const [code, v] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = (v as { count: number }).count;
  const ok = Object.entries(statuses).filter(([c]) => c.startsWith('2')).reduce((n, [, v]) => n + v, 0);
  return {
    mode: 'closed', connections: o.connections, offered_rps: null, seconds, requests: r.requests.total,
    throughput_rps: ok / seconds,
    latency_ms: latencyPercentiles(okLatencies),
    statuses, errors: r.errors, timeouts: r.timeouts,
  };
}

/** p50 … max and the mean of `samples` (ms), as both loops report them. */
function latencyPercentiles(samples: readonly number[]): LoadRunResult['latency_ms'] {
  const s: LatencyStats = latencyStats(samples);
  const p999 = samples.length === 0 ? NaN : Float64Array.from(samples).sort()[Math.max(0, Math.ceil(0.999 * samples.length) - 1)];
  return { p50: s.p50, p90: s.p90, p99: s.p99, p999, max: s.max, mean: s.mean };
}

function openLoop(o: LoadRunOptions, rate: number): Promise<LoadRunResult> {
  const target = new URL(o.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const total = o.amount ?? Math.max(1, Math.round(rate * (o.durationS ?? 10)));
  const timeoutMs = (o.timeoutS ?? 30) * 1000;
  const okLatencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let timeouts = 0;
  let sent = 0;
  let done = 0;
  const start = performance.now();
  return new Promise((resolve) => {
    const finish = () => {
      clearInterval(ticker);
      agent.destroy();
      const seconds = (performance.now() - start) / 1000;
      resolve({
        mode: 'open', connections: o.connections, offered_rps: rate, seconds, requests: done, throughput_rps: okLatencies.length / seconds,
        latency_ms: latencyPercentiles(okLatencies), statuses, errors, timeouts,
      });
    };
    const sendOne = (i: number) => {
      const scheduled = start + (i * 1000) / rate;
      const t = o.requests[i % o.requests.length];
      const body = t.body();
      const req = http.request({
        agent, host: target.hostname, port: target.port, method: t.method, path: t.path,
        headers: { ...o.headers, 'content-type': t.contentType, 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        res.resume();
        res.on('end', () => {
          const code = String(res.statusCode);
          statuses[code] = (statuses[code] ?? 0) + 1;
          if (code.startsWith('2')) okLatencies.push(performance.now() - scheduled);
          if (++done === total) finish();
        });
      });
      req.setTimeout(timeoutMs, () => {
        timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        errors++;
        if (++done === total) finish();
      });
      req.end(body);
    };
    // Every millisecond, send what the schedule says should have gone by now (timers are coarse;
    // the latency still counts from each request's own scheduled time).
    const ticker = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (sent < due) sendOne(sent++);
    }, 1);
  });
}
