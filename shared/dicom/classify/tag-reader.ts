import type dicomParser from 'dicom-parser';

/** One way to read attributes from a binary DICOM dataset or a PS3.18 Annex F JSON instance. Tags: 8 hex digits. */
export type TagReader = {
  text(tag: string): string | undefined;
  /** Numbers of a DS/IS/FD/FL/US/SL attribute; `vr` is the value representation to assume when the file does not say (implicit VR, UN). */
  numbers(tag: string, vr: 'DS' | 'IS' | 'FD' | 'FL' | 'US' | 'SL'): number[];
  bytes(tag: string): Uint8Array | undefined;
  items(tag: string): TagReader[];
};

const clean = (value: string | undefined) => {
  const cleaned = value?.replace(/\0/g, '').trim();
  return cleaned ? cleaned : undefined;
};

const splitNumbers = (value: string | undefined) =>
  (value ?? '')
    .split('\\')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(Number)
    .filter(Number.isFinite);

export function readerFromDataSet(dataSet: dicomParser.DataSet): TagReader {
  const key = (tag: string) => `x${tag.toLowerCase()}`;
  return {
    text(tag) {
      try {
        return clean(dataSet.string(key(tag)));
      } catch {
        return undefined;
      }
    },
    numbers(tag, hint) {
      const element = dataSet.elements[key(tag)];
      if (!element || !element.length) return [];
      const explicit = element.vr && element.vr !== 'UN' && element.vr !== 'OB' ? element.vr : undefined;
      const vr = explicit ?? hint;
      try {
        if (vr === 'DS' || vr === 'IS' || vr === 'LO' || vr === 'SH' || vr === 'CS')
          return splitNumbers(dataSet.string(key(tag)));
        const size = vr === 'FD' ? 8 : vr === 'US' ? 2 : 4;
        const count = Math.floor(element.length / size);
        const out: number[] = [];
        for (let i = 0; i < count; i += 1) {
          const value =
            vr === 'FD'
              ? dataSet.double(key(tag), i)
              : vr === 'FL'
                ? dataSet.float(key(tag), i)
                : vr === 'US'
                  ? dataSet.uint16(key(tag), i)
                  : dataSet.int32(key(tag), i);
          if (value !== undefined && Number.isFinite(value)) out.push(value);
        }
        return out;
      } catch {
        return [];
      }
    },
    bytes(tag) {
      const element = dataSet.elements[key(tag)];
      if (!element || !element.length) return undefined;
      return dataSet.byteArray.subarray(element.dataOffset, element.dataOffset + element.length);
    },
    items(tag) {
      const element = dataSet.elements[key(tag)];
      return (element?.items ?? []).flatMap((item) => (item.dataSet ? [readerFromDataSet(item.dataSet)] : []));
    },
  };
}

type JsonAttribute = { vr?: string; Value?: unknown[]; InlineBinary?: string };

function base64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) out[i] = binary.charCodeAt(i);
  return out;
}

/** PS3.18 Annex F JSON: { "00180080": { "vr": "DS", "Value": [2300] }, ... }. */
export function readerFromJson(instance: Record<string, unknown>): TagReader {
  const attribute = (tag: string) =>
    (instance[tag.toUpperCase()] as JsonAttribute | undefined) ??
    (instance[tag.toLowerCase()] as JsonAttribute | undefined);
  return {
    text(tag) {
      const values = attribute(tag)?.Value;
      if (!values || values.length === 0) return undefined;
      return clean(
        values
          .map((value) =>
            value && typeof value === 'object' && 'Alphabetic' in value
              ? String((value as { Alphabetic: unknown }).Alphabetic)
              : String(value ?? ''),
          )
          .join('\\'),
      );
    },
    numbers(tag, hint) {
      const found = attribute(tag);
      if (!found) return [];
      if (found.Value)
        return found.Value.map((value) => (typeof value === 'number' ? value : Number(String(value).trim()))).filter(
          Number.isFinite,
        );
      if (found.InlineBinary) {
        const bytes = base64(found.InlineBinary);
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        const size = hint === 'FD' ? 8 : 4;
        if (hint !== 'FD' && hint !== 'FL') return splitNumbers(new TextDecoder('latin1').decode(bytes));
        return Array.from({ length: Math.floor(bytes.length / size) }, (_, i) =>
          size === 8 ? view.getFloat64(i * 8, true) : view.getFloat32(i * 4, true),
        );
      }
      return [];
    },
    bytes(tag) {
      const found = attribute(tag);
      return found?.InlineBinary ? base64(found.InlineBinary) : undefined;
    },
    items(tag) {
      return (attribute(tag)?.Value ?? [])
        .filter((item): item is Record<string, unknown> => Boolean(item) && typeof item === 'object')
        .map(readerFromJson);
    },
  };
}
