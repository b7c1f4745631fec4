// The PostgreSQL case's synthetic chain (bench/src/pg_history.js) is one a follower's checks accept:
// a chain they refuse would leave the case measuring nothing.
import { verifyStreamerMessage } from '@nearlite/stream';
import t from 'tap';
// @ts-expect-error: the bench is plain JavaScript without declarations
import { syntheticChain } from '../bench/src/pg_history.js';

t.test("every block of the bench's synthetic chain passes the follower's checks, linked", async (t) => {
  const messages = syntheticChain(5, 10_000_000) as Parameters<typeof verifyStreamerMessage>[0][];
  let prev: { hash: string; height: number } | undefined;
  for (const m of messages) {
    t.doesNotThrow(() => verifyStreamerMessage(m, prev ? { prev } : {}), `block ${m.block.header.height}`);
    prev = { hash: m.block.header.hash, height: m.block.header.height };
  }
  t.equal(prev?.height, 10_000_004);
});
