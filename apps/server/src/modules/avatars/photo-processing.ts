import { createHash } from 'node:crypto';
import sharp from 'sharp';

/*
 * A photo uploaded in the console (decision 110): the body's first bytes must be a JPEG's,
 * a PNG's or a WebP's (whatever the file was called or the request said), it is decoded with
 * a cap on its pixels (a small PNG that unpacks to gigabytes is refused before it does), and
 * re-encoded by us into two square WebP sizes without its metadata (no camera, no place).
 * What is served is only ever what sharp wrote.
 */

/** The sizes kept (px, square): the card's (2× its 96 px) and a larger one. */
export const PHOTO_WIDTHS = [192, 640] as const;
/** The most pixels a photo may have (a 6000 × 6000 picture): more is refused before decoding. */
export const PHOTO_MAX_PIXELS = 36_000_000;

/** The upload is not a photo we take: the route answers 400 with this message. */
export class PhotoRejected extends Error {}

export interface PhotoVariant {
  /** `<content hash>-<width>.webp`, the path's last part under /photos/ */
  name: string;
  width: number;
  height: number;
  body: Buffer;
}

/** The types taken, each with how its file starts. */
const SIGNATURES: [type: string, test: (head: Buffer) => boolean][] = [
  ['jpeg', (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff],
  ['png', (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['webp', (head) => head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP'],
];

/** The type a body's first bytes say it is (jpeg, png, webp), or null. */
export function sniffPhoto(body: Buffer): string | null {
  return SIGNATURES.find(([, test]) => test(body))?.[0] ?? null;
}

/** Decodes, checks and re-encodes an uploaded photo; throws PhotoRejected for anything but a photo we take. */
export async function processPhoto(body: Buffer): Promise<PhotoVariant[]> {
  const type = sniffPhoto(body);
  if (!type) throw new PhotoRejected('The file is not a JPEG, PNG or WebP picture');
  const options = { limitInputPixels: PHOTO_MAX_PIXELS, failOn: 'error' as const, animated: false };
  let width: number | undefined;
  let height: number | undefined;
  let format: string | undefined;
  try {
    // the header only (nothing is decoded yet): the size is checked below, with a message
    ({ width, height, format } = await sharp(body, { ...options, limitInputPixels: false }).metadata());
  } catch {
    throw new PhotoRejected('The picture could not be read');
  }
  if (format !== type) throw new PhotoRejected('The file is not a JPEG, PNG or WebP picture');
  if (!width || !height) throw new PhotoRejected('The picture could not be read');
  if (width * height > PHOTO_MAX_PIXELS) throw new PhotoRejected(`The picture is too large (at most ${PHOTO_MAX_PIXELS / 1e6} million pixels)`);
  if (Math.min(width, height) < 64) throw new PhotoRejected('The picture is too small (at least 64 × 64 pixels)');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 32);
  try {
    return await Promise.all(
      PHOTO_WIDTHS.map(async (size) => {
        const out = await sharp(body, options)
          .rotate()
          .resize(size, size, { fit: 'cover', position: 'attention', withoutEnlargement: false })
          .webp({ quality: 80 })
          .toBuffer({ resolveWithObject: true });
        return { name: `${hash}-${size}.webp`, width: out.info.width, height: out.info.height, body: out.data };
      }),
    );
  } catch {
    throw new PhotoRejected('The picture could not be read');
  }
}
