import { describe, expect, it } from 'vitest';
// @ts-expect-error dcmjs ships no type declarations
import dcmjs from 'dcmjs';
import { TAG, parserKey, tagElement, tagGroup } from '#shared/dicom/tags.ts';

type Entry = { tag: string; name: string };
const nameMap = (dcmjs.data.DicomMetaDictionary as unknown as { nameMap: Record<string, Entry> }).nameMap;

describe('the engine tag table', () => {
  it('spells every keyword as the PS3.6 data dictionary does', () => {
    for (const [keyword, tag] of Object.entries(TAG)) {
      const entry = nameMap[keyword];
      expect(entry, keyword).toBeDefined();
      expect(entry!.tag.replace(/[(),]/g, '').toUpperCase(), keyword).toBe(tag);
    }
  });

  it('splits and re-keys tags', () => {
    expect(tagGroup(TAG.PatientName)).toBe(0x0010);
    expect(tagElement(TAG.PatientName)).toBe(0x0010);
    expect(parserKey(TAG.SeriesInstanceUID)).toBe('x0020000e');
  });
});
