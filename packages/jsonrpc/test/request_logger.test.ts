// A request's logger is made only when something is logged through it, and then logs as the child
// fastify would have made: with the request's id.
import { Writable } from 'node:stream';
import pino from 'pino';
import t from 'tap';
import { lazyRequestLogger } from '../dist/request_logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, stream) };
}

t.test('the child is made on first use and carries the bindings', async (t) => {
  const { lines, log } = capture();
  let children = 0;
  const child = log.child.bind(log);
  log.child = ((b: pino.Bindings, o?: pino.ChildLoggerOptions) => {
    children++;
    return child(b, o);
  }) as typeof log.child;
  const req = lazyRequestLogger(log, { reqId: 'req-7' }, {});
  t.equal(children, 0, 'nothing made for a request that logs nothing');
  t.equal(req.level, 'info', "the parent's level");
  req.debug('below the level');
  req.warn({ code: 3 }, 'reply already sent');
  req.error('second line');
  await new Promise((r) => setImmediate(r));
  t.equal(children, 1, 'made once');
  t.equal(lines.length, 2);
  t.match(lines[0], { reqId: 'req-7', code: 3, msg: 'reply already sent', level: 40 });
  t.match(lines[1], { reqId: 'req-7', msg: 'second line', level: 50 });
});

t.test("a child's own level applies", async (t) => {
  const { lines, log } = capture();
  const req = lazyRequestLogger(log, { reqId: 'req-8' }, { level: 'error' });
  t.equal(req.level, 'error');
  req.warn('dropped');
  req.fatal('kept');
  await new Promise((r) => setImmediate(r));
  t.same(
    lines.map((l) => l.msg),
    ['kept'],
  );
  t.equal(req.child({ part: 'x' }).level, 'error', "a grandchild inherits the child's level");
});
