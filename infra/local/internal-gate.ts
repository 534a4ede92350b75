import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

/**
 * Which requests the twin's public port lets through to its stand-ins. In the cloud, DynamoDB, Step Functions and
 * Cognito's admin operations need IAM-signed requests; the stand-ins check no signature at all, so behind the public
 * port they would let anyone read every hospital's table or reset another user's password. Here they answer only
 * the twin itself and tools on this machine: a local peer, and no `Origin` header (a web page, even one on this
 * machine, always sends one). Sign-in and the other operations a Cognito app client makes with a token or a
 * password stay open, as in the cloud. The password reset (ForgotPassword, ConfirmForgotPassword) is open to the
 * twin's own site in a browser on this machine (the code goes to the twin's mail page, which answers this machine
 * only), never to another origin or another machine, so nobody elsewhere can start or guess a reset. S3 checks
 * signatures itself (s3.ts).
 */
const PUBLIC_COGNITO_OPERATIONS: ReadonlySet<string> = new Set([
  'InitiateAuth',
  'RespondToAuthChallenge',
  'GetTokensFromRefreshToken',
  'RevokeToken',
  'GlobalSignOut',
  'GetUser',
  'ChangePassword',
  // Two-factor enrolment and sign-in (docs/screens.md#two-factor-authentication): each needs the user's access token
  // or the sign-in session, as in the cloud.
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'SetUserMFAPreference',
]);

export type Peer = { remoteAddress?: string; localAddress?: string; origin?: string };

export function peerOf(req: IncomingMessage): Peer {
  return { remoteAddress: req.socket.remoteAddress, localAddress: req.socket.localAddress, origin: req.headers.origin };
}

function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}

/** The twin's own handlers and command-line tools on this machine; not a browser page, not another machine. */
export function isInternalPeer(peer: Peer): boolean {
  if (peer.origin !== undefined) return false;
  const remote = peer.remoteAddress;
  if (!remote) return false;
  return isLoopback(remote) || remote === peer.localAddress;
}

const RESET_OPERATIONS: ReadonlySet<string> = new Set(['ForgotPassword', 'ConfirmForgotPassword']);

/** A browser on this machine showing the twin's own site (or no page at all: the twin and local tools). */
export function isThisMachine(peer: Peer, siteOrigins: ReadonlySet<string>): boolean {
  const remote = peer.remoteAddress;
  if (!remote || !(isLoopback(remote) || remote === peer.localAddress)) return false;
  return peer.origin === undefined || siteOrigins.has(peer.origin);
}

/**
 * Whether a request to the Cognito stand-in may go through: public app-client operations, the password reset from the
 * twin's own site on this machine, or an internal caller.
 */
export function cognitoRequestAllowed(
  target: string | undefined,
  peer: Peer,
  siteOrigins: ReadonlySet<string> = new Set(),
): boolean {
  const operation = (target ?? '').split('.').pop() ?? '';
  if (PUBLIC_COGNITO_OPERATIONS.has(operation)) return true;
  if (RESET_OPERATIONS.has(operation) && isThisMachine(peer, siteOrigins)) return true;
  return isInternalPeer(peer);
}

const WILDCARD_HOSTS: ReadonlySet<string> = new Set(['0.0.0.0', '::', '']);

function hostPart(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/**
 * The `Host` values the twin answers on its port: its loopback names and the interface it is bound to (every
 * interface address and the machine's name when bound to all), each with the port and without it (some clients, the
 * Python `requests` behind dicomweb-client among them, send the bare name; RFC 9110 7.2). A page on another name that
 * resolves here (DNS rebinding) sends its own name and is refused, with or without a port.
 */
export function allowedHosts(boundHost: string, port: number): string[] {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (WILDCARD_HOSTS.has(boundHost)) {
    names.add(hostname().toLowerCase());
    for (const addresses of Object.values(networkInterfaces()))
      for (const { address } of addresses ?? []) names.add(hostPart(address.toLowerCase()));
  } else {
    names.add(hostPart(boundHost.toLowerCase()));
  }
  return [...names].flatMap((name) => [name, `${name}:${port}`]);
}

/** Answers 421 to a request whose Host the twin does not serve; true when it did. */
export function refuseForeignHost(req: IncomingMessage, res: ServerResponse, hosts: ReadonlySet<string>): boolean {
  const host = req.headers.host?.toLowerCase();
  if (host !== undefined && hosts.has(host)) return false;
  req.resume();
  res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end('This server does not answer for that host name.');
  return true;
}
