import { UsagePage } from '#web/features/usage/components/usage-view.tsx';

/** /hospital-admin/usage: Usage & Billing (docs/screens.md#usage-and-billing). */
export function HospitalUsageRoute() {
  return <UsagePage />;
}
