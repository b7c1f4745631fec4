// A front end's head clock: the first head counts from its block's timestamp, and moves are seen
// whether or not `health` asks in between.
import type { HistoryReader } from '@nearlite/follower';
import { HeadClock } from '@nearlite/node';
import t from 'tap';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function history(timestampMs: number, fail = false): { reader: HistoryReader; at: { height: number } } {
  const at = { height: 10 };
  const reader = {
    cursor: () => ({ height: at.height, hash: new Uint8Array(32) }),
    blockAt: async (height: number) => {
      if (fail) throw new Error('connect ECONNREFUSED');
      return {
        height,
        hash: new Uint8Array(32),
        json: JSON.stringify({ header: { timestamp_nanosec: String(BigInt(timestampMs) * 1_000_000n) } }),
      };
    },
  } as unknown as HistoryReader;
  return { reader, at };
}

t.test('the first head seen counts from when its block was made', async (t) => {
  const { reader } = history(Date.now() - 60_000);
  const clock = new HeadClock(reader);
  t.teardown(() => clock.stop());
  await sleep(50);
  t.ok(clock.idleMs() >= 60_000, 'a head made a minute ago has stood a minute');
});

t.test('a first head whose block cannot be read counts from when it was seen', async (t) => {
  const { reader } = history(Date.now() - 60_000, true);
  const clock = new HeadClock(reader);
  t.teardown(() => clock.stop());
  await sleep(50);
  t.ok(clock.idleMs() < 30_000);
});

t.test('moves are watched between calls: the clock counts from the last move, not the call', async (t) => {
  const { reader, at } = history(Date.now() - 60_000);
  const clock = new HeadClock(reader);
  t.teardown(() => clock.stop());
  // The head moves while nobody asks, then stands.
  await sleep(1200);
  at.height = 11;
  await sleep(1200);
  const moved = Date.now();
  at.height = 12;
  await sleep(2500);
  const idle = clock.idleMs();
  t.ok(idle >= 1000, `the head stood since its last move, seen before this call (${idle} ms)`);
  t.ok(idle <= Date.now() - moved + 1100, 'and not from the first head');
});
