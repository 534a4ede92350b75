/**
 * Concurrent executions reserved for each API domain's Lambda, which is also the most it runs at once: a burst on
 * one domain neither starves the others nor the pipeline of account concurrency. Beyond it a request is refused
 * (TOO_MANY_REQUESTS).
 */
export const API_RESERVED_CONCURRENCY = 20;
