import type { Caller } from '#shared/domain/auth/caller.ts';
import type { DepartmentRecord } from '#shared/domain/auth/ports.ts';
import { ConflictError, NotFoundError, RuleError } from '#shared/domain/errors.ts';
import type { Department, DepartmentInput } from '#shared/schemas/api/organisation.ts';
import { actorOf, listScope, requireHospitalAdmin } from './common.ts';
import type { OrganisationDeps } from './ports.ts';
import { toDepartment } from './views.ts';

/**
 * The hospital's departments with their team and member counts; every staff role reads them (upload wizard), the
 * super admin those of the hospital it names.
 */
export async function listDepartments(
  query: { hospitalId?: string },
  caller: Caller,
  deps: Pick<OrganisationDeps, 'organisation' | 'directory'>,
): Promise<{ items: Department[] }> {
  const hospitalId = await listScope(caller, query.hospitalId, deps);
  const items = await deps.organisation.listDepartments(hospitalId);
  return { items: items.map(toDepartment) };
}

/** A department of the caller's hospital, or 404 (another hospital's id answers the same). */
export async function loadDepartment(
  caller: Caller,
  departmentId: string,
  deps: Pick<OrganisationDeps, 'organisation'>,
): Promise<DepartmentRecord> {
  const department = await deps.organisation.getDepartment(caller.hospitalId, departmentId);
  if (!department) throw new NotFoundError('DEPARTMENT_NOT_FOUND');
  return department;
}

export async function createDepartment(
  input: DepartmentInput,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<Department> {
  requireHospitalAdmin(caller);
  const now = deps.clock.now();
  const department: DepartmentRecord = {
    id: deps.ids.newId(),
    hospitalId: caller.hospitalId,
    name: input.name,
    description: input.description ?? '',
    teamCount: 0,
    memberCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  await deps.organisation.createDepartment(department);
  await deps.organisation.add(caller.hospitalId, { kind: 'hospital' }, { departmentCount: 1 });
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'DEPARTMENT_CREATED',
    ...actorOf(caller),
    details: { departmentId: department.id },
  });
  return toDepartment(department);
}

export async function updateDepartment(
  departmentId: string,
  input: Partial<DepartmentInput>,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<Department> {
  requireHospitalAdmin(caller);
  await loadDepartment(caller, departmentId, deps);
  const updated = await deps.organisation.updateDepartment(caller.hospitalId, departmentId, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    updatedAt: deps.clock.now(),
  });
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'DEPARTMENT_UPDATED',
    ...actorOf(caller),
    details: { departmentId, fields: Object.keys(input) },
  });
  return toDepartment(updated);
}

/** Only an empty department goes: no teams (archived ones included) and no members. */
export async function deleteDepartment(departmentId: string, caller: Caller, deps: OrganisationDeps): Promise<null> {
  requireHospitalAdmin(caller);
  const department = await loadDepartment(caller, departmentId, deps);
  const teams = await deps.organisation.listTeams({
    hospitalId: caller.hospitalId,
    departmentId,
    includeArchived: true,
    limit: 1,
  });
  if ((department.teamCount ?? 0) > 0 || (department.memberCount ?? 0) > 0 || teams.items.length > 0)
    throw new RuleError('DEPARTMENT_NOT_EMPTY');
  try {
    await deps.organisation.deleteDepartment(caller.hospitalId, departmentId);
  } catch (error) {
    if (error instanceof ConflictError) throw new RuleError('DEPARTMENT_NOT_EMPTY');
    throw error;
  }
  await deps.organisation.add(caller.hospitalId, { kind: 'hospital' }, { departmentCount: -1 });
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'DEPARTMENT_DELETED',
    ...actorOf(caller),
    details: { departmentId },
  });
  return null;
}
