import { z } from 'zod';

/** Payload every pipeline task receives (and passes on unchanged: tasks use ResultPath null). */
export const PipelineInputSchema = z.object({
  hospitalId: z.string().min(1),
  datasetId: z.string().min(1),
  /** One id per execution, for logs and idempotency; never PHI. */
  runId: z.string().min(1),
  /** Present in a series' branch of the Map state (shared/definitions/state-machine.ts): the series it works on. */
  seriesId: z.string().min(1).optional(),
  /** Present only on RecordFailure and RecordSeriesFailure: what the Catch put there. */
  error: z.object({ Error: z.string(), Cause: z.string().optional() }).optional(),
});
export type PipelineInput = z.infer<typeof PipelineInputSchema>;

/** What ListSeries returns for the Map state: the series to run and how many at once. */
export const SeriesPlanSchema = z.object({
  seriesIds: z.array(z.string().min(1)),
  /** The hospital's queue concurrency (docs/pipeline.md#series-in-parallel). */
  maxConcurrency: z.number().int().min(1),
});
export type SeriesPlan = z.infer<typeof SeriesPlanSchema>;
