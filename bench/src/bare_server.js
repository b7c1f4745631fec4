// The ceiling for read methods: fastify answering a constant JSON-RPC result of a given size.
import Fastify from 'fastify';

const size = Number(process.argv[2] ?? 2000);
const body = JSON.stringify({
  jsonrpc: '2.0',
  result: { data: 'x'.repeat(Math.max(0, size - 40)) },
  id: 'bench',
});
const app = Fastify({ logger: false });
app.post('/', async (_req, reply) => reply.header('content-type', 'application/json').send(body));
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${app.server.address().port}\n`);
