import { z } from 'zod';
import { IdSchema } from './common.ts';

/** docs/domain.md#notifications-and-toasts: the list keeps the 50 newest. */
export const MAX_NOTIFICATIONS = 50;

export const NOTIFICATION_TYPES = [
  'DATASET_COMPLETE',
  'DATASET_FAILED',
  'STORAGE_WARNING',
  'STORAGE_CRITICAL',
  'SHARE_OPENED',
  'SHARE_LOCKED',
  'INVITATION_ACCEPTED',
  'POLICY_CHANGED',
  'SHARE_APPROVAL_REQUESTED',
  'SHARE_APPROVAL_DECIDED',
  'FAILED_SIGN_INS',
  'ACCESS_TOKEN_CHANGED',
  'BILL_UPCOMING',
] as const;
/** The hospital's storage crossed the policy's warning or critical threshold (docs/domain.md#notifications). */
export type StorageNotificationType = 'STORAGE_WARNING' | 'STORAGE_CRITICAL';
export const NotificationTypeSchema = z.enum(NOTIFICATION_TYPES);

export const NotificationSchema = z.object({
  id: z.string(),
  type: NotificationTypeSchema,
  title: z.string(),
  description: z.string().optional(),
  /** A page of the site the notification leads to. */
  href: z.string().optional(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationListSchema = z.object({
  items: z.array(NotificationSchema).max(MAX_NOTIFICATIONS),
  unreadCount: z.number().int().nonnegative(),
});

/** POST /api/notifications/read: these ids, or every listed one when none are given. */
export const MarkNotificationsReadSchema = z
  .object({ ids: z.array(IdSchema).max(MAX_NOTIFICATIONS).optional() })
  .strict();
