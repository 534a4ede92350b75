import { Button, Card, Heading, HStack, SimpleGrid, Stack, Stat, Text, Wrap } from '@chakra-ui/react';
import { Link, Navigate } from 'react-router-dom';
import { hasRole, ROLE_TITLES } from '#shared/auth/roles.ts';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { paths } from '#web/config/paths.ts';
import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { useAllDatasets } from '#web/features/datasets/api/get-datasets.ts';
import { countPipeline } from '#web/features/datasets/utils/pipeline-counts.ts';
import { errorMessage } from '#web/lib/api-error.ts';

/** /dashboard: hospital admins go to their area (docs/screens.md#route-table); everyone else sees the role dashboard. */
export function DashboardRoute() {
  const { user } = useCurrentUser();
  if (user.role === 'HOSPITAL_ADMIN') return <Navigate to={paths.hospitalAdmin.getHref()} replace />;
  return <RoleDashboard />;
}

/** Heading by role, welcome, quick actions and pipeline status counted from the datasets the user can see. */
export function RoleDashboard() {
  const { user, hospital, team } = useCurrentUser();
  const title = user.role === 'GUEST' ? 'User' : ROLE_TITLES[user.role];
  const canSeeDatasets = hasRole(user.role, ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER']);
  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading size="2xl">{title} Dashboard</Heading>
        <Text color="fg.muted">
          Welcome back, {user.firstName}!{hospital ? ` ${hospital.name}` : ''}
          {team ? ` · ${team.name}` : ''}
        </Text>
      </Stack>
      {canSeeDatasets && <PipelineStatus />}
      <Card.Root>
        <Card.Header>
          <Heading size="md">Quick Actions</Heading>
        </Card.Header>
        <Card.Body>
          <Wrap gap="3">
            {user.role === 'SUPER_ADMIN' && (
              <>
                <Button asChild variant="outline">
                  <Link to={paths.hospitals.getHref()}>Manage Hospitals</Link>
                </Button>
                <Button asChild variant="outline">
                  <Link to={paths.users.getHref()}>System Users</Link>
                </Button>
                <Button asChild variant="outline">
                  <Link to={paths.reports.getHref()}>System Reports</Link>
                </Button>
              </>
            )}
            {canSeeDatasets && (
              <Button asChild variant="outline">
                <Link to={paths.datasets.getHref()}>View My Datasets</Link>
              </Button>
            )}
            {hasRole(user.role, ['TEAM_LEAD', 'TEAM_MEMBER']) && (
              <Button asChild>
                <Link to={paths.upload.getHref()}>Upload DICOM</Link>
              </Button>
            )}
            {user.role === 'HOSPITAL_ADMIN' && (
              <Button asChild variant="outline">
                <Link to={paths.users.getHref()}>Manage Users</Link>
              </Button>
            )}
          </Wrap>
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}

function PipelineStatus() {
  const { data, error, isLoading } = useAllDatasets();
  if (error) return <ErrorBox message={errorMessage(error)} />;
  const counts = countPipeline((data ?? []).map((d) => d.status));
  const cells = [
    { label: 'Queued', value: counts.queued },
    { label: 'Processing', value: counts.processing },
    { label: 'Completed', value: counts.completed },
    { label: 'Failed', value: counts.failed },
    { label: 'Total', value: counts.total },
  ];
  return (
    <Card.Root>
      <Card.Header>
        <HStack justify="space-between">
          <Heading size="md">Processing Pipeline Status</Heading>
          {isLoading && (
            <Text fontSize="sm" color="fg.muted">
              Loading...
            </Text>
          )}
        </HStack>
      </Card.Header>
      <Card.Body>
        <SimpleGrid columns={{ base: 2, md: 5 }} gap="4" aria-label="Pipeline status counts">
          {cells.map((c) => (
            <Stat.Root key={c.label} borderWidth="1px" rounded="md" p="3">
              <Stat.Label>{c.label}</Stat.Label>
              <Stat.ValueText data-testid={`pipeline-${c.label.toLowerCase()}`}>{c.value}</Stat.ValueText>
            </Stat.Root>
          ))}
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}
