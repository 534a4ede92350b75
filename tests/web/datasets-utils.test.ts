import { describe, expect, it } from 'vitest';
import { countPipeline } from '#web/features/datasets/utils/pipeline-counts.ts';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, pageForKey, pageWindow } from '#web/features/datasets/utils/page-window.ts';
import { describeHistoryEvent } from '#web/features/datasets/utils/classification.ts';
import { studyTypePalette } from '#web/features/datasets/utils/study-types.ts';

const key = (key: string, extra: { ctrlKey?: boolean; metaKey?: boolean; tagName?: string } = {}) => ({
  key,
  ctrlKey: !!extra.ctrlKey,
  metaKey: !!extra.metaKey,
  target: { tagName: extra.tagName ?? 'BODY', isContentEditable: false } as unknown as EventTarget,
});

describe('datasets page rules', () => {
  it('offers the page sizes 6, 12, 24, 48 with 12 as default', () => {
    expect(PAGE_SIZES).toEqual([6, 12, 24, 48]);
    expect(DEFAULT_PAGE_SIZE).toBe(12);
  });

  it.each([
    [0, 1, [0]],
    [0, 10, [0, 1, 2, 3, 4]],
    [5, 10, [3, 4, 5, 6, 7]],
    [9, 10, [5, 6, 7, 8, 9]],
    [2, 3, [0, 1, 2]],
  ])('shows at most 5 page numbers around page %i of %i', (current, count, expected) => {
    expect(pageWindow(current, count)).toEqual(expected);
  });

  it('pages with Ctrl or Cmd and the arrows, Home and End, but not while typing in an input or select', () => {
    expect(pageForKey(key('ArrowRight', { ctrlKey: true }), 0, undefined)).toBe(1);
    expect(pageForKey(key('ArrowLeft', { metaKey: true }), 2, 5)).toBe(1);
    expect(pageForKey(key('ArrowLeft', { ctrlKey: true }), 0, 5)).toBeUndefined();
    expect(pageForKey(key('ArrowRight', { ctrlKey: true }), 5, 5)).toBeUndefined();
    expect(pageForKey(key('ArrowRight'), 0, 5)).toBeUndefined();
    expect(pageForKey(key('Home'), 3, 5)).toBe(0);
    expect(pageForKey(key('End'), 0, undefined)).toBe('last');
    expect(pageForKey(key('End', { tagName: 'INPUT' }), 0, 5)).toBeUndefined();
    expect(pageForKey(key('ArrowRight', { ctrlKey: true, tagName: 'SELECT' }), 0, 5)).toBeUndefined();
  });

  it('counts pipeline states as the dashboard groups them', () => {
    expect(
      countPipeline([
        'CREATED',
        'UPLOADING',
        'ANONYMIZING',
        'CLASSIFYING',
        'PROCESSING',
        'COMPLETE',
        'COMPLETE',
        'FAILED',
      ]),
    ).toEqual({
      queued: 1,
      processing: 3,
      completed: 2,
      failed: 1,
      total: 8,
    });
  });

  it('styles emergency, diagnostic and follow-up studies and keeps the others neutral', () => {
    expect(new Set(['EMERGENCY', 'DIAGNOSTIC', 'FOLLOW_UP'].map((t) => studyTypePalette(t as 'EMERGENCY'))).size).toBe(
      3,
    );
    expect(studyTypePalette('SCREENING')).toBe('gray');
    expect(studyTypePalette('RESEARCH')).toBe('gray');
  });

  it('describes audit events from their ids and statuses', () => {
    expect(describeHistoryEvent({ action: 'STATUS_CHANGED', details: { from: 'UPLOADING', to: 'ANONYMIZING' } })).toBe(
      'Status changed: UPLOADING → ANONYMIZING',
    );
    expect(
      describeHistoryEvent({ action: 'SERIES_CLASSIFIED', details: { classifiedType: 'DWI', previousType: 'DTI' } }),
    ).toBe('Classification changed: DTI → DWI');
    expect(describeHistoryEvent({ action: 'TRACTS_BUILT', details: {} })).toBe('Tracts built');
  });
});
