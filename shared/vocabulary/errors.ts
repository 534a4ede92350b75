/**
 * The error catalogue (docs/error-catalogue.md): codes and the product's exact wording. The error mapper
 * in functions/lib turns domain errors into these; the site shows `message` as it is.
 */
export const ERROR_CATALOGUE = {
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid credentials' },
  NO_TOKEN: { status: 401, message: 'No token found' },
  USER_NOT_FOUND: { status: 404, message: 'User not found' },
  HOSPITAL_NOT_FOUND: { status: 404, message: 'Hospital not found' },
  DATASET_NOT_FOUND: { status: 404, message: 'Dataset not found' },
  SERIES_NOT_FOUND: { status: 404, message: 'Series not found' },
  ASSET_NOT_FOUND: { status: 404, message: 'Asset not found' },
  UPLOAD_NOT_FOUND: { status: 404, message: 'Upload session not found' },
  DEPARTMENT_NOT_FOUND: { status: 404, message: 'Department not found' },
  TEAM_NOT_FOUND: { status: 404, message: 'Team not found' },
  JOB_NOT_FOUND: { status: 404, message: 'Job not found' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  ENDPOINT_NOT_IMPLEMENTED: { status: 404, message: 'Endpoint not implemented' },
  /** A known path asked with a method it does not have; the answer's Allow header names those it has (RFC 9110 15.5.6). */
  METHOD_NOT_ALLOWED: { status: 405, message: 'This method is not allowed here.' },
  ACCESS_DENIED: { status: 403, message: "You don't have permission to perform this action." },
  /**
   * A user who must sign in with a second factor (prod: the super admin, hospital admins and team leads; any user of a hospital whose
   * policy requires two-factor) signed in without one.
   */
  MFA_REQUIRED: {
    status: 403,
    message: 'Two-factor authentication is required for your account. Set it up, then sign in again.',
  },
  VALIDATION_FAILED: { status: 400, message: 'Invalid input' },
  INVALID_STATE: { status: 409, message: 'The dataset is not in a state that allows this action.' },
  CONFLICT: { status: 409, message: 'The resource was changed by someone else. Reload and try again.' },
  /** A full verification job's item that found the audit chain or a signed digest broken (docs/jobs.md). */
  AUDIT_CHAIN_BROKEN: {
    status: 409,
    message: 'The audit trail is broken here: an event or a signed digest was changed or removed.',
  },
  /** A dataset under legal hold is never moved to the recycle bin nor purged (docs/domain.md#legal-hold). */
  LEGAL_HOLD: { status: 409, message: 'This dataset is under legal hold and cannot be deleted.' },
  /** Preview and redaction are for a series held for burned-in text, before it is released (docs/domain.md#held-series). */
  SERIES_NOT_HELD: { status: 409, message: 'This series is not held for review.' },
  /** Only native (uncompressed) Pixel Data is shown and redacted; a compressed series is never rewritten. */
  SERIES_NOT_REDACTABLE: {
    status: 409,
    message:
      'This series is stored compressed, so it cannot be shown or redacted here. Release it as it is or delete the dataset.',
  },
  /** Only a hospital admin shortens how long a team's data is kept (docs/domain.md#policies-and-inheritance). */
  RETENTION_SHORTENING_DENIED: { status: 403, message: 'Only a hospital admin may shorten data retention.' },
  TOO_MANY_FILES: { status: 400, message: 'Too many files. Maximum {n} files allowed.' },
  FILE_TOO_LARGE: { status: 413, message: 'File is larger than {n} bytes' },
  /** API Gateway's own limit on a request body (10 MB); files go to S3 directly, never through the API. */
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is larger than 10 MB' },
  /** The request line and headers together pass the front door's limit (a very long URL or query, oversized cookies). */
  REQUEST_HEADERS_TOO_LARGE: { status: 431, message: 'The request URL or headers are too long' },
  /**
   * The front door refused the request as sent before any handler ran, for a reason with no entry of its own (API
   * Gateway's DEFAULT_4XX); the answer keeps the gateway's status.
   */
  REQUEST_REJECTED: { status: 400, message: 'The request was refused as sent' },
  NOT_DICOM: { status: 400, message: 'Not a DICOM file' },
  DICOM_PARSE_FAILED: { status: 400, message: 'DICOM parsing failed' },
  /** Work limits of the DICOM engine (shared/dicom/limits.ts): a gzip or deflate bomb, a flood of elements. */
  DICOM_DECOMPRESSED_TOO_LARGE: { status: 413, message: 'Decompressed DICOM is larger than {n} bytes' },
  DICOM_TOO_MANY_ELEMENTS: { status: 400, message: 'DICOM file has more than {n} data elements' },
  DICOM_NESTED_TOO_DEEP: { status: 400, message: 'DICOM sequences are nested deeper than {n} levels' },
  NO_VALID_DICOM: { status: 400, message: 'No valid DICOM files detected. Upload DICOM files to continue.' },
  /** Every series' branch of the pipeline failed (docs/pipeline.md#series-in-parallel): the dataset ends FAILED. */
  NO_SERIES_PROCESSED: { status: 422, message: 'No series could be processed. Retry the dataset.' },
  UPLOAD_INCOMPLETE: { status: 409, message: 'Some files have not finished uploading.' },
  /** The packed study could not be read back as it was declared (docs/domain.md#upload-sessions). */
  UPLOAD_ARCHIVE_INVALID: {
    status: 400,
    message: 'The uploaded study could not be read back as it was declared. Upload it again.',
  },
  /** Delete Hospital, step 1: the typed text must exactly equal the hospital name (docs/domain.md#hospitals). */
  HOSPITAL_NAME_MISMATCH: { status: 400, message: 'The name you typed does not match the hospital name.' },
  /** Delete Hospital, step 2: the hospital has users or datasets, so a second, high-impact confirmation is needed. */
  HOSPITAL_DELETE_NEEDS_CONFIRMATION: {
    status: 409,
    message: 'This hospital has users or datasets. Confirm a second time to delete it.',
  },
  HOSPITAL_SLUG_TAKEN: { status: 409, message: 'A hospital with this name already exists.' },
  /** Users of a deactivated (deleted) hospital can no longer sign in or call the API. */
  HOSPITAL_DEACTIVATED: { status: 403, message: 'This hospital has been deactivated.' },
  EMAIL_IN_USE: { status: 409, message: 'A user with this email already exists.' },
  DEPARTMENT_NOT_EMPTY: {
    status: 409,
    message: 'This department still has teams or members. Move them before deleting it.',
  },
  TEAM_ARCHIVED: { status: 409, message: 'This team is archived.' },
  TEAM_FULL: { status: 409, message: 'This team has reached its maximum number of members.' },
  LAST_HOSPITAL_ADMIN: {
    status: 409,
    message: 'A hospital needs at least one active hospital admin. Appoint another one first.',
  },
  CANNOT_CHANGE_OWN_ACCOUNT: { status: 409, message: 'You cannot disable, demote or reset your own account.' },
  /** A file format the policy in force does not allow (docs/domain.md#policies-and-inheritance). */
  FILE_TYPE_NOT_ALLOWED: { status: 400, message: 'File type must be {formats}' },
  /** The upload's declared bytes plus the storage in use would pass the hospital's storage cap. */
  STORAGE_CAP_EXCEEDED: {
    status: 413,
    message: 'This upload would exceed the storage cap of {cap} GB ({used} GB in use).',
  },
  /** A hospital policy or team override looser than the level above it. */
  POLICY_LESS_RESTRICTIVE: {
    status: 400,
    message: '{field} may not be less restrictive than the {level}.',
  },
  /** An avatar over the limit (docs/domain.md#settings) (2MB, JPG, GIF, PNG). */
  AVATAR_INVALID: { status: 400, message: 'Avatar must be a JPG, GIF or PNG image of at most 2MB.' },
  /** Invitations (docs/error-catalogue.md#invitations). */
  INVITATION_NOT_FOUND: { status: 404, message: 'Invitation not found' },
  INVITATION_LINK_INVALID: { status: 404, message: 'This invitation link is not valid.' },
  INVITATION_EXPIRED: {
    status: 410,
    message: 'This invitation has expired. Ask your administrator to send a new one.',
  },
  INVITATION_CANCELLED: { status: 410, message: 'This invitation has been cancelled.' },
  INVITATION_ALREADY_USED: { status: 410, message: 'This invitation has already been used.' },
  INVITATION_DECLINED: { status: 410, message: 'This invitation was declined.' },
  INVITATION_NOT_PENDING: { status: 409, message: 'Only pending invitations can be resent or cancelled.' },
  EMAIL_ALREADY_REGISTERED: { status: 409, message: 'A user with this email address already exists.' },
  EMAIL_ALREADY_INVITED: { status: 409, message: 'This email address already has a pending invitation.' },
  EMAIL_NOT_SENT: { status: 502, message: 'The invitation e-mail could not be sent. Please try again later.' },
  /** Shares (docs/domain.md#shares). An unknown, revoked, expired or used-up link all answer alike. */
  SHARE_NOT_FOUND: { status: 404, message: 'Share not found' },
  SHARE_EXISTS: { status: 409, message: 'This dataset is already shared with {name}.' },
  SHARE_LINK_INVALID: { status: 404, message: 'This link is invalid or no longer available.' },
  SHARE_CODE_INVALID: { status: 400, message: 'The code is incorrect or has expired.' },
  SHARE_LOCKED: {
    status: 429,
    message: 'Too many incorrect codes. This link is locked for {minutes} minutes.',
  },
  SHARE_RATE_LIMITED: { status: 429, message: 'Too many attempts. Please wait a moment and try again.' },
  /** Sharing policy (docs/domain.md#share-policy): external sharing off, a share no longer waiting for approval. */
  SHARE_RECIPIENT_NOT_ALLOWED: {
    status: 403,
    message: "This hospital shares only with its own e-mail domains. The recipient's address is not one of them.",
  },
  SHARE_NOT_PENDING: { status: 409, message: 'This share is no longer waiting for approval.' },
  SMS_UNAVAILABLE: { status: 502, message: 'Text messages cannot be sent at the moment. Use an e-mail address.' },
  /** DICOM intake (docs/dicom-intake.md): a STOW-RS body of another media type, an AE title in use, a study too large. */
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'The request must be multipart/related with type application/dicom.',
  },
  NOT_ACCEPTABLE: {
    status: 406,
    message: 'Instances are answered as multipart/related with type application/dicom.',
  },
  /** Frames or a rendering the request's Accept cannot take, or one the server cannot make (PS3.18 8.7.3, 8.3.5). */
  MEDIA_TYPE_NOT_AVAILABLE: {
    status: 406,
    message: 'This resource is not available in the media types the request accepts.',
  },
  AE_TITLE_TAKEN: { status: 409, message: 'This AE title is already in use.' },
  /** Single sign-on (docs/sso.md): an e-mail domain belongs to one hospital across the deployment. */
  SSO_DOMAIN_TAKEN: { status: 409, message: 'The e-mail domain {domain} is already used by another hospital.' },
  /** The first connection of an identity provider needs its client secret (it is never stored to be sent back). */
  SSO_SECRET_REQUIRED: { status: 400, message: 'Enter the client secret of the identity provider.' },
  /** Single sign-on is switched on only after the provider answered the connection test. */
  SSO_CONNECTION_FAILED: { status: 400, message: 'The identity provider could not be reached: {reason}' },
  /** The first connection of a SAML provider needs its metadata, by URL or file. */
  SSO_METADATA_REQUIRED: { status: 400, message: "Give the identity provider's SAML metadata: its URL or its file." },
  /** The SAML metadata could not be read, or is not an identity provider's (entity ID, sign-on URL, certificate). */
  SSO_METADATA_INVALID: { status: 400, message: 'The SAML metadata could not be read: {reason}' },
  /** The public sign-in routes' limit per address (docs/sso.md#domain-routing). */
  SIGN_IN_RATE_LIMITED: { status: 429, message: 'Too many attempts. Please wait a moment and try again.' },
  /** A DICOMweb client without the route's scope, in its token or its integration (RFC 6750 3.1 insufficient_scope). */
  INSUFFICIENT_SCOPE: { status: 403, message: 'This client is not allowed to {scope}.' },
  RESPONSE_TOO_LARGE: {
    status: 413,
    message: 'The answer is larger than {n} bytes. Retrieve the series or instances one at a time.',
  },
  /** A limit on work at once: an API domain's reserved concurrency. */
  TOO_MANY_REQUESTS: { status: 429, message: 'Too many requests at once. Please wait a moment and try again.' },
  INTERNAL: { status: 500, message: 'Something went wrong on our side. Please try again.' },
  /** The server is starting or stopping; answered with Retry-After. */
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is starting. Please try again in a moment.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Fills `{n}`-style placeholders of a catalogue message. */
export function catalogueMessage(code: ErrorCode, values: Record<string, string | number> = {}): string {
  return ERROR_CATALOGUE[code].message.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? `{${key}}`));
}
