import type { Role } from '#shared/vocabulary/roles.ts';
import { isHeldForBurnedInText, type Series } from '#shared/schemas/api/datasets.ts';
import { BURNED_IN_TEXT_REASON_LABELS, type DatasetStatus } from '#shared/vocabulary/datasets.ts';

/** Roles that may release a held series (the route's gate says the same). */
const RELEASERS: readonly Role[] = ['TEAM_LEAD', 'HOSPITAL_ADMIN'];

/** Why a series is held, or that it was released, in words for the series table; undefined for an ordinary series. */
export function burnedInTextNotice(
  series: Pick<Series, 'burnedInText'>,
): { held: boolean; message: string; redacted?: string } | undefined {
  const flag = series.burnedInText;
  if (!flag) return undefined;
  const reasons = flag.reasons.map((reason) => BURNED_IN_TEXT_REASON_LABELS[reason]).join(', ');
  if (!isHeldForBurnedInText(series)) {
    const count = flag.redactions?.length ?? 0;
    return {
      held: false,
      message: `Released for processing after review (it was ${reasons}).`,
      ...(count > 0 ? { redacted: `${count} ${count === 1 ? 'region' : 'regions'} blanked in every frame` } : {}),
    };
  }
  return {
    held: true,
    message:
      `Held: this series is ${reasons}, so its pixels may show patient text that de-identification cannot remove. ` +
      'It is not converted, has no preview and is left out of the report until a team lead or admin reviews and releases it.',
  };
}

/** A lead or admin may release while the pipeline is not writing: COMPLETE (processed again at once) or FAILED. */
export function canReleaseHeldSeries(role: Role, status: DatasetStatus): boolean {
  return RELEASERS.includes(role) && (status === 'COMPLETE' || status === 'FAILED');
}
