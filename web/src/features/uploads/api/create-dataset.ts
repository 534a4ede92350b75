import { mutate } from 'swr';
import { DatasetSchema, type CreateDatasetRequest } from '#shared/schemas/api/datasets.ts';
import { apiRequest } from '#web/lib/api-client.ts';

const revalidateLists = () => mutate((key) => Array.isArray(key) && key[0] === '/api/datasets');

/** POST /api/datasets: the dataset with its patient context, status CREATED (also what "Save as Draft" does). */
export async function createDataset(request: CreateDatasetRequest) {
  const dataset = await apiRequest('/api/datasets', DatasetSchema, { method: 'POST', body: request });
  await revalidateLists();
  return dataset;
}

/** PATCH /api/datasets/{id}: changes the context of a CREATED dataset (a saved draft). */
export async function updateDataset(id: string, request: Partial<CreateDatasetRequest>) {
  const { patientConsent: _c, hipaaDisclosure: _h, ...changes } = request;
  const dataset = await apiRequest(`/api/datasets/${encodeURIComponent(id)}`, DatasetSchema, {
    method: 'PATCH',
    body: changes,
  });
  await revalidateLists();
  return dataset;
}
