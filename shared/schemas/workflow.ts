import { z } from 'zod';

/** Payload every pipeline task receives (and passes on unchanged: tasks use ResultPath null). */
export const PipelineInputSchema = z.object({
  hospitalId: z.string().min(1),
  datasetId: z.string().min(1),
  /** One id per execution, for logs and idempotency; never PHI. */
  runId: z.string().min(1),
  /** Present only on RecordFailure: what the Catch put there. */
  error: z.object({ Error: z.string(), Cause: z.string().optional() }).optional(),
});
export type PipelineInput = z.infer<typeof PipelineInputSchema>;
