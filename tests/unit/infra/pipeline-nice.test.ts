import { describe, expect, it } from 'vitest';
import { PIPELINE_WORKER_NICE, pipelineWorkerNice } from '#infra/local/sfn.ts';

describe("the pipeline worker's priority (PIPELINE_NICE)", () => {
  it('takes a niceness from 0 to 19 and keeps the default for anything else', () => {
    expect(pipelineWorkerNice(undefined)).toBe(PIPELINE_WORKER_NICE);
    expect(pipelineWorkerNice('')).toBe(PIPELINE_WORKER_NICE);
    expect(pipelineWorkerNice('0')).toBe(0);
    expect(pipelineWorkerNice('10')).toBe(10);
    expect(pipelineWorkerNice('19')).toBe(19);
    for (const wrong of ['-1', '20', '2.5', 'low']) expect(pipelineWorkerNice(wrong)).toBe(PIPELINE_WORKER_NICE);
  });
});
