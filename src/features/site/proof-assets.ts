import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedIdentity } from './agency.ts';
import { ContentError, type Page } from './pages.ts';
import { ImageCollector } from './images-pipeline.ts';
import type { LayoutContext } from './templates/layout.ts';
import type { ShownCase } from './templates/case-study.ts';

/** Where a case study's screenshots are dropped: site/content/realisations/images/. */
export const CASE_IMAGES = join('realisations', 'images');

export type IdentityAssets = Pick<LayoutContext, 'logo' | 'favicon' | 'themeColor' | 'proof'> & {
  /** Built files to add to dist/ (resized pictures, the logo). */
  files: Map<string, Buffer>;
};

/**
 * The pictures of the identity file and of the case studies, resized
 * (src/features/site/images-pipeline.ts), and what the layout shows with them. A screenshot named
 * in a case study and missing from the folder stops the build with the file's name.
 */
export async function identityAssets(
  identity: LoadedIdentity,
  pages: readonly Page[],
  contentDir: string,
): Promise<IdentityAssets> {
  const images = new ImageCollector();
  const { agency, imagesDir } = identity;
  const logo = await images.logo(join(imagesDir, agency.logo));
  const [teamPhotos, referenceShots, cases] = await Promise.all([
    indexed(
      agency.team,
      (person) => person.photo,
      (photo) => images.responsive(join(imagesDir, photo.file), photo.alt, [160, 320]),
    ),
    indexed(
      agency.references,
      (reference) => reference.screenshot,
      (shot) => images.responsive(join(imagesDir, shot.file), shot.alt),
    ),
    Promise.all(
      pages
        .filter((page) => page.caseStudy)
        .map(async (page): Promise<ShownCase> => {
          const caseStudy = page.caseStudy!;
          const screenshots = await Promise.all(
            caseStudy.screenshots.map((shot, index) => {
              const file = join(contentDir, CASE_IMAGES, shot.file);
              if (!existsSync(file)) {
                throw new ContentError(
                  `${page.source} : case.screenshots[${index}].file : le fichier ${shot.file} manque dans ${join(contentDir, CASE_IMAGES)}`,
                );
              }
              return images.responsive(file, shot.alt);
            }),
          );
          return { path: page.path, title: page.title, caseStudy, screenshots };
        }),
    ),
  ]);
  // The favicon is the logo: /favicon.svg, or /favicon.png (the logo's 64 px PNG).
  const svg = logo.file.endsWith('.svg');
  const favicon = svg ? 'favicon.svg' : 'favicon.png';
  images.files.set(favicon, images.files.get(logo.file)!);
  return {
    logo: { src: logo.src, width: logo.width, height: logo.height },
    favicon: { href: `/${favicon}`, type: svg ? 'image/svg+xml' : 'image/png' },
    themeColor: agency.brandColor,
    proof: { cases, teamPhotos, referenceShots },
    files: images.files,
  };
}

async function indexed<T, P, R>(
  items: readonly T[],
  pick: (item: T) => P | undefined,
  make: (picked: P) => Promise<R>,
): Promise<Map<number, R>> {
  const entries = await Promise.all(
    items.map(async (item, index) => {
      const picked = pick(item);
      return picked === undefined ? undefined : ([index, await make(picked)] as const);
    }),
  );
  return new Map(entries.filter((entry) => entry !== undefined));
}
