import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadFile, readManifest, type StaticFile } from './site-files.ts';
import { matchesEtag, pickEncoding, prefersMarkdown } from './site-negotiation.ts';

const PAGE_CACHE = 'public, max-age=300';
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile, status = 200) {
  const encoding = pickEncoding(request.headers['accept-encoding'], {
    br: file.br !== undefined,
    gzip: file.gzip !== undefined,
  });
  const representation = file[encoding] ?? file.identity;
  if (status === 200 && matchesEtag(request.headers['if-none-match'], representation.etag)) {
    return reply.code(304).headers(representation.notModified).send();
  }
  return reply.code(status).headers(representation.headers).send(representation.body);
}

export interface SiteHandlers {
  /** The 404 page (HTML, or its Markdown when asked for) for a path that is not under /api/. */
  notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

/**
 * Serves dist/ from memory (issue 4: @fastify/static is ~6× slower than nginx): every file and its
 * headers are loaded once here, and a request only picks a representation. GET and HEAD.
 */
export function registerSite(app: FastifyInstance, dir: string): SiteHandlers {
  const manifest = readManifest(dir);
  const route = (
    url: string,
    handler: (request: FastifyRequest, reply: FastifyReply) => FastifyReply,
  ) => {
    // A route the API already owns (/openapi.json) keeps its handler: same document, one source.
    // Issue 4: no request log lines for these files (warnings and errors still are): two masked
    // lines per page view cost 40 % of the throughput against nginx (bench/RESULTS.md). API
    // requests keep theirs.
    if (!app.hasRoute({ method: 'GET', url })) app.get(url, { logLevel: 'warn' }, handler);
  };

  for (const page of manifest.pages) {
    const markdownUrl = `${manifest.siteUrl}${page.markdownPath}`;
    const canonical = `${manifest.siteUrl}${page.path}`;
    const vary = 'Accept, Accept-Encoding';
    const html = loadFile(dir, page.html, {
      cacheControl: PAGE_CACHE,
      vary,
      extraHeaders: { link: `<${markdownUrl}>; rel="alternate"; type="text/markdown"` },
    });
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
    route(page.path, (request, reply) =>
      send(request, reply, prefersMarkdown(request.headers.accept) ? negotiated : html),
    );
    route(page.markdownPath, (request, reply) => send(request, reply, markdown));
    if (page.path !== '/') {
      // One URL per page: "/services/" answers with a permanent redirect to "/services".
      route(`${page.path}/`, (request, reply) => {
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
    route(entry.path, (request, reply) => send(request, reply, file));
  }

  const noCache = { cacheControl: 'no-cache', vary: 'Accept, Accept-Encoding' };
  const notFoundHtml = loadFile(dir, manifest.notFound.html, noCache);
  const notFoundMarkdown = loadFile(dir, manifest.notFound.markdown, noCache);
  return {
    notFound: (request, reply) =>
      send(
        request,
        reply,
        prefersMarkdown(request.headers.accept) ? notFoundMarkdown : notFoundHtml,
        404,
      ),
  };
}
