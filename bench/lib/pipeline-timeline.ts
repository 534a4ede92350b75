/**
 * A dataset's pipeline timeline from its audit history (GET /api/datasets/{id}/history: events oldest first, each
 * with `at`, `action` and, for STATUS_CHANGED, `details.to`): how long the dataset stayed in each status, and the
 * steps audited inside a stage (e.g. SERIES_CONVERTED, REPORT_BUILT within PROCESSING).
 */
export type HistoryEvent = { id: string; at: string; action: string; details?: Record<string, unknown> };

export type StageTiming = {
  status: string;
  startedAt: number;
  endedAt: number;
  ms: number;
  /** Audited events inside the stage, each with the time since the previous event (or the stage start). */
  steps: { action: string; sinceStartMs: number; sincePreviousMs: number }[];
};

export type PipelineTimeline = {
  createdAt: number;
  endedAt: number;
  finalStatus: string;
  stages: StageTiming[];
};

/** Stages from the status transitions; the creation event opens CREATED. The last status has no duration. */
export function pipelineTimeline(events: HistoryEvent[]): PipelineTimeline {
  const sorted = [...events].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const created = sorted.find((event) => event.action === 'DATASET_CREATED') ?? sorted[0];
  if (!created) throw new Error('the dataset history is empty');
  const transitions = [
    { status: 'CREATED', at: Date.parse(created.at) },
    ...sorted
      .filter((event) => event.action === 'STATUS_CHANGED')
      .map((event) => ({ status: String(event.details?.to), at: Date.parse(event.at) })),
  ];
  const stages: StageTiming[] = [];
  for (let index = 0; index + 1 < transitions.length; index += 1) {
    const from = transitions[index]!;
    const to = transitions[index + 1]!;
    const inside = sorted.filter(
      (event) =>
        event.action !== 'STATUS_CHANGED' &&
        event !== created &&
        Date.parse(event.at) >= from.at &&
        Date.parse(event.at) <= to.at,
    );
    let previous = from.at;
    const steps = inside.map((event) => {
      const at = Date.parse(event.at);
      const step = { action: event.action, sinceStartMs: at - from.at, sincePreviousMs: at - previous };
      previous = at;
      return step;
    });
    stages.push({ status: from.status, startedAt: from.at, endedAt: to.at, ms: to.at - from.at, steps });
  }
  const last = transitions[transitions.length - 1]!;
  return { createdAt: transitions[0]!.at, endedAt: last.at, finalStatus: last.status, stages };
}
