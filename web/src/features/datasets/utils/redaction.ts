import type { RedactionRectangle } from '#shared/schemas/api/redaction.ts';

/** The wording of the review's warning (docs/domain.md#held-series). */
export const REVIEW_WARNING =
  'This series may show patient-identifying text burned into its pixels. Check every frame before releasing it.';

type Box = { left: number; top: number; width: number; height: number };
type Size = { width: number; height: number };

/**
 * A point on the shown image (client coordinates, as a pointer event gives them) as an image pixel: the image is
 * scaled to fit, so a screen pixel is not an image pixel. Clamped to the image.
 */
export function toImagePoint(clientX: number, clientY: number, box: Box, image: Size): { x: number; y: number } {
  const scaleX = box.width > 0 ? image.width / box.width : 1;
  const scaleY = box.height > 0 ? image.height / box.height : 1;
  const clamp = (value: number, max: number) => Math.min(max, Math.max(0, value));
  return {
    x: clamp(Math.floor((clientX - box.left) * scaleX), image.width - 1),
    y: clamp(Math.floor((clientY - box.top) * scaleY), image.height - 1),
  };
}

/** The rectangle two corners span, both corners' pixels included, whichever way it was drawn. */
export function spanRectangle(a: { x: number; y: number }, b: { x: number; y: number }): RedactionRectangle {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.abs(a.x - b.x) + 1, height: Math.abs(a.y - b.y) + 1 };
}

/** "x 10, y 20, 30 × 40 px": a rectangle in words for the list beside the image. */
export function describeRectangle(r: RedactionRectangle): string {
  return `x ${r.x}, y ${r.y}, ${r.width} × ${r.height} px`;
}
