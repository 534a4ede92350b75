import type { ErrorCode } from '#shared/vocabulary/errors.ts';

/**
 * Named domain errors. The core throws these; functions/lib/errors.ts alone maps them onto the error
 * catalogue (HTTP status + the product's wording), and task handlers rethrow them so Step Functions sees the name.
 * Messages of these errors never carry PHI: they are catalogue codes plus our own ids.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly values: Record<string, string | number> = {},
    message?: string,
  ) {
    super(message ?? code);
  }
}

export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
  constructor(
    code:
      | 'DATASET_NOT_FOUND'
      | 'SERIES_NOT_FOUND'
      | 'ASSET_NOT_FOUND'
      | 'UPLOAD_NOT_FOUND'
      | 'USER_NOT_FOUND'
      | 'HOSPITAL_NOT_FOUND'
      | 'DEPARTMENT_NOT_FOUND'
      | 'TEAM_NOT_FOUND'
      | 'JOB_NOT_FOUND'
      | 'INVITATION_NOT_FOUND'
      | 'INVITATION_LINK_INVALID'
      | 'SHARE_NOT_FOUND'
      | 'SHARE_LINK_INVALID'
      | 'NOT_FOUND' = 'NOT_FOUND',
  ) {
    super(code);
  }
}

export class AccessDeniedError extends DomainError {
  override name = 'AccessDeniedError';
  constructor() {
    super('ACCESS_DENIED');
  }
}

/** The role needs a second factor and the sign-in showed none (docs/error-catalogue.md#auth-and-lookup). */
export class MfaRequiredError extends DomainError {
  override name = 'MfaRequiredError';
  constructor() {
    super('MFA_REQUIRED');
  }
}

export class UnauthorizedError extends DomainError {
  override name = 'UnauthorizedError';
  constructor(code: 'NO_TOKEN' | 'INVALID_CREDENTIALS' = 'NO_TOKEN') {
    super(code);
  }
}

export class ValidationError extends DomainError {
  override name = 'ValidationError';
  constructor(
    code: ErrorCode = 'VALIDATION_FAILED',
    values: Record<string, string | number> = {},
    readonly details?: unknown,
  ) {
    super(code, values);
  }
}

/** The dataset's status does not allow the action (e.g. editing a dataset that is already uploading). */
export class InvalidStateError extends DomainError {
  override name = 'InvalidStateError';
  constructor(
    code:
      | 'INVALID_STATE'
      | 'UPLOAD_INCOMPLETE'
      | 'LEGAL_HOLD'
      | 'SERIES_NOT_HELD'
      | 'SERIES_NOT_REDACTABLE' = 'INVALID_STATE',
  ) {
    super(code);
  }
}

/** An invitation link that can no longer be used, or an invitation that is no longer pending. */
export class InvitationStateError extends DomainError {
  override name = 'InvitationStateError';
  constructor(
    code:
      | 'INVITATION_EXPIRED'
      | 'INVITATION_CANCELLED'
      | 'INVITATION_ALREADY_USED'
      | 'INVITATION_DECLINED'
      | 'INVITATION_NOT_PENDING',
  ) {
    super(code);
  }
}

/** The e-mail address belongs to a user, or to a pending invitation of the hospital. */
export class EmailTakenError extends DomainError {
  override name = 'EmailTakenError';
  constructor(code: 'EMAIL_ALREADY_REGISTERED' | 'EMAIL_ALREADY_INVITED') {
    super(code);
  }
}

/** A conditional write lost a race: the item changed under us. */
export class ConflictError extends DomainError {
  override name = 'ConflictError';
  constructor() {
    super('CONFLICT');
  }
}

/** An organisation rule refuses the action (docs/error-catalogue.md): last admin, department not empty, team full. */
export class RuleError extends DomainError {
  override name = 'RuleError';
  constructor(
    code:
      | 'HOSPITAL_NAME_MISMATCH'
      | 'HOSPITAL_DELETE_NEEDS_CONFIRMATION'
      | 'HOSPITAL_SLUG_TAKEN'
      | 'HOSPITAL_DEACTIVATED'
      | 'EMAIL_IN_USE'
      | 'DEPARTMENT_NOT_EMPTY'
      | 'TEAM_ARCHIVED'
      | 'TEAM_FULL'
      | 'LAST_HOSPITAL_ADMIN'
      | 'CANNOT_CHANGE_OWN_ACCOUNT'
      | 'AE_TITLE_TAKEN'
      | 'SSO_DOMAIN_TAKEN'
      | 'SSO_SECRET_REQUIRED'
      | 'SSO_CONNECTION_FAILED'
      | 'SSO_METADATA_REQUIRED'
      | 'SSO_METADATA_INVALID'
      | 'SIGN_IN_RATE_LIMITED'
      | 'INSUFFICIENT_SCOPE'
      | 'NOT_ACCEPTABLE'
      | 'MEDIA_TYPE_NOT_AVAILABLE'
      | 'RESPONSE_TOO_LARGE'
      | 'RETENTION_SHORTENING_DENIED',
    values: Record<string, string | number> = {},
  ) {
    super(code, values);
  }
}

/** Throttling, timeouts and 5xx from a service: worth retrying (Step Functions Retry matches the name). */
export class TransientError extends Error {
  override name = 'TransientError';
}

/** No file of the upload is valid DICOM: the pipeline cannot go on. */
export class NoValidDicomError extends DomainError {
  override name = 'NoValidDicomError';
  constructor() {
    super('NO_VALID_DICOM');
  }
}

/** Every series of the dataset failed in its own branch: nothing is left to complete (docs/pipeline.md). */
export class NoSeriesProcessedError extends DomainError {
  override name = 'NoSeriesProcessedError';
  constructor() {
    super('NO_SERIES_PROCESSED');
  }
}

/** A patient link refused for a reason its holder may know: a wrong code, a lock, too many attempts (docs/domain.md#shares). */
export class ShareAccessError extends DomainError {
  override name = 'ShareAccessError';
  constructor(
    code: 'SHARE_CODE_INVALID' | 'SHARE_LOCKED' | 'SHARE_RATE_LIMITED' | 'SHARE_EXISTS' | 'SMS_UNAVAILABLE',
    values: Record<string, string | number> = {},
  ) {
    super(code, values);
  }
}

/**
 * A share the sharing policy refuses (docs/domain.md#share-policy): a recipient outside the hospital's own e-mail
 * domains while external sharing is off, or an approval decided on a share that no longer waits for one.
 */
export class SharePolicyError extends DomainError {
  override name = 'SharePolicyError';
  constructor(code: 'SHARE_RECIPIENT_NOT_ALLOWED' | 'SHARE_NOT_PENDING') {
    super(code);
  }
}
