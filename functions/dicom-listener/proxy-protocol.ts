/**
 * The PROXY protocol version 2 header (HAProxy's PROXY protocol specification, section 2.2), which a Network Load
 * Balancer target group with proxy protocol v2 sends before the client's first byte: the listener learns the DICOM
 * node's address from it, since behind the balancer the socket's peer is the balancer (docs/dicom-intake.md#dicom-nodes).
 */

/** The 12-byte signature that opens every v2 header. */
export const PROXY_V2_SIGNATURE = Uint8Array.from([
  0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a,
]);

/** Fixed part: signature, version and command, family and transport, length of what follows. */
const FIXED_BYTES = 16;
/** A header longer than this is refused: addresses are at most 216 bytes (AF_UNIX), TLVs of a balancer a few hundred. */
export const PROXY_V2_MAX_BYTES = FIXED_BYTES + 4096;

export type ProxyHeader =
  /** More bytes are needed. */
  | { state: 'incomplete' }
  /** Not a v2 header, or one that breaks the specification: the connection is closed. */
  | { state: 'invalid' }
  /**
   * A whole header of `length` bytes. `source` is the client's address for a PROXY command over TCP/IPv4 or IPv6; it
   * is absent for LOCAL (the balancer's own connection, its health checks) and for UNSPEC or UNIX addresses.
   */
  | { state: 'complete'; length: number; source?: { address: string; port: number } };

function ipv6(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}

/** Reads a PROXY v2 header at the start of `bytes` (spec 2.2). */
export function parseProxyV2(bytes: Uint8Array): ProxyHeader {
  const signature = Math.min(bytes.length, PROXY_V2_SIGNATURE.length);
  for (let i = 0; i < signature; i++) if (bytes[i] !== PROXY_V2_SIGNATURE[i]) return { state: 'invalid' };
  if (bytes.length < FIXED_BYTES) return { state: 'incomplete' };
  const versionCommand = bytes[12]!;
  if (versionCommand >> 4 !== 2) return { state: 'invalid' };
  const command = versionCommand & 0x0f;
  if (command > 1) return { state: 'invalid' };
  const family = bytes[13]! >> 4;
  const transport = bytes[13]! & 0x0f;
  const rest = (bytes[14]! << 8) | bytes[15]!;
  const length = FIXED_BYTES + rest;
  if (length > PROXY_V2_MAX_BYTES) return { state: 'invalid' };
  if (bytes.length < length) return { state: 'incomplete' };
  // LOCAL: the balancer's own connection; the address block, if any, is to be ignored (spec 2.2).
  if (command === 0) return { state: 'complete', length };
  const view = new DataView(bytes.buffer, bytes.byteOffset + FIXED_BYTES, rest);
  if (family === 1 && transport === 1) {
    if (rest < 12) return { state: 'invalid' };
    const address = [0, 1, 2, 3].map((i) => view.getUint8(i)).join('.');
    return { state: 'complete', length, source: { address, port: view.getUint16(8) } };
  }
  if (family === 2 && transport === 1) {
    if (rest < 36) return { state: 'invalid' };
    const address = ipv6(bytes.subarray(FIXED_BYTES, FIXED_BYTES + 16));
    return { state: 'complete', length, source: { address, port: view.getUint16(32) } };
  }
  // UNSPEC, UNIX or a datagram: no TCP client to speak of.
  return { state: 'complete', length };
}

/** A v2 PROXY header for a TCP/IPv4 connection (the balancer's side; tests play the balancer with it). */
export function proxyV2Header(
  source: { address: string; port: number },
  destination: { address: string; port: number },
) {
  const out = new Uint8Array(FIXED_BYTES + 12);
  out.set(PROXY_V2_SIGNATURE);
  out[12] = 0x21; // version 2, PROXY
  out[13] = 0x11; // AF_INET, STREAM
  const view = new DataView(out.buffer);
  view.setUint16(14, 12);
  source.address.split('.').forEach((part, i) => (out[FIXED_BYTES + i] = Number(part)));
  destination.address.split('.').forEach((part, i) => (out[FIXED_BYTES + 4 + i] = Number(part)));
  view.setUint16(FIXED_BYTES + 8, source.port);
  view.setUint16(FIXED_BYTES + 10, destination.port);
  return out;
}
