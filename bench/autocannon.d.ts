// Minimal types for autocannon (it ships none): what bench/load.ts uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';
  export type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number };
  export type Result = {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    statusCodeStats?: Record<string, { count: number }>;
  };
  export type Client = { setHeaders(headers: Record<string, string>): void };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    connectionRate?: number;
    overallRate?: number;
    method?: string;
    headers?: Record<string, string>;
    setupClient?: (client: Client) => void;
  };
  export type Instance = EventEmitter & { stop(): void };
  export default function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
}
