import type { IncomingMessage } from 'node:http';

/**
 * Which requests the twin's public port lets through to its stand-ins. In the cloud, DynamoDB, Step Functions and
 * Cognito's admin operations need IAM-signed requests; the stand-ins check no signature at all, so behind the public
 * port they would let anyone read every hospital's table or reset another user's password. Here they answer only
 * the twin itself and tools on this machine: a local peer, and no `Origin` header (a web page, even one on this
 * machine, always sends one). Sign-in and the other operations a Cognito app client makes without AWS credentials
 * stay open, as in the cloud. S3 stays open for presigned URLs (see local-stack-notes).
 */
const PUBLIC_COGNITO_OPERATIONS: ReadonlySet<string> = new Set([
  'InitiateAuth',
  'RespondToAuthChallenge',
  'GetTokensFromRefreshToken',
  'RevokeToken',
  'GlobalSignOut',
  'GetUser',
  'ChangePassword',
  'ForgotPassword',
  'ConfirmForgotPassword',
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

/** Whether a request to the Cognito stand-in may go through: public app-client operations, or an internal caller. */
export function cognitoRequestAllowed(target: string | undefined, peer: Peer): boolean {
  const operation = (target ?? '').split('.').pop() ?? '';
  return PUBLIC_COGNITO_OPERATIONS.has(operation) || isInternalPeer(peer);
}
