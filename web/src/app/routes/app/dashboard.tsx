import { Button, Card, Heading, Stack, Text, Wrap } from '@chakra-ui/react';
import { Link, Navigate } from 'react-router-dom';
import { hasRole, ROLE_TITLES } from '#shared/vocabulary/roles.ts';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { paths } from '#web/config/paths.ts';
import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { useDashboard } from '#web/features/dashboard/api/get-dashboard.ts';
import { DashboardView } from '#web/features/dashboard/components/dashboard-view.tsx';
import { SharedWithYou } from '#web/features/shares/components/shared-with-you.tsx';
import { errorMessage } from '#web/lib/api-error.ts';

/** /dashboard: hospital admins go to their area (docs/screens.md#route-table); everyone else sees the role dashboard. */
export function DashboardRoute() {
  const { user } = useCurrentUser();
  if (user.role === 'HOSPITAL_ADMIN') return <Navigate to={paths.hospitalAdmin.getHref()} replace />;
  return <RoleDashboard />;
}

/** Heading by role, welcome, the server's figures for the role and quick actions. */
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
      {user.role === 'GUEST' && (
        <SharedWithYou linkTo={paths.visualizer.getHref} emptyText="Nothing has been shared with you yet." />
      )}
      <ServerDashboard />
      {user.role !== 'GUEST' && (
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
              {user.role === 'TEAM_LEAD' && (
                <>
                  <Button asChild variant="outline">
                    <Link to={paths.teams.getHref('invitations')}>Invite Team Member</Link>
                  </Button>
                  <Button asChild variant="outline">
                    <Link to={paths.teams.getHref('analytics')}>Team Reports</Link>
                  </Button>
                </>
              )}
              {user.role === 'HOSPITAL_ADMIN' && (
                <Button asChild variant="outline">
                  <Link to={paths.users.getHref()}>Manage Users</Link>
                </Button>
              )}
            </Wrap>
          </Card.Body>
        </Card.Root>
      )}
    </Stack>
  );
}

/** The server's figures for the caller's role (docs/screens.md#dashboard). */
function ServerDashboard() {
  const { data, error, isLoading } = useDashboard();
  if (error) return <ErrorBox message={errorMessage(error)} />;
  if (isLoading || !data)
    return (
      <Text fontSize="sm" color="fg.muted">
        Loading...
      </Text>
    );
  return <DashboardView dashboard={data} />;
}
