import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { AvatarSigner } from '#shared/domain/settings/me-settings.ts';

/**
 * Avatars (docs/domain.md#settings) in the assets bucket: a presigned PUT that signs the content type and length, so
 * the browser can store only the image it declared, and a presigned GET to show it.
 */
export function createAvatarSigner(presigner: S3Client, bucket: () => string): AvatarSigner {
  return {
    presignPut: (key, contentType, sizeBytes, expiresIn) =>
      getSignedUrl(
        presigner,
        new PutObjectCommand({ Bucket: bucket(), Key: key, ContentType: contentType, ContentLength: sizeBytes }),
        { expiresIn, signableHeaders: new Set(['content-type', 'content-length']) },
      ),
    presignGet: (key, expiresIn) =>
      getSignedUrl(presigner, new GetObjectCommand({ Bucket: bucket(), Key: key }), { expiresIn }),
  };
}
