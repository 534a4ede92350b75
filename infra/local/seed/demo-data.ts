import type { Role } from '#shared/vocabulary/roles.ts';

/**
 * Demo tenants seeded by the local twin (docs/local-twin.md#demo-data): two hospitals so isolation can be seen, each
 * with departments, teams and one user of every role, plus the system's super admin. Ids are fixed so the seed
 * is idempotent. Passwords are never here: they come from DEMO_PASSWORD or are generated at first start.
 */
export type DemoUser = {
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  /** Super admin belongs to the system tenant. */
  hospitalId: string;
  teamId?: string;
  departmentId?: string;
  department?: string;
  specialization?: string;
};

export type DemoHospital = {
  id: string;
  slug: string;
  name: string;
  city: string;
  state: string;
  email: string;
  phone: string;
  addressLine1: string;
  subscriptionPlan: 'TRIAL' | 'BASIC' | 'PRO' | 'ENTERPRISE';
  departments: { id: string; name: string; description: string }[];
  teams: { id: string; name: string; departmentId: string; description: string }[];
};

export const SYSTEM_HOSPITAL_ID = 'system';

export const DEMO_HOSPITALS: DemoHospital[] = [
  {
    id: 'hosp-northside',
    slug: 'northside',
    name: 'Northside General',
    city: 'Chicago',
    state: 'IL',
    email: 'contact@northside.demo.local',
    phone: '+1 312 555 0100',
    addressLine1: '100 North Lake Shore Drive',
    subscriptionPlan: 'PRO',
    departments: [
      { id: 'dept-northside-radiology', name: 'Radiology', description: 'Diagnostic and interventional radiology' },
      { id: 'dept-northside-neurology', name: 'Neurology', description: 'Neurology and neuroimaging research' },
    ],
    teams: [
      {
        id: 'team-northside-neuroradiology',
        name: 'Neuroradiology',
        departmentId: 'dept-northside-radiology',
        description: 'Brain and spine MRI reading',
      },
      {
        id: 'team-northside-stroke',
        name: 'Stroke Imaging',
        departmentId: 'dept-northside-neurology',
        description: 'Acute stroke protocols',
      },
    ],
  },
  {
    id: 'hosp-lakeview',
    slug: 'lakeview',
    name: 'Lakeview Medical Center',
    city: 'Madison',
    state: 'WI',
    email: 'contact@lakeview.demo.local',
    phone: '+1 608 555 0199',
    addressLine1: '200 Lakeview Boulevard',
    subscriptionPlan: 'ENTERPRISE',
    departments: [
      { id: 'dept-lakeview-radiology', name: 'Radiology', description: 'Imaging services' },
      { id: 'dept-lakeview-research', name: 'Imaging Research', description: 'Neuroimaging research group' },
    ],
    teams: [
      {
        id: 'team-lakeview-mri',
        name: 'MRI Core',
        departmentId: 'dept-lakeview-radiology',
        description: 'Clinical MRI',
      },
      {
        id: 'team-lakeview-connectome',
        name: 'Connectome Lab',
        departmentId: 'dept-lakeview-research',
        description: 'Diffusion and tractography research',
      },
    ],
  },
];

export const DEMO_USERS: DemoUser[] = [
  {
    email: 'superadmin@demo.local',
    firstName: 'Sam',
    lastName: 'Rivera',
    role: 'SUPER_ADMIN',
    hospitalId: SYSTEM_HOSPITAL_ID,
  },
  ...DEMO_HOSPITALS.flatMap((h): DemoUser[] => {
    const team = h.teams[0]!;
    const dept = h.departments.find((d) => d.id === team.departmentId)!.name;
    const departmentId = team.departmentId;
    return [
      {
        email: `admin@${h.slug}.demo.local`,
        firstName: 'Alex',
        lastName: h.slug === 'northside' ? 'Morgan' : 'Chen',
        role: 'HOSPITAL_ADMIN',
        hospitalId: h.id,
      },
      {
        email: `lead@${h.slug}.demo.local`,
        firstName: 'Jordan',
        lastName: h.slug === 'northside' ? 'Patel' : 'Novak',
        role: 'TEAM_LEAD',
        hospitalId: h.id,
        teamId: team.id,
        departmentId,
        department: dept,
        specialization: 'Neuroradiology',
      },
      {
        email: `member@${h.slug}.demo.local`,
        firstName: 'Taylor',
        lastName: h.slug === 'northside' ? 'Brooks' : 'Singh',
        role: 'TEAM_MEMBER',
        hospitalId: h.id,
        teamId: team.id,
        departmentId,
        department: dept,
        specialization: 'MR Technologist',
      },
      {
        email: `guest@${h.slug}.demo.local`,
        firstName: 'Casey',
        lastName: h.slug === 'northside' ? 'Lee' : 'Adams',
        role: 'GUEST',
        hospitalId: h.id,
        teamId: team.id,
        departmentId,
        department: dept,
      },
    ];
  }),
];

/** The demo team lead of a team (each hospital's first team has one), seeded as the team's lead. */
export function demoTeamLead(teamId: string): DemoUser | undefined {
  return DEMO_USERS.find((u) => u.role === 'TEAM_LEAD' && u.teamId === teamId);
}
