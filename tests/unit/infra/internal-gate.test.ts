import { describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { allowedHosts, cognitoRequestAllowed, isInternalPeer } from '#infra/local/internal-gate.ts';

const local = { remoteAddress: '127.0.0.1', localAddress: '127.0.0.1' };
const lan = { remoteAddress: '192.168.1.50', localAddress: '192.168.1.10' };

describe("the twin's gate in front of its stand-ins", () => {
  it('lets the twin itself and tools on this machine reach the table, the state machine and Cognito admin operations', () => {
    expect(isInternalPeer(local)).toBe(true);
    expect(isInternalPeer({ remoteAddress: '::1', localAddress: '::1' })).toBe(true);
    expect(isInternalPeer({ remoteAddress: '::ffff:127.0.0.1', localAddress: '::ffff:127.0.0.1' })).toBe(true);
    // Bound to a LAN address, the twin reaches itself at that address.
    expect(isInternalPeer({ remoteAddress: '192.168.1.10', localAddress: '192.168.1.10' })).toBe(true);
    expect(cognitoRequestAllowed('AWSCognitoIdentityProviderService.AdminSetUserPassword', local)).toBe(true);
  });

  it('refuses another machine and any web page (which always sends Origin), even one on this machine', () => {
    expect(isInternalPeer(lan)).toBe(false);
    expect(isInternalPeer({ ...local, origin: 'https://evil.example' })).toBe(false);
    expect(isInternalPeer({ ...local, origin: 'http://127.0.0.1:3000' })).toBe(false);
    expect(isInternalPeer({})).toBe(false);
    for (const operation of [
      'AdminSetUserPassword',
      'AdminUpdateUserAttributes',
      'AdminAddUserToGroup',
      'ListUsers',
      'AdminCreateUser',
      'UpdateUserAttributes',
      'SignUp',
      'CreateUserPoolClient',
    ]) {
      expect(cognitoRequestAllowed(`AWSCognitoIdentityProviderService.${operation}`, lan)).toBe(false);
      expect(
        cognitoRequestAllowed(`AWSCognitoIdentityProviderService.${operation}`, {
          ...local,
          origin: 'http://127.0.0.1:5173',
        }),
      ).toBe(false);
    }
    expect(cognitoRequestAllowed(undefined, lan)).toBe(false);
  });

  it('keeps what a Cognito app client does without AWS credentials open to everyone, as in the cloud', () => {
    for (const operation of [
      'InitiateAuth',
      'RespondToAuthChallenge',
      'GetTokensFromRefreshToken',
      'RevokeToken',
      'GlobalSignOut',
      'GetUser',
      'ChangePassword',
    ]) {
      expect(
        cognitoRequestAllowed(`AWSCognitoIdentityProviderService.${operation}`, {
          ...lan,
          origin: 'http://192.168.1.10:3000',
        }),
      ).toBe(true);
    }
  });

  it("keeps the password reset to the twin's own site on this machine: its codes go to the local mail page", () => {
    const site = new Set(['http://127.0.0.1:3000', 'http://localhost:3000']);
    for (const operation of ['ForgotPassword', 'ConfirmForgotPassword']) {
      const target = `AWSCognitoIdentityProviderService.${operation}`;
      expect(cognitoRequestAllowed(target, lan, site)).toBe(false);
      expect(cognitoRequestAllowed(target, { ...lan, origin: 'http://127.0.0.1:3000' }, site)).toBe(false);
      expect(cognitoRequestAllowed(target, { ...local, origin: 'http://127.0.0.1:3000' }, site)).toBe(true);
      expect(cognitoRequestAllowed(target, { ...local, origin: 'http://evil.example' }, site)).toBe(false);
      expect(cognitoRequestAllowed(target, { ...local, origin: 'http://127.0.0.1:3000' })).toBe(false);
      expect(cognitoRequestAllowed(target, local)).toBe(true);
    }
  });

  it('answers only the Host names of the interface it is bound to, and the loopback names, with or without the port', () => {
    expect(allowedHosts('127.0.0.1', 3000)).toEqual([
      'localhost',
      'localhost:3000',
      '127.0.0.1',
      '127.0.0.1:3000',
      '[::1]',
      '[::1]:3000',
    ]);
    expect(allowedHosts('192.168.1.10', 8080)).toContain('192.168.1.10:8080');
    expect(allowedHosts('::1', 80)).toEqual([
      'localhost',
      'localhost:80',
      '127.0.0.1',
      '127.0.0.1:80',
      '[::1]',
      '[::1]:80',
    ]);
    const everywhere = allowedHosts('0.0.0.0', 3000);
    expect(everywhere).toContain(`${hostname().toLowerCase()}:3000`);
    expect(everywhere).toContain(hostname().toLowerCase());
    expect(everywhere.some((host) => host.startsWith('evil.example'))).toBe(false);
    expect(allowedHosts('127.0.0.1', 3000)).not.toContain('localhost:3001');
  });
});
