import useSWR, { mutate } from 'swr';
import {
  HospitalPageSchema,
  HospitalSchema,
  HospitalWithJobSchema,
  type CreateHospitalRequest,
  type DeleteHospitalRequest,
  type UpdateHospitalRequest,
} from '#shared/schemas/api/organisation.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import type { HospitalListQuery } from '#web/features/hospitals/utils/hospital-query.ts';

const KEY = '/api/hospitals';
const hospitalPath = (id: string) => `${KEY}/${encodeURIComponent(id)}`;

export function useHospitals(query: HospitalListQuery) {
  return useSWR([KEY, query], () => apiRequest(KEY, HospitalPageSchema, { query }), { keepPreviousData: true });
}

const revalidateHospitals = () => mutate((key) => Array.isArray(key) && key[0] === KEY);

export async function createHospital(body: CreateHospitalRequest) {
  const hospital = await apiRequest(KEY, HospitalSchema, { method: 'POST', body });
  await revalidateHospitals();
  return hospital;
}

export async function updateHospital(id: string, body: UpdateHospitalRequest) {
  const hospital = await apiRequest(hospitalPath(id), HospitalSchema, { method: 'PATCH', body });
  await revalidateHospitals();
  return hospital;
}

/** Soft delete: the hospital is deactivated, its data stays (docs/screens.md#hospital-management). */
export async function deleteHospital(id: string, body: DeleteHospitalRequest) {
  const hospital = await apiRequest(hospitalPath(id), HospitalWithJobSchema, { method: 'DELETE', body });
  await revalidateHospitals();
  return hospital;
}

export async function restoreHospital(id: string) {
  const hospital = await apiRequest(`${hospitalPath(id)}/restore`, HospitalWithJobSchema, {
    method: 'POST',
    body: {},
  });
  await revalidateHospitals();
  return hospital;
}
