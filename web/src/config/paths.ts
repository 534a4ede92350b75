/** Every route of the site and its href builder (docs/screens.md#route-table). */
export const paths = {
  home: { path: '/home', getHref: () => '/home' },
  root: { path: '/', getHref: () => '/' },
  login: {
    path: '/login',
    getHref: (redirectTo?: string) => (redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/login'),
  },
  /** Public: plain text on what the service does and does with data (docs/screens.md#terms-and-privacy). */
  terms: { path: '/terms', getHref: () => '/terms' },
  privacy: { path: '/privacy', getHref: () => '/privacy' },
  forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
  accountSecurity: { path: '/account/security', getHref: () => '/account/security' },
  dashboard: { path: '/dashboard', getHref: () => '/dashboard' },
  hospitals: { path: '/hospitals', getHref: () => '/hospitals' },
  datasets: { path: '/datasets', getHref: () => '/datasets' },
  dataset: { path: '/datasets/:datasetId', getHref: (id: string) => `/datasets/${encodeURIComponent(id)}` },
  upload: { path: '/upload', getHref: () => '/upload' },
  /** A lead's Team Management opens on the tab given (docs/screens.md#teams-page). */
  teams: { path: '/teams', getHref: (tab?: string) => (tab ? `/teams?tab=${encodeURIComponent(tab)}` : '/teams') },
  /** The approval queue of shares (docs/screens.md#share-approvals), where the bell's notification leads. */
  shareApprovals: { path: '/shares/approvals', getHref: () => '/shares/approvals' },
  users: { path: '/users', getHref: () => '/users' },
  compliance: { path: '/compliance', getHref: () => '/compliance' },
  reports: { path: '/reports', getHref: () => '/reports' },
  settings: { path: '/settings', getHref: () => '/settings' },
  hospitalAdmin: { path: '/hospital-admin', getHref: () => '/hospital-admin' },
  hospitalAdminTeams: { path: 'teams', getHref: () => '/hospital-admin/teams' },
  hospitalAdminInvitations: { path: 'invitations', getHref: () => '/hospital-admin/invitations' },
  hospitalAdminUsage: { path: 'usage', getHref: () => '/hospital-admin/usage' },
  hospitalAdminCompliance: { path: 'compliance', getHref: () => '/hospital-admin/compliance' },
  hospitalAdminReports: { path: 'reports', getHref: () => '/hospital-admin/reports' },
  hospitalAdminSettings: { path: 'settings', getHref: () => '/hospital-admin/settings' },
  hospitalAdminRecycleBin: { path: 'recycle-bin', getHref: () => '/hospital-admin/recycle-bin' },
  /** Public: the invitee's link (docs/screens.md#accept-invitation). */
  acceptInvitation: {
    path: '/invitations/accept',
    getHref: (token: string) => `/invitations/accept?token=${encodeURIComponent(token)}`,
  },
  /** Public: a patient share's link (docs/screens.md#patient-page). */
  patientShare: { path: '/p/:token', getHref: (token: string) => `/p/${encodeURIComponent(token)}` },
  visualizer: { path: '/visualizer/:datasetId', getHref: (id: string) => `/visualizer/${encodeURIComponent(id)}` },
} as const;
