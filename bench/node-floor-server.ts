// Diagnostic rung of the page benchmark: what Node.js's own HTTP layer costs for this page on this
// machine. A bare `node:http` server answering leadgate's bytes and headers for the page (copied from
// leadgate at start, for each representation, its request id included as a fixed value), picking one
// by a substring of `Accept` and doing nothing else per request: no request id made, no negotiation
// table, no form token. leadgate's fast path
// can come near it, not past it (docs/performance.md, "Pages (GET against nginx)").
import { createServer } from 'node:http';

const page = process.env.LEADGATE_PAGE_URL;
if (!page) throw new Error('LEADGATE_PAGE_URL: the leadgate page whose answers to copy');

/** Headers that Node writes itself for each answer or connection. */
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

async function copy(accept: string): Promise<{ head: string[]; body: Buffer }> {
  const response = await fetch(page!, { headers: { accept, 'accept-encoding': 'identity' } });
  const head: string[] = [];
  response.headers.forEach((value, name) => {
    if (!WRITTEN_BY_NODE.has(name)) head.push(name, value);
  });
  return { head, body: Buffer.from(await response.arrayBuffer()) };
}

const html = await copy('text/html');
const markdown = await copy('text/markdown');
createServer((request, response) => {
  const answer = request.headers.accept?.includes('markdown') ? markdown : html;
  response.writeHead(200, answer.head);
  response.end(answer.body);
}).listen(Number(process.env.PORT), '127.0.0.1');
