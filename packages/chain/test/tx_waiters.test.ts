// The waiters' index: a block wakes exactly the waiters its outcomes or rejections concern, and the
// chain's block event carries one listener while any client waits, none once they have all left.
import { EventEmitter } from 'node:events';
import {
  type ChainEvents,
  type NewBlockEvent,
  type NewChunksEvent,
  type TxWaiter,
  TxWaiters,
} from '@nearlite/chain';
import t from 'tap';

function block(outcomeIds: string[], rejected: [string, unknown][] = []): NewBlockEvent {
  return {
    header: {} as NewBlockEvent['header'],
    outcomeIds: new Set(outcomeIds),
    rejected: new Map(rejected),
    gasUsed: 0n,
  };
}

function chunks(txIds: string[], rejected: [string, unknown][] = []): NewChunksEvent {
  return { txIds: new Set(txIds), rejected: new Map(rejected) };
}

function waiter(txHex: string, everyBlock = false, atInclusion = false) {
  const seen = { woken: 0, rejected: [] as unknown[] };
  const w: TxWaiter = {
    txHex,
    everyBlock,
    atInclusion,
    woken: () => {
      seen.woken++;
    },
    rejected: (err) => {
      seen.rejected.push(err);
    },
  };
  return { w, seen };
}

t.test('a block wakes the waiters of the ids it touches, once each', async (t) => {
  const events = new EventEmitter<ChainEvents>();
  const waiters = new TxWaiters(events);
  const a = waiter('aa');
  const b = waiter('bb');
  const c = waiter('cc', true);
  waiters.add(a.w, new Set(['aa']));
  waiters.add(b.w, new Set(['r1', 'r2']));
  waiters.add(c.w, new Set(['cc']));
  t.equal(events.listenerCount('block'), 1, 'one listener for every waiter');
  t.equal(events.listenerCount('chunks'), 1);

  events.emit('block', block(['aa', 'zz']));
  t.same([a.seen.woken, b.seen.woken, c.seen.woken], [1, 0, 1], 'aa touched; cc wakes on every block');
  events.emit('block', block(['r1', 'r2']));
  t.same([a.seen.woken, b.seen.woken, c.seen.woken], [1, 1, 2], 'two of its ids in one block wake b once');

  // Many ids against few waiters walks the waiters instead: the same answer.
  events.emit('block', block(['x1', 'x2', 'x3', 'x4', 'x5', 'r2']));
  t.same([a.seen.woken, b.seen.woken, c.seen.woken], [1, 2, 3]);

  waiters.watch(b.w, new Set(['r3']));
  events.emit('block', block(['r1', 'r2']));
  t.equal(b.seen.woken, 2, 'ids it no longer watches do not wake it');
  events.emit('block', block(['r3']));
  t.equal(b.seen.woken, 3);
});

t.test('a rejection reaches every waiter on that transaction, which leaves', async (t) => {
  const events = new EventEmitter<ChainEvents>();
  const waiters = new TxWaiters(events);
  const a1 = waiter('aa');
  const a2 = waiter('aa', true);
  const b = waiter('bb');
  waiters.add(a1.w, new Set(['aa']));
  waiters.add(a2.w, new Set(['aa']));
  waiters.add(b.w, new Set(['bb']));
  events.emit('block', block(['aa'], [['aa', 'InvalidNonce']]));
  t.same(a1.seen.rejected, ['InvalidNonce']);
  t.same(a2.seen.rejected, ['InvalidNonce']);
  t.same([a1.seen.woken, a2.seen.woken], [0, 0], 'a rejected waiter is not woken as well');
  t.same(b.seen.rejected, []);
  t.equal(waiters.size, 1);
  events.emit('block', block(['aa']));
  t.same([a1.seen.woken, a2.seen.woken], [0, 0], 'gone');
});

t.test('the listener leaves with the last waiter and comes back with the next', async (t) => {
  const events = new EventEmitter<ChainEvents>();
  const waiters = new TxWaiters(events);
  const a = waiter('aa');
  const b = waiter('bb');
  waiters.add(a.w, new Set(['aa']));
  waiters.add(b.w, new Set(['bb']));
  waiters.remove(a.w);
  waiters.remove(a.w);
  t.equal(events.listenerCount('block'), 1);
  waiters.remove(b.w);
  t.equal(events.listenerCount('block'), 0);
  waiters.watch(b.w, new Set(['cc']));
  t.equal(waiters.size, 0, 'watching after leaving does not bring a waiter back');
  waiters.add(a.w, new Set(['aa']));
  t.equal(events.listenerCount('block'), 1);
  events.emit('block', block(['aa', 'bb', 'cc']));
  t.same([a.seen.woken, b.seen.woken], [1, 0]);
});

t.test("a waiter leaving during a block's wake-ups does not disturb the others", async (t) => {
  const events = new EventEmitter<ChainEvents>();
  const waiters = new TxWaiters(events);
  const order: string[] = [];
  const mk = (id: string): TxWaiter => {
    const w: TxWaiter = {
      txHex: id,
      everyBlock: false,
      atInclusion: false,
      woken: () => {
        order.push(id);
        waiters.remove(w);
      },
      rejected: () => undefined,
    };
    return w;
  };
  for (const id of ['a', 'b', 'c', 'd']) waiters.add(mk(id), new Set([id, 'shared']));
  events.emit('block', block(['shared']));
  t.same(order.sort(), ['a', 'b', 'c', 'd']);
  t.equal(waiters.size, 0);
  t.equal(events.listenerCount('block'), 0);
});

t.test('several waiters on one id, and one waiter on several ids, come and go independently', async (t) => {
  const events = new EventEmitter<ChainEvents>();
  const waiters = new TxWaiters(events);
  const a = waiter('aa');
  const b = waiter('bb');
  const c = waiter('cc');
  waiters.add(a.w, new Set(['r']));
  waiters.add(b.w, new Set(['r', 's']));
  waiters.add(c.w, new Set(['r']));
  waiters.remove(b.w);
  events.emit('block', block(['r']));
  t.same([a.seen.woken, b.seen.woken, c.seen.woken], [1, 0, 1]);
  waiters.remove(a.w);
  events.emit('block', block(['r', 's']));
  t.same([a.seen.woken, b.seen.woken, c.seen.woken], [1, 0, 2], 'the last of three on an id still woken');
  waiters.remove(c.w);
  t.equal(waiters.size, 0);
  t.equal(events.listenerCount('block'), 0);
});

t.test('a block wakes its waiters in the order they came, whatever the order of its outcomes', async (t) => {
  const events = new EventEmitter<ChainEvents>();
  const waiters = new TxWaiters(events);
  const order: string[] = [];
  const mk = (id: string, everyBlock = false): TxWaiter => ({
    txHex: id,
    everyBlock,
    atInclusion: false,
    woken: () => {
      order.push(id);
    },
    rejected: () => undefined,
  });
  const ids = ['a', 'b', 'c', 'd', 'e'];
  for (const id of ids) waiters.add(mk(id, id === 'c'), new Set([`r${id}`]));
  events.emit('block', block(['re', 'rb', 'ra', 'rd']));
  t.same(order, ['a', 'b', 'c', 'd', 'e'], 'c wakes on every block, in its place');
});

t.test('chunks made ahead wake only the waiters for INCLUDED of the transactions they took', async (t) => {
  const events = new EventEmitter<ChainEvents>();
  const waiters = new TxWaiters(events);
  const included = waiter('aa', false, true);
  const executed = waiter('aa');
  const final = waiter('aa', true);
  const other = waiter('bb', false, true);
  const refused = waiter('cc', false, true);
  waiters.add(included.w, new Set(['aa']));
  waiters.add(executed.w, new Set(['aa']));
  waiters.add(final.w, new Set(['aa']));
  waiters.add(other.w, new Set(['bb']));
  waiters.add(refused.w, new Set(['cc']));
  events.emit('chunks', chunks(['aa', 'zz'], [['cc', 'Expired']]));
  t.same(
    [included.seen.woken, executed.seen.woken, final.seen.woken, other.seen.woken],
    [1, 0, 0, 0],
    'only the INCLUDED waiter of aa',
  );
  t.same(refused.seen.rejected, ['Expired'], 'a refusal in the chunks reaches its waiters');
  t.equal(waiters.size, 4);
  // Many transactions against few waiters walks the waiters instead: the same answer.
  events.emit('chunks', chunks(['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'bb']));
  t.same([included.seen.woken, other.seen.woken], [1, 1]);
  for (const w of [included, executed, final, other]) waiters.remove(w.w);
  t.equal(events.listenerCount('chunks'), 0, 'the listener leaves with the last waiter');
});

t.test("a block's crowd of waiters is woken in slices, with a turn of the event loop between", async (t) => {
  const events = new EventEmitter<ChainEvents>();
  const waiters = new TxWaiters(events);
  const order: number[] = [];
  const all = Array.from({ length: 250 }, (_, i) => {
    const w: TxWaiter = {
      txHex: `t${i}`,
      everyBlock: false,
      atInclusion: false,
      woken: () => {
        order.push(i);
        waiters.remove(w);
      },
      rejected: () => {},
    };
    waiters.add(w, new Set([`r${i}`]));
    return w;
  });
  // One that leaves before its slice comes is not woken.
  const leaving = all[180]!;
  events.emit('block', block(all.map((_, i) => `r${i}`).reverse()));
  t.same(order, [...Array(100).keys()], 'the first hundred, in the order they came, at once');
  waiters.remove(leaving);
  // What the sockets brought meanwhile is handled before the next slice.
  let between = -1;
  setImmediate(() => {
    between = order.length;
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.ok(between >= 100 && between < 249, 'the rest come after a turn of the event loop');
  t.same(
    order,
    [...Array(250).keys()].filter((i) => i !== 180),
    'every other waiter, in order, once each',
  );
  t.equal(waiters.size, 0);
  t.equal(events.listenerCount('block'), 0);
});
