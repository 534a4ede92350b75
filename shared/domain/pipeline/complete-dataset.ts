import { enterStage, type PipelineDeps, type StageInput } from './deps.ts';

/** PROCESSING → COMPLETE (conditional, audited); a retry finds it COMPLETE and does nothing. */
export async function completeDataset(input: StageInput, deps: PipelineDeps): Promise<void> {
  await enterStage(deps, input, 'PROCESSING', 'COMPLETE');
}
