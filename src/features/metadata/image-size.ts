import { imageSize as readImageSize } from 'image-size';

/** Pixel size and format of an image, from bytes already read (never a path or a URL). */
export interface ImageSize {
  /** image-size's type name (png, gif, jpeg, webp, avif, heic, svg, ico, bmp, tiff…). */
  format: string;
  width: number;
  height: number;
}

/** JPEG has always been answered as `jpeg`. */
const FORMAT_NAMES: Readonly<Record<string, string>> = { jpg: 'jpeg' };

export function imageSize(bytes: Buffer): ImageSize | undefined {
  // image-size reads through DataViews over `bytes.buffer` from `byteOffset` on, without the view's length:
  // given a Buffer that shares its memory (a slice, Node's buffer pool), it would read past the end into
  // unrelated bytes. A copy owns all of its memory, so a truncated header reads nothing beyond it.
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  try {
    const { type, width, height } = readImageSize(owned);
    // A truncated header reads as zeros or NaN: nothing can be said.
    if (type === undefined || !(width > 0 && height > 0)) return undefined;
    return { format: FORMAT_NAMES[type] ?? type, width, height };
  } catch {
    // Unknown or malformed bytes.
    return undefined;
  }
}
