// Diagnostic rung of benchmark 1: what Node.js's own HTTP layer costs for this POST on this machine.
// A bare `node:http` server that reads the body, parses the JSON and answers what the bare Fastify
// route answers: the difference with bare Fastify is Fastify's own share of a request
// (docs/performance.md, "The accept path").
import { createServer } from 'node:http';

const answer = Buffer.from(JSON.stringify({ success: true }));

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    // The benchmark's readiness poll is a GET with no body.
    if (request.method === 'POST') JSON.parse(Buffer.concat(chunks).toString('utf8'));
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': answer.length,
    });
    response.end(answer);
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
