/**
 * Chromium's memory as the benches read it: which process is the page's, and Chromium's own account of where a
 * process's memory goes (the memory-infra dumps chrome://tracing shows: V8, Blink's garbage-collected heap,
 * PartitionAlloc, malloc and the rest), taken when a PSS figure needs explaining: a diagnosis, not a figure to compare.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, CDPSession, Page } from 'playwright-core';

type TraceEvent = {
  ph: string;
  pid: number;
  name: string;
  ts: number;
  args?: {
    name?: string;
    dumps?: {
      process_totals?: Record<string, string>;
      allocators?: Record<string, { attrs?: Record<string, { units?: string; value?: string }> }>;
    };
  };
};

export type ProcessMemory = {
  pid: number;
  process: string;
  /** The process's private footprint, from its totals. */
  privateFootprintBytes: number;
  /** Bytes per allocator dump name ('v8', 'partition_alloc/partitions/buffer', …), their `size` attribute. */
  allocators: Map<string, number>;
};

export type MemoryDumps = {
  /** Asks every process for a detailed dump now. */
  dump(): Promise<void>;
  /** Ends the trace: the dumps taken, one array of processes per dump, in order. */
  end(): Promise<ProcessMemory[][]>;
};

const hex = (value: string | undefined) => (value ? Number.parseInt(value, 16) : 0);

/** A browser-wide trace of the given categories: `end` stops it and answers its events. One trace runs at a time. */
async function startTrace(
  browser: Browser,
  traceConfig: Record<string, unknown>,
): Promise<{ cdp: CDPSession; end(): Promise<TraceEvent[]> }> {
  const cdp = await browser.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    traceConfig: { excludedCategories: ['*'], ...traceConfig },
    transferMode: 'ReportEvents',
  });
  return {
    cdp,
    async end() {
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach().catch(() => undefined);
      return events;
    },
  };
}

export async function startMemoryDumps(browser: Browser): Promise<MemoryDumps> {
  const trace = await startTrace(browser, {
    includedCategories: ['disabled-by-default-memory-infra'],
    memoryDumpConfig: { triggers: [] },
  });
  return {
    async dump() {
      await trace.cdp.send('Tracing.requestMemoryDump', { deterministic: false, levelOfDetail: 'detailed' });
    },
    async end() {
      const events = await trace.end();
      const names = new Map<number, string>();
      for (const e of events)
        if (e.ph === 'M' && e.name === 'process_name' && e.args?.name) names.set(e.pid, e.args.name);
      // A process answers a dump in several 'v' events (its totals, its allocators), all with the dump's id: merged
      // per process, dumps in time order.
      const byDump = new Map<string, Map<number, ProcessMemory>>();
      for (const e of events.filter((x) => x.ph === 'v' && x.args?.dumps).sort((a, b) => a.ts - b.ts)) {
        const id = (e as TraceEvent & { id?: string }).id ?? String(e.ts);
        const dumps = e.args!.dumps!;
        const processes = byDump.get(id) ?? new Map<number, ProcessMemory>();
        byDump.set(id, processes);
        const memory = processes.get(e.pid) ?? {
          pid: e.pid,
          process: names.get(e.pid) ?? `pid ${e.pid}`,
          privateFootprintBytes: 0,
          allocators: new Map<string, number>(),
        };
        processes.set(e.pid, memory);
        memory.privateFootprintBytes ||= hex(dumps.process_totals?.private_footprint_bytes);
        for (const [name, dump] of Object.entries(dumps.allocators ?? {})) {
          const size = dump.attrs?.size;
          if (size?.units === 'bytes') memory.allocators.set(name, hex(size.value));
        }
      }
      return [...byDump.values()].map((processes) => [...processes.values()]);
    },
  };
}

/** The largest allocators of a process, top-level and one level down, as lines to print. */
export function describeProcessMemory(memory: ProcessMemory, top = 14): string[] {
  const MiB = 1024 * 1024;
  const rows = [...memory.allocators.entries()]
    .filter(([name]) => name.split('/').length <= 2 || /^partition_alloc\/partitions\//.test(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, bytes]) => `    ${name.padEnd(48)} ${(bytes / MiB).toFixed(1).padStart(7)} MiB`);
  return [
    `  ${memory.process} (pid ${memory.pid}): private footprint ${(memory.privateFootprintBytes / MiB).toFixed(1)} MiB`,
    ...rows,
  ];
}

/**
 * The pid of the renderer process that hosts `page` and its workers (what Chrome's task manager lists as the tab): the
 * page makes a user-timing mark during a short trace, and the trace says which process made it. Chromium's own
 * renderers (its WebUI, a spare one kept warm) are other processes.
 */
export async function pageRendererPid(browser: Browser, page: Page): Promise<number> {
  const trace = await startTrace(browser, { includedCategories: ['blink.user_timing'] });
  const mark = `iws-bench-${randomUUID()}`;
  await page.evaluate((name) => performance.mark(name), mark);
  const pid = (await trace.end()).find((e) => e.name === mark)?.pid;
  if (!pid) throw new Error("the page's renderer process could not be found in the trace");
  return pid;
}
