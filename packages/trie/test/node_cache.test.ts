// The decoded-node cache: found by the whole hash (never by a prefix that picks the same set), the
// least recently used slot of a set giving way, bounded, and close to an exact LRU's hit rate on
// uniformly spread keys.
import { createHash } from 'node:crypto';
import t from 'tap';
import { NodeCache } from '../src/node_cache.js';

const hashOf = (n: number) => new Uint8Array(createHash('sha256').update(String(n)).digest());

t.test('entries are found by their whole hash, as copies of the key', async (t) => {
  const c = new NodeCache<string>(64);
  const h = hashOf(1);
  c.set(h, 'one');
  t.equal(c.get(h), 'one');
  t.equal(c.get(hashOf(1)), 'one', 'an equal hash in another array');
  h[31] ^= 1;
  t.equal(c.get(h), undefined, 'the key was copied: changing the caller’s array changes nothing');
  h[31] ^= 1;
  const sameSet = Uint8Array.from(h);
  sameSet[31] ^= 0x80;
  t.equal(c.get(sameSet), undefined, 'a hash differing only past its first bytes is another key');
  sameSet[31] ^= 0x80;
  sameSet[10] ^= 1;
  t.equal(c.get(sameSet), undefined);
  c.set(h, 'uno');
  t.equal(c.get(h), 'uno', 'a set replaces in place');
  t.equal(c.get(new Uint8Array(31)), undefined, 'not a hash: never found');
  c.clear();
  t.equal(c.get(h), undefined);
});

t.test('a full set gives up its least recently used slot', async (t) => {
  const c = new NodeCache<number>(1); // one set
  const ways = c.capacity;
  t.ok(ways >= 2, `${ways} slots`);
  const hs = Array.from({ length: ways + 1 }, (_, i) => hashOf(i));
  for (let i = 0; i < ways; i++) c.set(hs[i]!, i);
  t.equal(c.get(hs[0]!), 0, 'read: now the most recent');
  c.set(hs[ways]!, ways);
  t.same(
    hs.map((h) => c.get(h)),
    hs.map((_, i) => (i === 1 ? undefined : i)),
    'the oldest unread entry went',
  );
});

t.test('bounded, and near an exact LRU on uniform keys', async (t) => {
  const c = new NodeCache<number>(4096);
  t.equal(c.capacity, 4096);
  const keys = Array.from({ length: 6000 }, (_, i) => hashOf(i));
  // Exact LRU of the same size, as a Map in recency order.
  const lru = new Map<number, number>();
  let hits = 0;
  let lruHits = 0;
  let s = 7;
  for (let i = 0; i < 100_000; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const u = s / 4294967296;
    const k = Math.floor(6000 * u * u);
    if (c.get(keys[k]!) === k) hits++;
    else c.set(keys[k]!, k);
    if (lru.has(k)) {
      lruHits++;
      lru.delete(k);
    } else if (lru.size >= 4096) lru.delete(lru.keys().next().value!);
    lru.set(k, k);
  }
  let held = 0;
  for (let k = 0; k < 6000; k++) if (c.get(keys[k]!) === k) held++;
  t.ok(held <= 4096, `holds ${held}`);
  t.ok(hits >= lruHits * 0.94, `hits ${hits} against an exact LRU's ${lruHits}`);
});
