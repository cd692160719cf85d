// The baseline of benchmark 1: Fastify with nothing of ours, a route that parses the same JSON and
// answers 200. Run as its own process, like the real server, so both pay the same process costs.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/api/contact', async (request) => {
  if (typeof request.body !== 'object' || request.body === null) throw new Error('no body');
  return { success: true };
});
// Answers the benchmark's readiness poll, as leadgate does.
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
