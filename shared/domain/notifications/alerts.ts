import {
  activeHospitalAdmins,
  deliverToWhoWants,
  type Delivered,
  type NotificationContent,
  type PreferredNotificationDeps,
} from './preferences.ts';
import type { NotificationLedger } from './ports.ts';

/**
 * A burst of failed sign-ins (docs/domain.md#security-alerts): this many attempts of one user within the window with
 * no successful sign-in among them.
 */
export const SIGN_IN_BURST = { attempts: 5, windowMinutes: 15 } as const;

export type AlertDeps = PreferredNotificationDeps & { notificationLedger?: NotificationLedger };

/** A security event for the hospital's ACTIVE admins who keep "Security events" on (but the one who acted). */
export function raiseSecurityAlert(
  hospitalId: string,
  content: NotificationContent,
  deps: AlertDeps,
  except?: string,
): Promise<Delivered[]> {
  return activeHospitalAdmins(hospitalId, deps, except).then((admins) =>
    deliverToWhoWants(hospitalId, admins, 'securityEvents', content, deps),
  );
}

/**
 * Counts a sign-in of a known user towards a burst (docs/domain.md#security-alerts). The user pool tells an attempt
 * (before the password is checked) and a success, never a failure: an attempt is a failure until a success follows,
 * so a success forgets the attempts, and the fifth attempt within 15 minutes with none succeeding raises the alert
 * (then the count starts again, so a longer attack raises one alert per five attempts). Answers whether it raised one.
 */
export async function noteSignInForAlerts(
  phase: 'attempt' | 'success',
  hospitalId: string,
  userId: string,
  at: string,
  deps: AlertDeps,
): Promise<boolean> {
  const ledger = deps.notificationLedger;
  if (!ledger) return false;
  if (phase === 'success') {
    await ledger.clearSignInAttempts(hospitalId, userId);
    return false;
  }
  const attempts = await ledger.noteSignInAttempt(hospitalId, userId, at, SIGN_IN_BURST.windowMinutes * 60_000);
  if (attempts.length < SIGN_IN_BURST.attempts) return false;
  await ledger.clearSignInAttempts(hospitalId, userId);
  await raiseSecurityAlert(
    hospitalId,
    {
      type: 'FAILED_SIGN_INS',
      title: 'Repeated failed sign-ins',
      description: `${attempts.length} sign-in attempts of user ${userId} without a success within ${SIGN_IN_BURST.windowMinutes} minutes.`,
      href: '/hospital-admin/compliance',
    },
    deps,
  );
  return true;
}
