// The send_tx case's generator reads HTTP responses by hand (bench/src/raw_http.js): a body split
// across reads, answers one after another on one connection, and a response it cannot frame must
// come out as what the server sent, or the bench counts answers it never got.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import t from 'tap';
// @ts-expect-error: the bench is plain JavaScript without declarations
import { RawHttpConnection } from '../bench/src/raw_http.js';

interface Conn {
  post(body: string): Promise<{ status: number; text: string }>;
  close(): void;
}

t.test('answers on one keep-alive connection, bodies of any size, in order', async (t) => {
  const app = Fastify();
  app.post('/', async (req, reply) => {
    const body = req.body as { n: number; status?: number };
    reply.code(body.status ?? 200);
    // Large enough for several TCP reads, with multi-byte characters in it.
    return { n: body.n, pad: 'é'.repeat(body.n) };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  const { port } = app.server.address() as AddressInfo;
  const conn = (await RawHttpConnection.open(`http://127.0.0.1:${port}`)) as Conn;
  for (const n of [0, 5, 70_000, 3, 300_000]) {
    const { status, text } = await conn.post(JSON.stringify({ n }));
    t.equal(status, 200);
    t.same(JSON.parse(text), { n, pad: 'é'.repeat(n) });
  }
  const bad = await conn.post(JSON.stringify({ n: 1, status: 503 }));
  t.equal(bad.status, 503, "another status is the server's");
  const first = conn.post(JSON.stringify({ n: 2 }));
  await t.rejects(conn.post('{}'), /already in flight/, 'one request at a time');
  t.same(JSON.parse((await first).text), { n: 2, pad: 'éé' }, 'the first is still answered');
  conn.close();
});

t.test('a response without content-length fails the request instead of hanging it', async (t) => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"a":');
    res.end('1}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const { port } = server.address() as AddressInfo;
  const conn = (await RawHttpConnection.open(`http://127.0.0.1:${port}`)) as Conn;
  await t.rejects(conn.post('{}'), /without content-length/);
});

t.test('a connection the server closes fails the request in flight', async (t) => {
  const server = createServer((req) => req.socket.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const { port } = server.address() as AddressInfo;
  const conn = (await RawHttpConnection.open(`http://127.0.0.1:${port}`)) as Conn;
  await t.rejects(conn.post('{}'), /closed|ECONNRESET/);
});
