import { apiRequestErrorFrom, networkError } from '#shared/client/api-error.ts';
import { apiUrl } from '#web/config/runtime-config.ts';
import { getIdToken } from './api-client.ts';

/** Saves text as a file through a temporary object URL (the browser's own download). */
export function saveText(text: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(new Blob([text], { type }), filename);
}

export function saveBytes(bytes: Uint8Array, filename: string, type: string): void {
  saveBlob(new Blob([bytes as BlobPart], { type }), filename);
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Downloads a non-JSON API answer (a CSV export) with the caller's ID token, which a plain link could not send, and
 * saves it under the name the server gives (Content-Disposition) or `fallbackName`.
 */
export async function downloadFromApi(
  path: string,
  query: Record<string, string | undefined>,
  fallbackName: string,
): Promise<void> {
  const token = await getIdToken();
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  let response: Response;
  try {
    response = await fetch(apiUrl(path) + (search.size ? `?${search}` : ''), {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  } catch {
    throw networkError();
  }
  const text = await response.text();
  if (!response.ok) throw apiRequestErrorFrom(response.status, text);
  const named = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
  saveText(text, named ?? fallbackName, response.headers.get('Content-Type') ?? 'text/csv;charset=utf-8');
}
