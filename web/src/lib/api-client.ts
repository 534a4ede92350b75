import type { z } from 'zod';
import { ApiRequestError, apiRequestErrorFrom, networkError } from '#shared/client/api-error.ts';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';
import { apiUrl } from '#web/config/runtime-config.ts';

export type TokenGetter = () => Promise<string | undefined>;

let getToken: TokenGetter = async () => undefined;
let onUnauthorized: () => void = () => {};
let onMfaRequired: () => void = () => {};

/**
 * The auth feature registers how to get the Cognito ID token, what to do when the API answers 401, and when it
 * answers MFA_REQUIRED (a second factor became required mid-session: docs/domain.md#two-factor-policy).
 */
export function configureApiClient(options: {
  getToken: TokenGetter;
  onUnauthorized: () => void;
  onMfaRequired?: () => void;
}): void {
  getToken = options.getToken;
  onUnauthorized = options.onUnauthorized;
  onMfaRequired = options.onMfaRequired ?? (() => {});
}

export function getIdToken(): Promise<string | undefined> {
  return getToken();
}

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
};

/**
 * Calls the API with `Authorization: Bearer <ID token>` and parses the answer with the shared schema, so a
 * contract drift fails loudly here instead of rendering half a screen. Errors become ApiRequestError with
 * the catalogue's message.
 */
export async function apiRequest<S extends z.ZodTypeAny>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const token = await getToken();
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {}))
    if (value !== undefined && value !== '') query.set(key, String(value));
  const url = apiUrl(path) + (query.size ? `?${query}` : '');
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        Accept: 'application/json',
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw networkError();
  }
  const text = await response.text();
  if (!response.ok) {
    const error = apiRequestErrorFrom(response.status, text);
    if (response.status === 401) onUnauthorized();
    else if (error.code === 'MFA_REQUIRED') onMfaRequired();
    throw error;
  }
  const json: unknown = text ? JSON.parse(text) : {};
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    console.error(
      `Response of ${options.method ?? 'GET'} ${path} does not match its schema`,
      parsed.error.issues.slice(0, 5),
    );
    throw new ApiRequestError(response.status, 'INTERNAL', ERROR_CATALOGUE.INTERNAL.message);
  }
  return parsed.data;
}

/** The most pages `apiAllPages` reads: a hospital's teams or a team's members fit, a hospital's users would not. */
export const MAX_PAGES = 10;

/**
 * Every item of a paged list whose size is bounded by the organisation's shape, not by its activity (a hospital's
 * teams, a team's members): page after page of at most 100, up to MAX_PAGES. Lists that grow with the hospital
 * (users, datasets, hospitals) are read a page at a time instead (SearchSelect, CursorPager).
 */
export async function apiAllPages<Item>(
  path: string,
  schema: z.ZodType<{ items: Item[]; nextToken: string | null }>,
  query: Record<string, string | number | undefined> = {},
): Promise<{ items: Item[]; complete: boolean }> {
  const items: Item[] = [];
  let nextToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await apiRequest(path, schema, { query: { ...query, limit: 100, nextToken } });
    items.push(...result.items);
    if (!result.nextToken) return { items, complete: true };
    nextToken = result.nextToken;
  }
  return { items, complete: false };
}
