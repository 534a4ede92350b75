import { hospitalIsActive, type HospitalStatusReader } from '#shared/domain/auth/hospital-status.ts';
import type { IntegrationRecord, IntegrationStore } from '#shared/domain/integrations/ports.ts';

/**
 * The DICOM listener's decisions, apart from the DIMSE library (docs/dicom-intake.md#dicom-nodes): which associations
 * it accepts, and the PS3.10 file a received C-STORE data set becomes before it takes the same intake path as STOW-RS.
 */

/** The called AE title of the listener (what a node's configuration names as the destination). */
export const DICOM_CALLED_AE_TITLE = 'IWS-INTAKE';

/** Our implementation's identification in the file meta group (PS3.7 D.3.3.2): a UUID-derived UID (PS3.5 B.2). */
export const IMPLEMENTATION_CLASS_UID = '2.25.139624727155398101463617062545196584771';
export const IMPLEMENTATION_VERSION_NAME = 'IWS_INTAKE_1';

function ipv4ToNumber(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value;
}

/** Whether a peer address (IPv4, or IPv4 mapped into IPv6) is one of the allowed addresses or CIDR blocks. */
export function addressAllowed(peer: string, allowed: readonly string[]): boolean {
  const address = ipv4ToNumber(peer.replace(/^::ffff:/i, ''));
  if (address === undefined) return false;
  return allowed.some((entry) => {
    const [base = '', bits] = entry.split('/');
    const network = ipv4ToNumber(base);
    if (network === undefined) return false;
    const prefix = bits === undefined ? 32 : Number(bits);
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    return (address & mask) >>> 0 === (network & mask) >>> 0;
  });
}

export type AssociationDecision =
  | { accept: true; integration: IntegrationRecord }
  | { accept: false; reason: 'CALLED_AE_NOT_RECOGNIZED' | 'CALLING_AE_NOT_RECOGNIZED' }
  | { accept: false; reason: 'HOSPITAL_DEACTIVATED'; integration: IntegrationRecord };

/**
 * PS3.8 9.3.4: an association is accepted when it calls our AE title, and its calling AE title is an active DICOM
 * node's whose allowed addresses include the peer; otherwise it is rejected (permanent, by the service user) with
 * the reason "called" or "calling AE title not recognized". A peer from another address reads as an unknown node.
 * A known node of a deactivated hospital is rejected too, permanent, by the service user, "no reason given"
 * (docs/dicom-intake.md#deactivation): its hospital is the listener's business, not the sender's.
 */
export async function admitAssociation(
  request: { callingAeTitle: string; calledAeTitle: string; peerAddress: string },
  deps: { integrations: Pick<IntegrationStore, 'byAeTitle'>; directory: HospitalStatusReader },
): Promise<AssociationDecision> {
  if (request.calledAeTitle.trim() !== DICOM_CALLED_AE_TITLE)
    return { accept: false, reason: 'CALLED_AE_NOT_RECOGNIZED' };
  const integration = await deps.integrations.byAeTitle(request.callingAeTitle.trim());
  if (
    !integration ||
    integration.kind !== 'DICOM_NODE' ||
    integration.status !== 'ACTIVE' ||
    !addressAllowed(request.peerAddress, integration.allowedAddresses ?? [])
  )
    return { accept: false, reason: 'CALLING_AE_NOT_RECOGNIZED' };
  if (!(await hospitalIsActive(integration.hospitalId, deps.directory)))
    return { accept: false, reason: 'HOSPITAL_DEACTIVATED', integration };
  return { accept: true, integration };
}

const encoder = new TextEncoder();

/** A UI or other text value padded to even length (PS3.5 6.2: UI with NUL, others with a space). */
function padded(value: string, pad: number): Uint8Array {
  const bytes = encoder.encode(value);
  if (bytes.length % 2 === 0) return bytes;
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  out[bytes.length] = pad;
  return out;
}

function element(group: number, elementNumber: number, vr: string, value: Uint8Array): Uint8Array {
  const long = vr === 'OB';
  const out = new Uint8Array((long ? 12 : 8) + value.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, group, true);
  view.setUint16(2, elementNumber, true);
  out[4] = vr.charCodeAt(0);
  out[5] = vr.charCodeAt(1);
  if (long) view.setUint32(8, value.length, true);
  else view.setUint16(6, value.length, true);
  out.set(value, long ? 12 : 8);
  return out;
}

/**
 * A PS3.10 file of a data set received by C-STORE (PS3.10 7.1): preamble, "DICM", the file meta group (explicit VR
 * little endian) naming the SOP class and instance and the transfer syntax the data set was sent in, then the data set
 * bytes as received, unchanged.
 */
export function part10File(
  meta: { sopClassUID: string; sopInstanceUID: string; transferSyntaxUID: string; sourceAeTitle: string },
  dataSet: Uint8Array,
): Uint8Array {
  const elements = [
    element(0x0002, 0x0001, 'OB', new Uint8Array([0, 1])),
    element(0x0002, 0x0002, 'UI', padded(meta.sopClassUID, 0)),
    element(0x0002, 0x0003, 'UI', padded(meta.sopInstanceUID, 0)),
    element(0x0002, 0x0010, 'UI', padded(meta.transferSyntaxUID, 0)),
    element(0x0002, 0x0012, 'UI', padded(IMPLEMENTATION_CLASS_UID, 0)),
    element(0x0002, 0x0013, 'SH', padded(IMPLEMENTATION_VERSION_NAME, 0x20)),
    element(0x0002, 0x0016, 'AE', padded(meta.sourceAeTitle, 0x20)),
  ];
  const groupLength = elements.reduce((n, e) => n + e.length, 0);
  const lengthValue = new Uint8Array(4);
  new DataView(lengthValue.buffer).setUint32(0, groupLength, true);
  const parts = [
    new Uint8Array(128),
    encoder.encode('DICM'),
    element(0x0002, 0x0000, 'UL', lengthValue),
    ...elements,
    dataSet,
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
