import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/**
 * Pictures the agency drops in a folder (logo, team photos, case-study screenshots), turned at
 * build into what a phone should download (docs/site.md, "Images"): WebP in a few widths, never
 * wider than the original, each with its width and height so the page does not jump (CLS).
 * Encoded files are cached by content (node_modules/.cache/leadgate/images), so a rebuild of the
 * same pictures costs nothing.
 */
export interface ResponsiveImage {
  src: string;
  srcset: string;
  width: number;
  height: number;
  alt: string;
}

const CACHE = resolve(
  fileURLToPath(import.meta.url),
  '../../../../node_modules/.cache/leadgate/images',
);
/** Phone (1×, 2×), tablet and wide screens; a screenshot is shown at most 60rem wide. */
const WIDTHS = [400, 800, 1200];
const WEBP_QUALITY = 78;

export class ImageCollector {
  /** dist/ path → bytes, to add to the built site. */
  readonly files = new Map<string, Buffer>();

  constructor(private readonly cacheDir = CACHE) {}

  private async encode(source: Buffer, width: number, key: string): Promise<Buffer> {
    const cached = join(this.cacheDir, `${key}-${width}.webp`);
    if (existsSync(cached)) return readFileSync(cached);
    const output = await sharp(source)
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer();
    mkdirSync(this.cacheDir, { recursive: true });
    writeFileSync(cached, output);
    return output;
  }

  /** `file` in every width up to its own, as `assets/images/<name>-<width>.<hash>.webp`. */
  async responsive(file: string, alt: string, widths = WIDTHS): Promise<ResponsiveImage> {
    const source = readFileSync(file);
    const key = createHash('sha256').update(source).digest('hex').slice(0, 16);
    const { width = 0, height = 0 } = await sharp(source).metadata();
    const chosen = [...new Set(widths.map((wanted) => Math.min(wanted, width)))];
    const name = basename(file, extname(file));
    const variants = await Promise.all(
      chosen.map(async (target) => {
        const bytes = await this.encode(source, target, key);
        const path = `assets/images/${name}-${target}.${key.slice(0, 10)}.webp`;
        this.files.set(path, bytes);
        return { path: `/${path}`, width: target };
      }),
    );
    const largest = variants[variants.length - 1]!;
    return {
      src: variants[0]!.path,
      srcset: variants.map((variant) => `${variant.path} ${variant.width}w`).join(', '),
      width: largest.width,
      height: Math.round((height * largest.width) / width),
      alt,
    };
  }

  /** The logo shown `displayHeight` px high: SVG as is, PNG at twice that height (sharp screens). */
  async logo(
    file: string,
    displayHeight = 32,
  ): Promise<{ src: string; width: number; height: number; file: string }> {
    const source = readFileSync(file);
    const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
    const meta = await sharp(source).metadata();
    const ratio = (meta.width ?? 1) / (meta.height ?? 1);
    const width = Math.round(displayHeight * ratio);
    if (extname(file).toLowerCase() === '.svg') {
      const path = `assets/logo.${hash}.svg`;
      this.files.set(path, source);
      return { src: `/${path}`, width, height: displayHeight, file: path };
    }
    const png = await sharp(source)
      .resize({ height: displayHeight * 2, withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const path = `assets/logo.${hash}.png`;
    this.files.set(path, png);
    return { src: `/${path}`, width, height: displayHeight, file: path };
  }
}

/** `<img>` with srcset, sizes, width and height; lazy unless it is seen at once. */
export function imageTag(
  image: ResponsiveImage,
  { sizes, eager = false, className }: { sizes: string; eager?: boolean; className?: string },
  escape: (text: string) => string,
): string {
  const loading = eager ? ' fetchpriority="high"' : ' loading="lazy" decoding="async"';
  const klass = className ? ` class="${className}"` : '';
  return `<img${klass} src="${image.src}" srcset="${image.srcset}" sizes="${sizes}" width="${image.width}" height="${image.height}" alt="${escape(image.alt)}"${loading}>`;
}
