import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { BotTrap } from '../intake/index.ts';
import { hasTokenSlot, liveFormPage } from '../intake/index.ts';
import {
  loadFile,
  readManifest,
  type Representation,
  type StaticFile,
} from '../../kernel/http/site/site-files.ts';
import {
  matchesEtag,
  pickEncoding,
  prefersMarkdown,
} from '../../kernel/http/site/site-negotiation.ts';

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
export interface SiteFiles {
  get(path: string): ((headers: IncomingHttpHeaders) => Selected) | undefined;
}

export interface SiteHandlers {
  /**
   * The site's files, for the page fast path (src/features/site/page-fast-path.ts): always the
   * current build.
   */
  files: SiteFiles;
  /**
   * The 404 page (HTML, or its Markdown when asked for) for a path that is not under /api/; a page a
   * later build added, or its trailing-slash spelling, is answered here when Fastify has no route.
   */
  notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
  /** Reads dist/ again (after `leadgate build` swapped it, docs/site.md "Serving"); throws if unreadable. */
  reload(): void;
}

type Choose = (headers: IncomingHttpHeaders) => Selected;

/** One build of dist/, loaded: what a request is answered from until the next build is swapped in. */
interface SiteTable {
  files: Map<string, Choose>;
  /** Page paths ("/services"), for the trailing-slash redirect. */
  pages: Set<string>;
  notFoundHtml: StaticFile;
  notFoundMarkdown: StaticFile;
}

function loadTable(
  dir: string,
  botTrap: Pick<BotTrap, 'issue'> | undefined,
  owned: (url: string) => boolean,
): SiteTable {
  const manifest = readManifest(dir);
  const files = new Map<string, Choose>();
  const route = (url: string, choose: Choose) => {
    // A route the API already owns (/openapi.json) keeps its handler: same document, one source.
    if (!owned(url)) files.set(url, choose);
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
  }
  for (const entry of manifest.files) {
    const file = loadFile(dir, entry.file, {
      cacheControl: entry.immutable ? IMMUTABLE_CACHE : PAGE_CACHE,
      vary: 'Accept-Encoding',
    });
    route(entry.path, (headers) => select(headers, file, 200));
  }
  const noCache = { cacheControl: 'no-cache', vary: 'Accept, Accept-Encoding' };
  return {
    files,
    pages: new Set(manifest.pages.map((page) => page.path).filter((path) => path !== '/')),
    notFoundHtml: loadFile(dir, manifest.notFound.html, noCache),
    notFoundMarkdown: loadFile(dir, manifest.notFound.markdown, noCache),
  };
}

/**
 * Serves dist/ from memory (@fastify/static is ~6× slower than nginx: docs/performance.md): every
 * file and its headers are loaded once per build, and a request only picks a representation. GET
 * and HEAD. The same table answers through Fastify and through the page fast path; `reload()`
 * swaps in the next build whole, so a request sees one build or the other, never a mix. With
 * `botTrap`, a page with a form gets a signed time in its token input
 * (src/features/intake/forms/live-form-page.ts).
 */
export function registerSite(
  app: FastifyInstance,
  dir: string,
  { botTrap }: { botTrap?: Pick<BotTrap, 'issue'> } = {},
): SiteHandlers {
  // The site's own routes, so a later build does not take them for routes the API owns.
  const mine = new Set<string>();
  const owned = (url: string) => !mine.has(url) && app.hasRoute({ method: 'GET', url });
  let table = loadTable(dir, botTrap, owned);

  const notFoundPage = (request: FastifyRequest, reply: FastifyReply) =>
    send(
      reply,
      select(
        request.headers,
        prefersMarkdown(request.headers.accept) ? table.notFoundMarkdown : table.notFoundHtml,
        404,
      ),
    );

  const answer = (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    const choose = table.files.get(path);
    if (choose) return send(reply, choose(request.headers));
    // One URL per page: "/services/" answers with a permanent redirect to "/services".
    const bare = path.endsWith('/') ? path.slice(0, -1) : '';
    if (bare && table.pages.has(bare)) {
      return reply.redirect(bare + (query === -1 ? '' : request.url.slice(query)), 301);
    }
    return notFoundPage(request, reply);
  };

  // Fastify routes for this build's paths (no request log lines for them, warnings and errors
  // still are: two masked lines per page view cost 40 % of the throughput against nginx,
  // docs/performance.md). Each looks the current build up, so a page a rebuild removed is a 404.
  for (const url of [...table.files.keys(), ...[...table.pages].map((path) => `${path}/`)]) {
    mine.add(url);
    app.get(url, { logLevel: 'warn' }, answer);
  }

  return {
    files: { get: (path) => table.files.get(path) },
    notFound: (request, reply) =>
      request.method === 'GET' || request.method === 'HEAD'
        ? answer(request, reply)
        : notFoundPage(request, reply),
    reload: () => {
      table = loadTable(dir, botTrap, owned);
    },
  };
}
