import { describe, expect, it } from 'vitest';
import { parseProxyV2, PROXY_V2_SIGNATURE, proxyV2Header } from '#functions/dicom-listener/proxy-protocol.ts';

/** The PROXY protocol v2 header the listener reads behind the balancer (PROXY protocol specification, section 2.2). */
describe('parseProxyV2', () => {
  it('reads the client address of a PROXY command over TCP/IPv4, and the length the DICOM bytes start after', () => {
    const header = proxyV2Header({ address: '10.9.8.7', port: 40_000 }, { address: '10.0.0.10', port: 11112 });
    const bytes = new Uint8Array([...header, 0x01, 0x00]);
    expect(parseProxyV2(bytes)).toEqual({
      state: 'complete',
      length: 28,
      source: { address: '10.9.8.7', port: 40_000 },
    });
  });

  it('waits for the rest of a header cut anywhere, and refuses what is not one', () => {
    const header = proxyV2Header({ address: '10.9.8.7', port: 1 }, { address: '10.0.0.10', port: 2 });
    for (let cut = 0; cut < header.length; cut++)
      expect(parseProxyV2(header.subarray(0, cut)).state).toBe('incomplete');
    // A DICOM A-ASSOCIATE-RQ sent straight to the listener, a v1 text header, another version
    expect(parseProxyV2(Uint8Array.from([0x01, 0x00, 0x00, 0x00]))).toEqual({ state: 'invalid' });
    expect(parseProxyV2(new TextEncoder().encode('PROXY TCP4 10.9.8.7 10.0.0.10 1 2\r\n'))).toEqual({
      state: 'invalid',
    });
    const v1 = Uint8Array.from(header);
    v1[12] = 0x11;
    expect(parseProxyV2(v1)).toEqual({ state: 'invalid' });
  });

  it('gives no client for LOCAL (the balancer health check) and reads IPv6 and TLVs past the addresses', () => {
    const local = new Uint8Array(16);
    local.set(PROXY_V2_SIGNATURE);
    local[12] = 0x20;
    expect(parseProxyV2(local)).toEqual({ state: 'complete', length: 16 });

    const v6 = new Uint8Array(16 + 36 + 7);
    v6.set(PROXY_V2_SIGNATURE);
    v6[12] = 0x21;
    v6[13] = 0x21;
    v6[15] = 36 + 7;
    v6[16 + 15] = 1; // ::1
    v6[16 + 32] = 0x9c; // port 40000
    v6[16 + 33] = 0x40;
    expect(parseProxyV2(v6)).toEqual({
      state: 'complete',
      length: 59,
      source: { address: '0:0:0:0:0:0:0:1', port: 40_000 },
    });
  });
});
