import { describe, expect, it } from 'vitest';
import {
  addressList,
  clientErrors,
  EMPTY_CLIENT,
  EMPTY_NODE,
  nodeErrors,
  quietSecondsOf,
} from '#web/features/settings/utils/integration-form.ts';

describe('the Integrations forms (hospital settings)', () => {
  it('asks for a name and a team of a DICOMweb client, and a quiet time in range when given', () => {
    expect(clientErrors(EMPTY_CLIENT)).toEqual({ name: 'Required', teamId: 'Required' });
    expect(clientErrors({ name: 'PACS', teamId: 't', quietSeconds: '5' })).toEqual({
      quietSeconds: 'Between 10 and 86400 seconds',
    });
    expect(clientErrors({ name: 'PACS', teamId: 't', quietSeconds: '' })).toEqual({});
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
