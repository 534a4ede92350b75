import { Stack, Text } from '@chakra-ui/react';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { paths } from '#web/config/paths.ts';
import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { useDashboard } from '#web/features/dashboard/api/get-dashboard.ts';
import { DashboardView } from '#web/features/dashboard/components/dashboard-view.tsx';
import { AdminOverview } from '#web/features/hospital-admin/components/admin-overview.tsx';
import { BillingPanel } from '#web/features/usage/components/billing-panel.tsx';
import { errorMessage } from '#web/lib/api-error.ts';

/**
 * /hospital-admin, the hospital admin's home (docs/screens.md#hospital-admin-area): the hospital's figures, then the
 * server's pipeline status and recent activity (GET /api/dashboard) and the billing panel (GET /api/usage).
 */
export function HospitalAdminIndexRoute() {
  const { user } = useCurrentUser();
  return (
    <Stack gap="6">
      <AdminOverview firstName={user.firstName} />
      <HospitalDashboard />
      <BillingPanel detailsHref={paths.hospitalAdminUsage.getHref()} />
    </Stack>
  );
}

/** The pipeline and the recent activity; the figures the overview already shows are left out. */
function HospitalDashboard() {
  const { data, error } = useDashboard();
  if (error) return <ErrorBox message={errorMessage(error)} />;
  if (!data)
    return (
      <Text fontSize="sm" color="fg.muted">
        Loading...
      </Text>
    );
  return <DashboardView dashboard={{ ...data, stats: [] }} />;
}
