import type { Caller } from './caller.ts';
import type { AuditLog } from '#shared/domain/ports.ts';

/** Sign-out is the client's (tokens are dropped there); the server records it in the audit log. */
export async function logout(caller: Caller, deps: { audit: AuditLog }): Promise<{ success: true }> {
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'USER_LOGGED_OUT',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: { role: caller.role },
  });
  return { success: true };
}
