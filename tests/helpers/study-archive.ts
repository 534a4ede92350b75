/** Packs files as the upload client does (shared/domain/uploads/study-archive.ts), for tests that store an archive. */
import { archiveLayout, archiveSegments, tarHeader } from '#shared/domain/uploads/study-archive.ts';

export function packArchive(files: readonly Uint8Array[]): Uint8Array {
  const layout = archiveLayout(files.map((f) => f.byteLength));
  const out = new Uint8Array(layout.totalBytes);
  let offset = 0;
  for (const s of archiveSegments(layout, 0, layout.totalBytes)) {
    if (s.kind === 'zeros') offset += s.length;
    else {
      const bytes =
        s.kind === 'header'
          ? tarHeader(s.fileIndex, files[s.fileIndex]!.byteLength).subarray(s.from, s.to)
          : files[s.fileIndex]!.subarray(s.from, s.to);
      out.set(bytes, offset);
      offset += bytes.byteLength;
    }
  }
  return out;
}

/** The archive cut into the session's parts: `partBytes` each, the last one shorter. */
export function archiveParts(archive: Uint8Array, partBytes: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let start = 0; start < archive.byteLength; start += partBytes)
    parts.push(archive.subarray(start, start + partBytes));
  return parts;
}
