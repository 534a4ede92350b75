/**
 * multipart/related (RFC 2387) as DICOMweb uses it (PS3.18 8.6.1.2): STOW-RS requests and WADO-RS responses carry one
 * DICOM PS3.10 instance per part. Uint8Array only, so the same code runs in a Lambda and in a test.
 */
export type Part = { contentType: string; bytes: Uint8Array };

const encoder = new TextEncoder();
const decoder = new TextDecoder('latin1');

/** Media type and parameters of a Content-Type header (names lower-cased, quotes removed). */
export function parseMediaType(header: string | undefined): { type: string; params: Record<string, string> } {
  const [type = '', ...rest] = (header ?? '').split(';');
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const name = param.slice(0, eq).trim().toLowerCase();
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    params[name] = value;
  }
  return { type: type.trim().toLowerCase(), params };
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  outer: for (let i = haystack.indexOf(first!, from); i >= 0 && i <= haystack.length - needle.length;) {
    for (let j = 1; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) {
        i = haystack.indexOf(first!, i + 1);
        continue outer;
      }
    }
    return i;
  }
  return -1;
}

export class MultipartError extends Error {
  override name = 'MultipartError';
}

/**
 * The parts of a multipart body with the given boundary. Headers of each part are read for Content-Type only; a body
 * that does not hold the boundary, or ends before its close delimiter, is refused.
 */
export function parseMultipart(body: Uint8Array, boundary: string): Part[] {
  // RFC 2046 caps a boundary at 70 characters; senders in the field use longer ones (Orthanc's are 73), so 200 here.
  if (!boundary || boundary.length > 200) throw new MultipartError('Invalid boundary');
  const delimiter = encoder.encode(`--${boundary}`);
  let position = indexOf(body, delimiter, 0);
  if (position < 0) throw new MultipartError('No boundary');
  const parts: Part[] = [];
  for (;;) {
    position += delimiter.length;
    // "--" after a delimiter closes the body.
    if (body[position] === 0x2d && body[position + 1] === 0x2d) return parts;
    // Transport padding, then CRLF.
    while (body[position] === 0x20 || body[position] === 0x09) position++;
    if (body[position] === 0x0d) position++;
    if (body[position] !== 0x0a) throw new MultipartError('Malformed delimiter');
    position++;
    const headersEnd = indexOf(body, encoder.encode('\r\n\r\n'), position - 2);
    if (headersEnd < 0) throw new MultipartError('Part without headers end');
    const headerText = decoder.decode(body.subarray(position, headersEnd));
    let contentType = '';
    for (const line of headerText.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'content-type')
        contentType = line.slice(colon + 1).trim();
    }
    const start = headersEnd + 4;
    const next = indexOf(body, encoder.encode(`\r\n--${boundary}`), start);
    if (next < 0) throw new MultipartError('Unterminated part');
    parts.push({ contentType, bytes: body.subarray(start, next) });
    position = next + 2;
  }
}

/** A multipart/related body of the parts, each with its Content-Type. */
export function buildMultipart(parts: readonly Part[], boundary: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    chunks.push(encoder.encode(`--${boundary}\r\nContent-Type: ${part.contentType}\r\n\r\n`), part.bytes);
    chunks.push(encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
