import { z } from 'zod';

/** The most rectangles one redaction takes: enough for every caption of a screen capture, few enough to review. */
export const MAX_REDACTION_RECTANGLES = 32;
/** Rows and Columns (0028,0010/0011) are US: no image is wider or taller (PS3.5 6.2). */
const MAX_EDGE = 65_535;

/**
 * One region to blank, in image pixel coordinates (x to the right from the left column, y down from the top row, as
 * the preview's PNG shows it). The site and the server validate with this one schema; the server also cuts each
 * rectangle to the image (docs/domain.md#redaction).
 */
export const RedactionRectangleSchema = z
  .object({
    x: z.number().int().min(0).max(MAX_EDGE),
    y: z.number().int().min(0).max(MAX_EDGE),
    width: z.number().int().min(1).max(MAX_EDGE),
    height: z.number().int().min(1).max(MAX_EDGE),
  })
  .strict();
export type RedactionRectangle = z.infer<typeof RedactionRectangleSchema>;

/** "Redact and release": the rectangles to blank in every frame of every instance of the held series. */
export const RedactSeriesRequestSchema = z
  .object({ rectangles: z.array(RedactionRectangleSchema).min(1).max(MAX_REDACTION_RECTANGLES) })
  .strict();
export type RedactSeriesRequest = z.infer<typeof RedactSeriesRequestSchema>;

/** Which frame of the held series to show: frames are counted over the series, instance after instance. */
export const SeriesPreviewQuerySchema = z.object({ frame: z.coerce.number().int().min(0).default(0) });
export type SeriesPreviewQuery = z.infer<typeof SeriesPreviewQuerySchema>;

/** One frame of a held series, for the person who may release it (docs/domain.md#held-series). */
export const SeriesPreviewSchema = z.object({
  seriesId: z.string(),
  frame: z.number().int().nonnegative(),
  frameCount: z.number().int().positive(),
  /**
   * The image's size in pixels, the coordinates of a rectangle. The PNG has this size, unless the image is over 1024
   * pixels on its longer edge: then it is subsampled to fit, and shown stretched to this size.
   */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** The frame as a PNG, in a data URL (data:image/png;base64,...). */
  image: z.string().startsWith('data:image/png;base64,'),
});
export type SeriesPreview = z.infer<typeof SeriesPreviewSchema>;
