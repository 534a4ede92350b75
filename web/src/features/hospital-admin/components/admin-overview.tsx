import { Badge, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { PLAN_LABELS } from '#shared/schemas/api/organisation.ts';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { StatCard } from '#web/components/ui/stat-card.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatBytes } from '#web/lib/format.ts';
import { useHospitalAdminOverview } from '#web/features/hospital-admin/api/overview.ts';

/** Index of /hospital-admin: the hospital's figures from GET /api/hospital-admin/overview. */
export function AdminOverview({ firstName }: { firstName: string }) {
  const { data, error, isLoading } = useHospitalAdminOverview();
  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading size="2xl">Hospital Admin Dashboard</Heading>
        <Text color="fg.muted">Welcome back, {firstName}!</Text>
      </Stack>
      {error && <ErrorBox message={errorMessage(error)} />}
      {isLoading && <PageSpinner />}
      {data && (
        <>
          <HStack>
            <Text fontWeight="semibold">{data.hospital.name}</Text>
            <Badge colorPalette="purple">{PLAN_LABELS[data.hospital.subscriptionPlan].name}</Badge>
          </HStack>
          <SimpleGrid columns={{ base: 2, md: 3 }} gap="4">
            <StatCard label="Hospital Users" value={data.membersCount} testId="overview-members" />
            <StatCard label="Departments" value={data.departmentsCount} testId="overview-departments" />
            <StatCard label="Teams" value={data.teamsCount} testId="overview-teams" />
            <StatCard label="Pending Invitations" value={data.pendingInvitations} testId="overview-invitations" />
            <StatCard label="Datasets" value={data.datasetsCount} testId="overview-datasets" />
            <StatCard label="Storage Used" value={formatBytes(data.storageUsedBytes)} testId="overview-storage" />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
