import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { BotTrap } from './bot-trap.ts';
import { hasTokenSlot, liveFormPage } from './live-form-page.ts';
import { loadFile, readManifest, type Representation, type StaticFile } from './site-files.ts';
import { matchesEtag, pickEncoding, prefersMarkdown } from './site-negotiation.ts';

const PAGE_CACHE = 'public, max-age=300';
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** The representation a request gets: Markdown or HTML, then the encoding, then 304 or 200. */
export interface Selected {
  status: 200 | 304 | 404;
  representation: Representation;
}

function select(headers: IncomingHttpHeaders, file: StaticFile, status: 200 | 404): Selected {
  // `in`, not a read: a form page compresses an encoding only once a request picks it.
  const encoding = pickEncoding(headers['accept-encoding'], {
    br: 'br' in file,
    gzip: 'gzip' in file,
  });
  const representation = file[encoding] ?? file.identity;
  if (status === 200 && matchesEtag(headers['if-none-match'], representation.etag)) {
    return { status: 304, representation };
  }
  return { status, representation };
}

function send(reply: FastifyReply, { status, representation }: Selected) {
  if (status === 304) return reply.code(304).headers(representation.notModified).send();
  return reply.code(status).headers(representation.headers).send(representation.body);
}

/** Every public file by exact path, each a choice between representations by request headers. */
export type SiteFiles = ReadonlyMap<string, (headers: IncomingHttpHeaders) => Selected>;

export interface SiteHandlers {
  /** The site's files, for the page fast path (src/http/page-fast-path.ts). */
  files: SiteFiles;
  /** The 404 page (HTML, or its Markdown when asked for) for a path that is not under /api/. */
  notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

/**
 * Serves dist/ from memory (@fastify/static is ~6× slower than nginx: docs/performance.md): every
 * file and its headers are loaded once here, and a request only picks a representation. GET and
 * HEAD. The same table answers through Fastify and through the page fast path. With `botTrap`,
 * a page with a form gets a signed time in its token input (src/http/live-form-page.ts).
 */
export function registerSite(
  app: FastifyInstance,
  dir: string,
  { botTrap }: { botTrap?: Pick<BotTrap, 'issue'> } = {},
): SiteHandlers {
  const manifest = readManifest(dir);
  const files = new Map<string, (headers: IncomingHttpHeaders) => Selected>();
  const route = (url: string, choose: (headers: IncomingHttpHeaders) => Selected) => {
    // A route the API already owns (/openapi.json) keeps its handler: same document, one source.
    if (app.hasRoute({ method: 'GET', url })) return;
    files.set(url, choose);
    // No request log lines for these files (warnings and errors still are): two masked lines per
    // page view cost 40 % of the throughput against nginx (docs/performance.md).
    app.get(url, { logLevel: 'warn' }, (request, reply) => send(reply, choose(request.headers)));
  };

  for (const page of manifest.pages) {
    const markdownUrl = `${manifest.siteUrl}${page.markdownPath}`;
    const canonical = `${manifest.siteUrl}${page.path}`;
    const vary = 'Accept, Accept-Encoding';
    const htmlOptions = {
      vary,
      extraHeaders: { link: `<${markdownUrl}>; rel="alternate"; type="text/markdown"` },
    };
    const staticHtml = loadFile(dir, page.html, { ...htmlOptions, cacheControl: PAGE_CACHE });
    const html =
      botTrap && hasTokenSlot(staticHtml.identity.body.toString('utf8'))
        ? liveFormPage(dir, page.html, htmlOptions, botTrap)
        : () => staticHtml;
    const negotiated = loadFile(dir, page.markdown, {
      cacheControl: PAGE_CACHE,
      vary,
      extraHeaders: { link: `<${canonical}>; rel="canonical"` },
    });
    const markdown = loadFile(dir, page.markdown, {
      cacheControl: PAGE_CACHE,
      vary: 'Accept-Encoding',
      extraHeaders: { link: `<${canonical}>; rel="canonical"` },
    });
    route(page.path, (headers) =>
      select(headers, prefersMarkdown(headers.accept) ? negotiated : html(), 200),
    );
    route(page.markdownPath, (headers) => select(headers, markdown, 200));
    if (page.path !== '/') {
      // One URL per page: "/services/" answers with a permanent redirect to "/services".
      app.get(`${page.path}/`, { logLevel: 'warn' }, (request, reply) => {
        const query = request.url.indexOf('?');
        return reply.redirect(page.path + (query === -1 ? '' : request.url.slice(query)), 301);
      });
    }
  }

  for (const entry of manifest.files) {
    const file = loadFile(dir, entry.file, {
      cacheControl: entry.immutable ? IMMUTABLE_CACHE : PAGE_CACHE,
      vary: 'Accept-Encoding',
    });
    route(entry.path, (headers) => select(headers, file, 200));
  }

  const noCache = { cacheControl: 'no-cache', vary: 'Accept, Accept-Encoding' };
  const notFoundHtml = loadFile(dir, manifest.notFound.html, noCache);
  const notFoundMarkdown = loadFile(dir, manifest.notFound.markdown, noCache);
  return {
    files,
    notFound: (request, reply) =>
      send(
        reply,
        select(
          request.headers,
          prefersMarkdown(request.headers.accept) ? notFoundMarkdown : notFoundHtml,
          404,
        ),
      ),
  };
}
