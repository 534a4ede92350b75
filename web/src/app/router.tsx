import { createBrowserRouter, Navigate, Outlet, RouterProvider, type RouteObject } from 'react-router-dom';
import type { ComponentType } from 'react';
import { paths } from '#web/config/paths.ts';
import { ProtectedBare, ProtectedLayout, RequireRole } from './guards.tsx';
import { NotFoundRoute } from './routes/not-found.tsx';
import { PageSpinner } from '#web/components/ui/page-states.tsx';

type Lazy = () => Promise<{ Component: ComponentType }>;
const lazyPage =
  <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType): Lazy =>
  async () => ({ Component: pick(await load()) });

const STAFF = ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER'] as const;
const UPLOADERS = ['TEAM_LEAD', 'TEAM_MEMBER'] as const;
/** Compliance and reports: super admin and hospital admins (docs/roles-and-permissions.md). */
const OVERSIGHT = ['SUPER_ADMIN', 'HOSPITAL_ADMIN'] as const;

/** Nested pages of /hospital-admin (docs/screens.md#hospital-admin-area). */
const HOSPITAL_ADMIN_PAGES: RouteObject[] = [
  {
    index: true,
    lazy: lazyPage(
      () => import('./routes/hospital-admin/index.tsx'),
      (m) => m.HospitalAdminIndexRoute,
    ),
  },
  {
    path: paths.hospitalAdminTeams.path,
    lazy: lazyPage(
      () => import('./routes/hospital-admin/teams.tsx'),
      (m) => m.HospitalAdminTeamsRoute,
    ),
  },
  {
    path: paths.hospitalAdminInvitations.path,
    lazy: lazyPage(
      () => import('./routes/hospital-admin/invitations.tsx'),
      (m) => m.HospitalAdminInvitationsRoute,
    ),
  },
  {
    path: paths.hospitalAdminUsage.path,
    lazy: lazyPage(
      () => import('./routes/hospital-admin/usage.tsx'),
      (m) => m.HospitalUsageRoute,
    ),
  },
  {
    path: paths.hospitalAdminCompliance.path,
    lazy: lazyPage(
      () => import('./routes/compliance/compliance.tsx'),
      (m) => m.ComplianceRoute,
    ),
  },
  {
    path: paths.hospitalAdminReports.path,
    lazy: lazyPage(
      () => import('./routes/reports/reports.tsx'),
      (m) => m.ReportsRoute,
    ),
  },
  {
    path: paths.hospitalAdminRecycleBin.path,
    lazy: lazyPage(
      () => import('./routes/hospital-admin/recycle-bin.tsx'),
      (m) => m.HospitalAdminRecycleBinRoute,
    ),
  },
  {
    path: paths.hospitalAdminSettings.path,
    lazy: lazyPage(
      () => import('./routes/hospital-admin/settings.tsx'),
      (m) => m.HospitalSettingsRoute,
    ),
  },
];

/** Routes of docs/screens.md#route-table; pages are lazy-loaded so the login screen stays small. */
function createAppRouter() {
  return createBrowserRouter([
    {
      hydrateFallbackElement: <PageSpinner />,
      children: [
        {
          path: paths.home.path,
          lazy: lazyPage(
            () => import('./routes/landing/landing.tsx'),
            (m) => m.LandingRoute,
          ),
        },
        {
          path: paths.root.path,
          lazy: lazyPage(
            () => import('./routes/auth/login.tsx'),
            (m) => m.LoginRoute,
          ),
        },
        {
          path: paths.login.path,
          lazy: lazyPage(
            () => import('./routes/auth/login.tsx'),
            (m) => m.LoginRoute,
          ),
        },
        {
          path: paths.terms.path,
          lazy: lazyPage(
            () => import('./routes/legal/legal.tsx'),
            (m) => m.TermsRoute,
          ),
        },
        {
          path: paths.privacy.path,
          lazy: lazyPage(
            () => import('./routes/legal/legal.tsx'),
            (m) => m.PrivacyRoute,
          ),
        },
        {
          path: paths.forgotPassword.path,
          lazy: lazyPage(
            () => import('./routes/auth/forgot-password.tsx'),
            (m) => m.ForgotPasswordRoute,
          ),
        },
        {
          path: paths.patientShare.path,
          lazy: lazyPage(
            () => import('./routes/patient/patient.tsx'),
            (m) => m.PatientShareRoute,
          ),
        },
        {
          path: paths.acceptInvitation.path,
          lazy: lazyPage(
            () => import('./routes/invitations/accept.tsx'),
            (m) => m.AcceptInvitationRoute,
          ),
        },
        {
          element: <ProtectedLayout />,
          children: [
            {
              path: paths.dashboard.path,
              lazy: lazyPage(
                () => import('./routes/app/dashboard.tsx'),
                (m) => m.DashboardRoute,
              ),
            },
            {
              path: paths.hospitalAdmin.path,
              element: (
                <RequireRole roles={['HOSPITAL_ADMIN']} redirectTo={paths.dashboard.getHref()}>
                  <Outlet />
                </RequireRole>
              ),
              children: [
                {
                  lazy: lazyPage(
                    () => import('./routes/hospital-admin/layout.tsx'),
                    (m) => m.HospitalAdminLayoutRoute,
                  ),
                  children: HOSPITAL_ADMIN_PAGES,
                },
              ],
            },
            {
              path: paths.accountSecurity.path,
              lazy: lazyPage(
                () => import('./routes/account/security.tsx'),
                (m) => m.AccountSecurityRoute,
              ),
            },
            {
              path: paths.datasets.path,
              lazy: lazyPage(
                () => import('./routes/datasets/datasets.tsx'),
                (m) => () => (
                  <RequireRole roles={STAFF} area="datasets">
                    <m.DatasetsRoute />
                  </RequireRole>
                ),
              ),
            },
            {
              path: paths.dataset.path,
              lazy: lazyPage(
                () => import('./routes/datasets/dataset.tsx'),
                (m) => () => (
                  <RequireRole roles={STAFF} area="datasets">
                    <m.DatasetRoute />
                  </RequireRole>
                ),
              ),
            },
            {
              path: paths.upload.path,
              lazy: lazyPage(
                () => import('./routes/upload/upload.tsx'),
                (m) => () => (
                  <RequireRole roles={UPLOADERS} area="the upload of DICOM studies">
                    <m.UploadRoute />
                  </RequireRole>
                ),
              ),
            },
            {
              path: paths.settings.path,
              lazy: lazyPage(
                () => import('./routes/settings/settings.tsx'),
                (m) => m.SettingsRoute,
              ),
            },
            {
              path: paths.hospitals.path,
              lazy: lazyPage(
                () => import('./routes/hospitals/hospitals.tsx'),
                (m) => () => (
                  <RequireRole roles={['SUPER_ADMIN']} area="hospital management">
                    <m.HospitalsRoute />
                  </RequireRole>
                ),
              ),
            },
            {
              path: paths.users.path,
              lazy: lazyPage(
                () => import('./routes/users/users.tsx'),
                (m) => () => (
                  <RequireRole roles={['SUPER_ADMIN', 'HOSPITAL_ADMIN']} area="user management">
                    <m.UsersRoute />
                  </RequireRole>
                ),
              ),
            },
            {
              path: paths.teams.path,
              lazy: lazyPage(
                () => import('./routes/teams/teams.tsx'),
                (m) => () => (
                  <RequireRole roles={[...STAFF, 'GUEST']} area="team management">
                    <m.TeamsRoute />
                  </RequireRole>
                ),
              ),
            },
            {
              path: paths.shareApprovals.path,
              lazy: lazyPage(
                () => import('./routes/shares/share-approvals.tsx'),
                (m) => () => (
                  <RequireRole roles={['HOSPITAL_ADMIN', 'TEAM_LEAD']} area="share approvals">
                    <m.ShareApprovalsRoute />
                  </RequireRole>
                ),
              ),
            },
            {
              path: paths.compliance.path,
              lazy: lazyPage(
                () => import('./routes/compliance/compliance.tsx'),
                (m) => () => (
                  <RequireRole roles={OVERSIGHT} area="compliance management">
                    <m.ComplianceRoute />
                  </RequireRole>
                ),
              ),
            },
            {
              path: paths.reports.path,
              lazy: lazyPage(
                () => import('./routes/reports/reports.tsx'),
                (m) => () => (
                  <RequireRole roles={OVERSIGHT} area="system reports">
                    <m.ReportsRoute />
                  </RequireRole>
                ),
              ),
            },
            { path: '*', element: <NotFoundRoute /> },
          ],
        },
        {
          element: <ProtectedBare />,
          children: [
            {
              path: paths.visualizer.path,
              lazy: lazyPage(
                () => import('./routes/visualizer/visualizer.tsx'),
                (m) => m.VisualizerRoute,
              ),
            },
          ],
        },
        { path: '/vizu', element: <Navigate to={paths.datasets.getHref()} replace /> },
      ],
    },
  ]);
}

export function AppRouter() {
  return <RouterProvider router={createAppRouter()} />;
}
