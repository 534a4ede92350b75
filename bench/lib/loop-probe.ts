import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Clock ticks per second of /proc's thread times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/** CPU time (ms) the process's main thread has used, from /proc (Linux); undefined elsewhere. */
function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state(0) ... utime(11) stime(12).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

export type LoopStall = { atMs: number; wallMs: number; cpuMs: number | undefined };

/**
 * Watches this process's event loop: the delay histogram (perf_hooks.monitorEventLoopDelay) and every stall longer
 * than `stallMs`, with the CPU time the main thread itself used meanwhile. A stall whose CPU time is close to its
 * length is synchronous work on the loop; one with little CPU time is the thread waiting for a core (other processes)
 * or for a stop-the-world pause of another thread.
 */
export function startLoopProbe(stallMs = 500, tickMs = 50) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  const stalls: LoopStall[] = [];
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    const wallMs = now - last - tickMs;
    if (wallMs >= stallMs)
      stalls.push({
        atMs: last - started,
        wallMs,
        cpuMs: cpu !== undefined && lastCpu !== undefined ? cpu - lastCpu : undefined,
      });
    last = now;
    lastCpu = cpu;
  }, tickMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      histogram.disable();
      const ms = (ns: number) => ns / 1e6;
      return {
        p50Ms: ms(histogram.percentile(50)),
        p99Ms: ms(histogram.percentile(99)),
        maxMs: ms(histogram.max),
        stalls,
      };
    },
  };
}
