import type { ParsedDicom } from '#shared/dicom/parse.ts';
import type { BurnedInTextReason } from '#shared/vocabulary/datasets.ts';

/** Secondary Capture Image Storage and its multi-frame variants (PS3.4 B.5). */
const SECONDARY_CAPTURE_ROOT = '1.2.840.10008.5.1.4.1.1.7';
/** Encapsulated PDF, CDA, STL, OBJ, MTL (PS3.4 B.5). */
const ENCAPSULATED_DOCUMENT_ROOT = '1.2.840.10008.5.1.4.1.1.104';

function text(parsed: ParsedDicom, tag: string): string {
  try {
    return (parsed.dataSet.string(tag) ?? '').replace(/\0/g, '').trim();
  } catch {
    return '';
  }
}

const isUnder = (uid: string, root: string) => uid === root || uid.startsWith(`${root}.`);

/**
 * Why one file may carry text in its pixels: BurnedInAnnotation (0028,0301) YES, its SOP Class (0008,0016), or an
 * ImageType (0008,0008) value SCREEN SAVE or SECONDARY (PS3.3 C.7.6.1.1.2). Empty when none applies.
 */
export function burnedInTextReasons(parsed: ParsedDicom): BurnedInTextReason[] {
  const reasons: BurnedInTextReason[] = [];
  if (text(parsed, 'x00280301').toUpperCase() === 'YES') reasons.push('BURNED_IN_ANNOTATION');
  const sopClass = text(parsed, 'x00080016');
  if (isUnder(sopClass, SECONDARY_CAPTURE_ROOT)) reasons.push('SECONDARY_CAPTURE');
  if (isUnder(sopClass, ENCAPSULATED_DOCUMENT_ROOT)) reasons.push('ENCAPSULATED_DOCUMENT');
  const imageType = text(parsed, 'x00080008')
    .split('\\')
    .map((value) => value.trim().toUpperCase());
  if (imageType.includes('SCREEN SAVE')) reasons.push('SCREEN_SAVE');
  if (imageType.includes('SECONDARY')) reasons.push('SECONDARY_IMAGE');
  return reasons;
}
