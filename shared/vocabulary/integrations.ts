/** The resource server of DICOMweb clients (docs/dicom-intake.md#dicomweb-clients) and its two scopes. */
export const DICOMWEB_RESOURCE_SERVER = 'imaging-dicomweb';
export const DICOMWEB_SCOPES = {
  read: `${DICOMWEB_RESOURCE_SERVER}/read`,
  write: `${DICOMWEB_RESOURCE_SERVER}/write`,
} as const;
export type DicomWebScope = (typeof DICOMWEB_SCOPES)[keyof typeof DICOMWEB_SCOPES];

/** The scopes an admin chooses for a client, by their short names (docs/dicom-intake.md#dicomweb-clients). */
export const DICOMWEB_SCOPE_NAMES = ['read', 'write'] as const;
export type DicomWebScopeName = (typeof DICOMWEB_SCOPE_NAMES)[number];
