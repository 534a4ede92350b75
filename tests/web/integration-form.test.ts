import { describe, expect, it } from 'vitest';
import {
  addressList,
  clientAccessOf,
  clientErrors,
  EMPTY_CLIENT,
  EMPTY_NODE,
  nodeErrors,
  quietSecondsOf,
} from '#web/features/settings/utils/integration-form.ts';

describe('the Integrations forms (hospital settings)', () => {
  it('asks for a name of a DICOMweb client, a team when it writes, and a quiet time in range when given', () => {
    const pacs = { ...EMPTY_CLIENT, name: 'PACS', teamId: 't' };
    expect(clientErrors(EMPTY_CLIENT)).toEqual({ name: 'Required', teamId: 'A client that writes needs a team' });
    expect(clientErrors({ ...pacs, quietSeconds: '5' })).toEqual({ quietSeconds: 'Between 10 and 86400 seconds' });
    expect(clientErrors(pacs)).toEqual({});
    expect(clientErrors({ ...pacs, teamId: '', write: false })).toEqual({});
  });

  it('asks for read, write or both, and sends the team only when one is chosen', () => {
    const pacs = { ...EMPTY_CLIENT, name: 'PACS', teamId: 't' };
    expect(clientErrors({ ...pacs, read: false, write: false })).toEqual({ read: 'Choose read, write or both' });
    expect(clientAccessOf(pacs)).toEqual({ scopes: ['read', 'write'], teamId: 't' });
    expect(clientAccessOf({ ...pacs, teamId: '', write: false })).toEqual({ scopes: ['read'] });
  });

  it('checks a DICOM node: its AE title as PS3.5 allows, addresses as IPv4 or CIDR', () => {
    expect(nodeErrors(EMPTY_NODE)).toMatchObject({ aeTitle: 'Required', addresses: 'Required' });
    expect(
      nodeErrors({ name: 'CT', teamId: 't', aeTitle: 'A\\B', addresses: '10.0.0.1, 300.1.1.1', quietSeconds: '' }),
    ).toEqual({ aeTitle: 'Invalid AE title', addresses: 'Invalid address' });
    expect(
      nodeErrors({ name: 'CT', teamId: 't', aeTitle: 'CT01', addresses: '10.0.0.0/8 192.168.1.7', quietSeconds: '60' }),
    ).toEqual({});
  });

  it('reads addresses separated by commas, spaces or lines, and leaves an empty quiet time out', () => {
    expect(addressList(' 10.0.0.1,10.0.0.2\n10.1.0.0/16 ')).toEqual(['10.0.0.1', '10.0.0.2', '10.1.0.0/16']);
    expect(quietSecondsOf('')).toEqual({});
    expect(quietSecondsOf('120')).toEqual({ quietSeconds: 120 });
  });
});
