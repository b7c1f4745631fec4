// status' genesis hash where the history does not hold the genesis block: asked of the upstream once
// it answers, one call however many status requests come meanwhile.
import { UpstreamGenesisHash, UpstreamRpc } from '@nearlite/follower';
import t from 'tap';
import { jsonRpcServer } from './helpers.js';

t.test("the upstream's genesis hash: asked once, shared by the calls that wait for it", async (t) => {
  const upstream = await jsonRpcServer(t, () => ({ result: { genesis_hash: 'GenesisHash1111' } }));
  const hash = new UpstreamGenesisHash(new UpstreamRpc(upstream.url));
  t.same(await Promise.all([hash.get(), hash.get(), hash.get()]), Array(3).fill('GenesisHash1111'));
  t.equal(await hash.get(), 'GenesisHash1111', 'kept');
  t.equal(upstream.calls.length, 1, 'one call');
});

t.test('an upstream that does not answer: no hash, and not asked again at once', async (t) => {
  const upstream = await jsonRpcServer(t, () => ({ error: { name: 'INTERNAL_ERROR', code: -32000 } }));
  const hash = new UpstreamGenesisHash(new UpstreamRpc(upstream.url));
  t.equal(await hash.get(), null);
  t.equal(await hash.get(), null);
  t.equal(upstream.calls.length, 1, 'asked again only a minute later');
  t.equal(await new UpstreamGenesisHash(null).get(), null, 'without an upstream, none');
});
