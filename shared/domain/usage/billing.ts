import { PLAN_PRICE_PER_USER, SUBSCRIPTION_PLANS, type SubscriptionPlan } from '#shared/schemas/api/organisation.ts';
import type { Invoice, UsageHealth } from '#shared/schemas/api/usage.ts';

/** docs/domain.md#usage-and-billing: over 100 overage; over 85 warning; over 60 good; otherwise excellent. */
export function usageHealth(percent: number): UsageHealth {
  if (percent > 100) return 'overage';
  if (percent > 85) return 'warning';
  if (percent > 60) return 'good';
  return 'excellent';
}

/** The usage view's header badge from the storage and compute percentages (docs/screens.md#usage-and-billing). */
export function usageBadge(storagePercent: number, computePercent: number) {
  if (storagePercent > 100 || computePercent > 100) return 'Overage Detected' as const;
  if (storagePercent > 85 || computePercent > 85) return 'Approaching Limits' as const;
  return 'Healthy Usage' as const;
}

export const planOf = (plan: string | undefined): SubscriptionPlan | null =>
  (SUBSCRIPTION_PLANS as readonly string[]).includes(plan ?? '') ? (plan as SubscriptionPlan) : null;

/** First day (UTC) of the month after `month` (yyyy-mm), as yyyy-mm-dd. */
export function nextMonthStart(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

/**
 * The hospital's invoice for a month (docs/domain.md#usage-and-billing): the plan's price per user per month times
 * its users, issued and due on the first day of the next month.
 */
export function monthlyInvoice(
  hospital: { id: string; name: string; subscriptionPlan?: string; userCount?: number },
  month: string,
): Invoice {
  const plan = planOf(hospital.subscriptionPlan);
  const pricePerUser = plan ? PLAN_PRICE_PER_USER[plan] : 0;
  const users = Math.max(0, hospital.userCount ?? 0);
  const due = nextMonthStart(month);
  return {
    number: `${hospital.id}-${month}`,
    hospitalId: hospital.id,
    hospitalName: hospital.name,
    month,
    plan,
    pricePerUser,
    users,
    amount: pricePerUser * users,
    issuedAt: due,
    dueDate: due,
  };
}
