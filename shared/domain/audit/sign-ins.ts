import type { OrganisationCounters, UsageDay } from '#shared/domain/organisation/ports.ts';

/**
 * Sign-in attempts and successes per hospital and day (docs/domain.md#failed-sign-ins). A wrong password never reaches
 * the API, so they are counted where the user pool sees them: its pre-authentication trigger counts an attempt of a
 * known user, its post-authentication trigger a success (after the second factor, where there is one). A failed
 * sign-in is an attempt that did not end in a success: a wrong password or code, a disabled user, a sign-in left
 * at the second factor. The counts sit on the hospital's usage day items (ADD, one write per sign-in).
 */
export type SignInPhase = 'attempt' | 'success';

/** The compliance center's window. */
export const SIGN_IN_WINDOW_DAYS = 30;

export async function countSignIn(
  phase: SignInPhase,
  hospitalId: string,
  at: string,
  counters: Pick<OrganisationCounters, 'addUsage'>,
): Promise<void> {
  await counters.addUsage(
    hospitalId,
    'hospital',
    at.slice(0, 10),
    phase === 'attempt' ? { signInAttempts: 1 } : { signIns: 1 },
  );
}

export type SignInFigures = { days: number; attempts: number; succeeded: number; failed: number };

export function signInFigures(days: readonly UsageDay[], windowDays: number = SIGN_IN_WINDOW_DAYS): SignInFigures {
  const attempts = days.reduce((n, d) => n + d.signInAttempts, 0);
  const succeeded = days.reduce((n, d) => n + d.signIns, 0);
  // A sign-in begun just before the window and finished inside it counts a success without its attempt.
  return { days: windowDays, attempts, succeeded, failed: Math.max(0, attempts - succeeded) };
}

/** The first day (yyyy-mm-dd) of the window that ends on the day of `now`. */
export function signInWindowStart(now: string, windowDays: number = SIGN_IN_WINDOW_DAYS): string {
  return new Date(Date.parse(now) - (windowDays - 1) * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}
