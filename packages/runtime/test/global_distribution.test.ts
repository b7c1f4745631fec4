// How a global contract's code travels (nearcore's global_contracts.rs): shard by shard in layout
// order with nearcore's receipt ids, and never back to older code when deploys arrive out of order.
import {
  decodeReceipt,
  encodeAccessKey,
  encodeAccount,
  encodeReceipt,
  type Receipt,
  receiptIdFromReceipt,
  toHex,
} from '@nearlite/primitives';
import { type ApplyContext, Runtime } from '@nearlite/runtime';
import {
  TrieUpdate,
  trieKeyAccessKey,
  trieKeyAccount,
  trieKeyGlobalContractCode,
  trieKeyGlobalContractNonce,
} from '@nearlite/trie';
import t from 'tap';
import { alice, byAlice, byHash, CODE } from './global_fixtures.js';
import { config, FULL_ACCESS, GAS_PRICE, NEAR, ONE_KEY_STORAGE, signTx } from './helpers.js';
import { compute } from './snapshot.js';

/** Four shards, each with its own state; receipts routed as the chain routes them. */
class ShardedChain {
  readonly states = new Map<number, Map<string, Uint8Array>>();
  readonly pending = new Map<number, Uint8Array[]>();
  readonly runtime = new Runtime({
    config,
    chainId: 'test',
    validators: new Map(),
  });
  height = 1;
  /** Per shard, the last chunk's gas and compute. */
  readonly used = new Map<number, { gas: bigint; compute: bigint }>();
  constructor(
    readonly shardIds: number[],
    readonly accountShard: (id: string) => number,
  ) {
    for (const s of shardIds) {
      this.states.set(s, new Map());
      this.pending.set(s, []);
    }
  }

  block(txs: Map<number, Uint8Array[]> = new Map()): Receipt[] {
    this.height += 1;
    const next = new Map<number, Uint8Array[]>(this.shardIds.map((s) => [s, []]));
    const sent: Receipt[] = [];
    for (const shardId of this.shardIds) {
      const state = this.states.get(shardId)!;
      const update = new TrieUpdate({ get: (k) => state.get(toHex(k)) });
      const ctx: ApplyContext = {
        shardId,
        blockHeight: this.height,
        blockHash: new Uint8Array(32),
        prevBlockHash: new Uint8Array(32),
        blockTimestamp: 0n,
        epochId: new Uint8Array(32),
        epochHeight: 1,
        gasPrice: GAS_PRICE,
        gasLimit: 1_000_000_000_000_000n,
        randomSeed: new Uint8Array(32),
        accountShard: this.accountShard,
        shardIds: this.shardIds,
      };
      const res = this.runtime.applyChunk(ctx, update, txs.get(shardId) ?? [], this.pending.get(shardId)!);
      this.used.set(shardId, { gas: res.gasUsed, compute: res.computeUsage });
      for (const { key, value } of update.finalize().changes) {
        if (value) state.set(toHex(key), value);
        else state.delete(toHex(key));
      }
      for (const r of res.outgoingReceipts) {
        sent.push(decodeReceipt(r.bytes));
        next.get(r.targetShard ?? this.accountShard(r.receiverId))!.push(r.bytes);
      }
    }
    for (const [s, r] of next) this.pending.set(s, r);
    return sent;
  }
}

t.test('the distribution visits every shard in layout order, then stops', async (t) => {
  const chain = new ShardedChain([0, 1, 2, 3], (id) => (id === 'alice.near' ? 2 : 0));
  const account = {
    amount: 1000n * NEAR,
    locked: 0n,
    codeHash: new Uint8Array(32),
    storageUsage: ONE_KEY_STORAGE,
  };
  chain.states.get(2)!.set(toHex(trieKeyAccount('alice.near')), encodeAccount(account));
  chain.states
    .get(2)!
    .set(toHex(trieKeyAccessKey('alice.near', alice.publicKey)), encodeAccessKey(FULL_ACCESS));
  const tx = signTx(alice, 'alice.near', 'alice.near', 1n, [
    { type: 'DeployGlobalContract', code: CODE, deployMode: 0 },
  ]);
  const first = chain
    .block(new Map([[2, [tx.bytes]]]))
    .find((r) => r.receipt.kind === 'GlobalContractDistribution')!;
  t.equal((first.receipt as { targetShard: bigint }).targetShard, 2n, 'it starts on the deploying shard');
  const hops: Receipt[] = [first];
  for (let i = 0; i < 6; i++) {
    const sent = chain.block().filter((r) => r.receipt.kind === 'GlobalContractDistribution');
    hops.push(...sent);
    if (sent.length === 0) break;
  }
  t.same(
    hops.map((r) => {
      const d = r.receipt as { targetShard: bigint; alreadyDeliveredShards: bigint[] };
      return [d.targetShard, d.alreadyDeliveredShards];
    }),
    [
      [2n, []],
      [0n, [2n]],
      [1n, [0n, 2n]],
      [3n, [0n, 1n, 2n]],
    ],
    'shard 2, then the first shards of the layout not yet reached',
  );
  for (let i = 1; i < hops.length; i++) {
    t.equal(toHex(hops[i]!.receiptId), toHex(receiptIdFromReceipt(hops[i - 1]!.receiptId, 2 + i, 0)));
    t.equal(hops[i]!.predecessorId, 'alice.near');
  }
  for (const s of [0, 1, 2, 3]) {
    t.same(chain.states.get(s)!.get(toHex(trieKeyGlobalContractCode(byHash))), CODE, `stored on shard ${s}`);
  }
  t.same(decodeReceipt(encodeReceipt(hops[3]!)), hops[3], 'the receipt codec round-trips');
});

t.test('a stale distribution (an older nonce) does not overwrite newer code', async (t) => {
  const chain = new ShardedChain([0], () => 0);
  const state = chain.states.get(0)!;
  const id = byAlice;
  const receipt = (nonce: bigint, code: Uint8Array): Uint8Array =>
    encodeReceipt({
      predecessorId: 'alice.near',
      receiverId: 'system',
      receiptId: new Uint8Array(32).fill(Number(nonce)),
      receipt: {
        kind: 'GlobalContractDistribution',
        id,
        targetShard: 0n,
        alreadyDeliveredShards: [],
        code,
        nonce,
      },
    });
  // Installing the code takes deploy_global_contract_execution_base and _per_byte of compute
  // (parameters.snap: 20 Tgas and 250 Mgas a byte) and burns no gas; a stale one takes none.
  const installed =
    compute('deploy_global_contract_execution_base') + compute('deploy_global_contract_execution_per_byte');
  chain.pending.set(0, [receipt(2n, Uint8Array.of(2))]);
  chain.block();
  t.same(chain.used.get(0), { gas: 0n, compute: installed });
  chain.pending.set(0, [receipt(1n, Uint8Array.of(1))]);
  chain.block();
  t.same(chain.used.get(0), { gas: 0n, compute: 0n }, 'the stale one installs nothing');
  t.same(state.get(toHex(trieKeyGlobalContractCode(id))), Uint8Array.of(2));
  t.same(state.get(toHex(trieKeyGlobalContractNonce(id))), Uint8Array.of(2, 0, 0, 0, 0, 0, 0, 0));
  chain.pending.set(0, [receipt(2n, Uint8Array.of(3))]);
  chain.block();
  t.same(state.get(toHex(trieKeyGlobalContractCode(id))), Uint8Array.of(3), 'the same nonce is applied');
  t.same(chain.used.get(0), { gas: 0n, compute: installed });
});
