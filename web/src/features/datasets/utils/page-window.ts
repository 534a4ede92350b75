import { DATASET_PAGE_SIZES } from '#shared/schemas/api/datasets.ts';

/** The pagination window (docs/domain.md#lists-and-pagination) shows up to 5 page numbers around the current one. */
export function pageWindow(current: number, pageCount: number, size = 5): number[] {
  if (pageCount <= 0) return [];
  const half = Math.floor(size / 2);
  let start = Math.max(0, current - half);
  const end = Math.min(pageCount, start + size);
  start = Math.max(0, end - size);
  return Array.from({ length: end - start }, (_, i) => start + i);
}

/** The page sizes the list route takes (its query schema's). */
export const PAGE_SIZES = DATASET_PAGE_SIZES;
export const DEFAULT_PAGE_SIZE = 12;

/**
 * Keyboard paging (docs/screens.md#keyboard-paging): Ctrl/Cmd + arrows for previous/next, Home/End for first/last,
 * unless focus is in an input or select. Returns the page to go to, or undefined.
 */
export function pageForKey(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'target'>,
  current: number,
  lastPage: number | undefined,
): number | 'last' | undefined {
  const target = event.target as HTMLElement | null;
  const tag = target?.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || target?.isContentEditable) return undefined;
  const modifier = event.ctrlKey || event.metaKey;
  if (modifier && event.key === 'ArrowLeft') return current > 0 ? current - 1 : undefined;
  if (modifier && event.key === 'ArrowRight')
    return lastPage === undefined || current < lastPage ? current + 1 : undefined;
  if (event.key === 'Home') return current !== 0 ? 0 : undefined;
  if (event.key === 'End') return 'last';
  return undefined;
}
