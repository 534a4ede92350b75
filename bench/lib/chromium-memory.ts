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
    labels?: string;
    dumps?: {
      process_totals?: Record<string, string>;
      allocators?: Record<string, { attrs?: Record<string, { units?: string; value?: string }> }>;
    };
  };
};

export type ProcessMemory = {
  pid: number;
  process: string;
  /** Resident set and private footprint from the process totals. */
  residentBytes: number;
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

export async function startMemoryDumps(browser: Browser): Promise<MemoryDumps> {
  const cdp: CDPSession = await browser.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    traceConfig: {
      includedCategories: ['disabled-by-default-memory-infra'],
      excludedCategories: ['*'],
      memoryDumpConfig: { triggers: [] } as unknown as Record<string, never>,
    },
    transferMode: 'ReportEvents',
  });
  return {
    async dump() {
      await cdp.send('Tracing.requestMemoryDump', { deterministic: false, levelOfDetail: 'detailed' });
    },
    async end() {
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach().catch(() => undefined);
      const names = new Map<number, string>();
      for (const e of events)
        if (e.ph === 'M' && e.name === 'process_name' && e.args?.name) names.set(e.pid, e.args.name);
      for (const e of events)
        if (e.ph === 'M' && e.name === 'process_labels' && e.args?.labels)
          names.set(e.pid, `${names.get(e.pid) ?? ''} (${e.args.labels})`);
      // One 'v' event per process per dump, with the dump's id: grouped by id, in time order.
      const byDump = new Map<string, ProcessMemory[]>();
      for (const e of events.filter((x) => x.ph === 'v' && x.args?.dumps).sort((a, b) => a.ts - b.ts)) {
        const id = (e as TraceEvent & { id?: string }).id ?? String(e.ts);
        const dumps = e.args!.dumps!;
        const allocators = new Map<string, number>();
        for (const [name, dump] of Object.entries(dumps.allocators ?? {})) {
          const size = dump.attrs?.size;
          if (size?.units === 'bytes') allocators.set(name, hex(size.value));
        }
        const processes = byDump.get(id) ?? [];
        processes.push({
          pid: e.pid,
          process: names.get(e.pid) ?? `pid ${e.pid}`,
          residentBytes: hex(dumps.process_totals?.resident_set_bytes),
          privateFootprintBytes: hex(dumps.process_totals?.private_footprint_bytes),
          allocators,
        });
        byDump.set(id, processes);
      }
      return [...byDump.values()];
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
    `  ${memory.process} (pid ${memory.pid}): resident ${(memory.residentBytes / MiB).toFixed(1)} MiB, private footprint ${(memory.privateFootprintBytes / MiB).toFixed(1)} MiB`,
    ...rows,
  ];
}

/**
 * The pid of the renderer process that hosts `page` and its workers (what Chrome's task manager lists as the tab): the
 * page makes a user-timing mark during a short trace, and the trace says which process made it. Chromium's own
 * renderers (its WebUI, a spare one kept warm) are other processes.
 */
export async function pageRendererPid(browser: Browser, page: Page): Promise<number> {
  const cdp = await browser.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['blink.user_timing'], excludedCategories: ['*'] },
    transferMode: 'ReportEvents',
  });
  const mark = `iws-bench-${randomUUID()}`;
  await page.evaluate((name) => performance.mark(name), mark);
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach().catch(() => undefined);
  const pid = events.find((e) => e.name === mark)?.pid;
  if (!pid) throw new Error("the page's renderer process could not be found in the trace");
  return pid;
}
