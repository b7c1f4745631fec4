import {
  blockView,
  encodeIdList,
  gcStep,
  gcStopHeight,
  generateKeyFile,
  openLocalnetChain,
  stateRecordToWrite,
  ViewClient,
} from '@nearlite/chain';
import {
  base58Encode,
  type CryptoHash,
  concatBytes,
  HandlerError,
  sha256,
  stringifyJson,
  toBase64,
  toHex,
  utf8,
} from '@nearlite/primitives';
import { blockShardKey, DBCol, Store, StoreUpdate } from '@nearlite/store';
import t from 'tap';

/** Block views come pre-serialized; parse them back for assertions. */
function blockOf(views: ViewClient, ref: Parameters<ViewClient['block']>[0]): unknown {
  return JSON.parse(stringifyJson(views.block(ref)));
}

async function setup(opts: { shards?: number; epochLength?: number } = {}) {
  const key = generateKeyFile('test.near');
  const store = await Store.memory();
  const chain = await openLocalnetChain(store, {
    numShards: opts.shards ?? 2,
    epochLength: opts.epochLength ?? 5,
    key,
  });
  const views = new ViewClient({
    chain,
    transactionView: () => ({}),
    receiptView: () => ({}),
    runtimeConfigView: { storage_amount_per_byte: '10000000000000000000' },
    nodePublicKey: key.public_key,
    validatorPublicKey: key.public_key,
    validatorAccountId: 'test.near',
    rpcAddr: '127.0.0.1:0',
    version: { version: 'test', build: 'test', commit: 'unknown', rustc_version: 'n/a' },
    gcNumEpochsToKeep: 3,
  });
  return { chain, views, store, key };
}

t.test('blocks chain together with nearcore finality and epochs', async (t) => {
  const { chain, views } = await setup();
  for (let i = 0; i < 12; i++) await chain.produceBlock();
  const head = chain.headHeader();
  t.equal(head.lite.height, 12);
  const b = blockOf(views, { finality: 'final' }) as {
    header: { height: number; epoch_id: string; next_epoch_id: string };
    chunks: unknown[];
  };
  t.equal(b.header.height, 10, 'final = head - 2');
  t.equal((blockOf(views, { finality: 'near-final' }) as { header: { height: number } }).header.height, 11);
  t.equal(b.chunks.length, 2);
  const e1 = blockOf(views, { blockId: 3 }) as { header: { epoch_id: string; next_epoch_id: string } };
  t.equal(e1.header.epoch_id, '11111111111111111111111111111111', 'first epoch id is the zero hash');
  t.equal(e1.header.next_epoch_id, base58Encode(chain.genesisHash), 'second epoch id is the genesis hash');
  const e3 = blockOf(views, { blockId: 12 }) as { header: { epoch_id: string } };
  t.equal(
    e3.header.epoch_id,
    base58Encode(chain.chainStore.blockHashByHeight(5)!),
    'epoch 3 id = last block of epoch 1',
  );
  for (let h = 1; h <= 12; h++) {
    const hdr = chain.chainStore.blockHeader(chain.chainStore.blockHashByHeight(h)!)!;
    t.same(hdr.prevHash, chain.chainStore.blockHashByHeight(h - 1), `block ${h} links to ${h - 1}`);
  }
  const unknown = (() => {
    try {
      blockOf(views, { blockId: 99 });
    } catch (e) {
      return e;
    }
  })();
  t.ok(unknown instanceof HandlerError && unknown.cause === 'UNKNOWN_BLOCK');
});

t.test('each block is stored with its view, the one that would be built on demand', async (t) => {
  const { chain, views, store } = await setup();
  for (let i = 0; i < 3; i++) await chain.produceBlock();
  for (let h = 1; h <= 3; h++) {
    const hash = chain.chainStore.blockHashByHeight(h)!;
    const stored = store.get(DBCol.BlockView, hash);
    t.ok(stored, `block ${h} has a stored view`);
    const built = blockView(
      'test.near',
      chain.chainStore.blockHeader(hash)!,
      chain.chainStore.blockChunkHeaders(hash)!,
    );
    t.same(JSON.parse(new TextDecoder().decode(stored)), JSON.parse(stringifyJson(built)));
    t.same(
      blockOf(views, { blockId: h }),
      JSON.parse(stringifyJson(built)),
      'and it is what `block` returns',
    );
  }
  t.equal(store.get(DBCol.BlockView, chain.genesisHash), undefined, 'genesis is built on demand');
  t.equal((blockOf(views, { blockId: 0 }) as { header: { height: number } }).header.height, 0);
});

t.test('accounts are spread over shards and queryable at any block', async (t) => {
  const { chain, views } = await setup({ shards: 4 });
  await chain.produceBlock();
  t.equal(chain.layout.accountIdToShardId('test.near'), 3);
  t.equal(chain.layout.accountIdToShardId('near'), 2);
  t.equal(chain.layout.accountIdToShardId('alice'), 0);
  const acc = views.viewAccount({ finality: 'optimistic' }, 'test.near') as {
    amount: string;
    storage_usage: number;
  };
  t.equal(acc.amount, (10n ** 33n).toString());
  t.equal(acc.storage_usage, 182);
  t.same(views.viewAccessKeyList({ finality: 'optimistic' }, 'nobody.near'), {
    keys: [],
    block_height: 1,
    block_hash: base58Encode(chain.head().hash),
  });
});

t.test('sandbox patches land in the next block and are recorded as state changes', async (t) => {
  const { chain, views } = await setup();
  const writes = [
    {
      Account: {
        account_id: 'alice.test.near',
        account: {
          amount: '5',
          locked: '0',
          code_hash: '11111111111111111111111111111111',
          storage_usage: 100,
        },
      },
    },
    {
      Data: { account_id: 'alice.test.near', data_key: toBase64(utf8('STATE')), value: toBase64(utf8('v')) },
    },
  ].map(stateRecordToWrite);
  const applied = chain.patchState(writes);
  await chain.produceBlock();
  await applied;
  const state = views.viewState({ finality: 'optimistic' }, 'alice.test.near', new Uint8Array(0), true) as {
    values: { key: string; value: string }[];
    proof: string[];
  };
  t.same(state.values, [{ key: toBase64(utf8('STATE')), value: toBase64(utf8('v')) }]);
  t.ok(state.proof.length > 0, 'proof nodes are included on request');
  const before = (() => {
    try {
      return views.viewAccount({ blockId: 0 }, 'alice.test.near');
    } catch (e) {
      return e;
    }
  })();
  t.ok(
    before instanceof HandlerError && before.cause === 'UNKNOWN_ACCOUNT',
    'time travel: the genesis state has no alice',
  );
});

t.test('a patch the state refuses fails alone: the others in its block are written', async (t) => {
  const { chain, views } = await setup({ shards: 2 });
  const account = (id: string) => ({
    Account: {
      account_id: id,
      account: {
        amount: '5',
        locked: '0',
        code_hash: '11111111111111111111111111111111',
        storage_usage: 100,
      },
    },
  });
  const contract = (id: string) => ({ Contract: { account_id: id, code: toBase64(utf8('code')) } });
  // Names on each of the two shards, so one patch writes both.
  const names = ['a', 'b', 'c', 'd', 'x', 'y', 'z', 'w'].map((n) => `${n}.test.near`);
  const on = (shard: number) => names.filter((n) => chain.layout.accountIdToShardId(n) === shard);
  const [first, last] = [on(0), on(1)];
  t.ok(first.length >= 2 && last.length >= 2, 'accounts on both shards');
  const patch = (records: object[]) =>
    chain.patchState(records.map((r) => stateRecordToWrite(r as Parameters<typeof stateRecordToWrite>[0])));
  const settled = (p: Promise<void>) =>
    p.then(
      () => 'written',
      (e: Error) => e.message,
    );
  const before = chain.headHeader().lite.height;
  const outcomes = Promise.all([
    settled(patch([account(first[0]!)])),
    // Its account holds no such code: refused, as nearcore's assertion is.
    settled(patch([contract('ghost.test.near')])),
    settled(patch([account(last[0]!)])),
    // Whole or not at all: its first shard's record is not written when the second's is refused.
    settled(patch([account(first[1]!), contract(last[1]!)])),
  ]);
  await chain.produceBlock();
  const [ok1, ghost, ok2, split] = await outcomes;
  t.equal(ok1, 'written');
  t.equal(ok2, 'written', "another caller's refused patch is not this one's error");
  t.match(ghost, /Contract record of ghost\.test\.near/);
  t.match(split, new RegExp(`Contract record of ${last[1]!.replace(/\./g, '\\.')}`));
  t.equal(chain.headHeader().lite.height, before + 1, 'in one block');
  const exists = (id: string) => {
    try {
      views.viewAccount({ finality: 'optimistic' }, id);
      return true;
    } catch (e) {
      if (e instanceof HandlerError && e.cause === 'UNKNOWN_ACCOUNT') return false;
      throw e;
    }
  };
  t.same(
    [first[0]!, last[0]!, first[1]!, last[1]!].map(exists),
    [true, true, false, false],
    'the two written, nothing of the refused one',
  );
});

t.test('a halted chain answers the patches no block will carry', async (t) => {
  const { chain } = await setup();
  const write = stateRecordToWrite({
    Data: { account_id: 'test.near', data_key: toBase64(utf8('k')), value: toBase64(utf8('v')) },
  });
  const waiting = chain.patchState([write]);
  chain.halt();
  await t.rejects(waiting, { name: 'InternalError', message: 'the node is stopping' }, 'one queued before');
  await t.rejects(chain.patchState([write]), { name: 'InternalError', message: 'the node is stopping' });
  await t.rejects(chain.produceBlocks(2), { message: 'the node is stopping' }, 'and no loop of blocks runs');
});

t.test('GC keeps the last epochs, moves the tail and answers GARBAGE_COLLECTED_BLOCK below it', async (t) => {
  const { chain, views, store } = await setup({ epochLength: 3, shards: 1 });
  const writes = [
    { Data: { account_id: 'test.near', data_key: toBase64(utf8('k')), value: toBase64(utf8('1')) } },
  ].map(stateRecordToWrite);
  for (let i = 0; i < 20; i++) {
    if (i % 2 === 0) {
      const w = [
        {
          Data: { account_id: 'test.near', data_key: toBase64(utf8('k')), value: toBase64(utf8(String(i))) },
        },
      ].map(stateRecordToWrite);
      const p = chain.patchState(i === 0 ? writes : w);
      await chain.produceBlock();
      await p;
    } else await chain.produceBlock();
    while ((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0) {}
  }
  const tail = chain.chainStore.tail()!;
  t.ok(tail > 1, `tail moved to ${tail}`);
  // As nearcore's: the tail is the block before the stop height, kept whole; by height a query
  // there is refused as below the stop height, by hash it answers.
  const collected = (height: number) => {
    try {
      views.viewAccount({ blockId: height }, 'test.near');
    } catch (e) {
      return e instanceof HandlerError && e.cause === 'GARBAGE_COLLECTED_BLOCK';
    }
    return false;
  };
  t.ok(collected(tail - 1), 'below the tail: garbage collected');
  t.ok(collected(tail), 'the tail by height: below the stop height');
  const tailHash = chain.chainStore.blockHashByHeight(tail)!;
  t.ok(views.viewAccount({ blockId: tailHash }, 'test.near'), 'the tail block by hash still answers');
  t.ok(views.viewState({ blockId: tailHash }, 'test.near', new Uint8Array(0), false), 'its state is whole');
  for (let h = tail + 1; h <= chain.head().height; h++) {
    t.ok(views.viewState({ blockId: h }, 'test.near', new Uint8Array(0), false), `state at ${h} is whole`);
  }
  let viewsLeft = 0;
  for await (const _ of store.iter(DBCol.BlockView)) viewsLeft++;
  t.equal(viewsLeft, chain.head().height - tail + 1, 'stored block views went with their blocks');
});

t.test('a block viewed before GC collects it answers GARBAGE_COLLECTED_BLOCK after', async (t) => {
  const { chain, views } = await setup({ epochLength: 3, shards: 1 });
  const viewed: number[] = [];
  const hashes = new Map<number, CryptoHash>();
  for (let i = 0; i < 20; i++) {
    await chain.produceBlock();
    // Each block is read while it is the head and again as the final block, so the views keep its trie.
    const head = views.viewAccount({ finality: 'optimistic' }, 'test.near') as { block_height: number };
    const final = views.viewAccount({ finality: 'final' }, 'test.near') as { block_height: number };
    t.equal(head.block_height, chain.head().height, 'optimistic reads the head');
    const genesisHeight = chain.genesis.config.genesisHeight;
    t.equal(final.block_height, Math.max(genesisHeight, head.block_height - 2), 'final: two below the head');
    viewed.push(head.block_height);
    hashes.set(head.block_height, chain.head().hash);
    views.viewAccount({ blockId: chain.head().hash }, 'test.near');
    while ((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0) {}
  }
  const tail = chain.chainStore.tail()!;
  const collected = viewed.filter((h) => h < tail);
  t.ok(collected.length > 5, `${collected.length} viewed blocks are below the tail ${tail}`);
  for (const h of collected) {
    for (const blockId of [h, hashes.get(h)!]) {
      const err = (() => {
        try {
          views.viewAccount({ blockId }, 'test.near');
        } catch (e) {
          return e;
        }
      })();
      // GC keeps the header and the height index (nearcore's clear_block_data leaves BlockHeader,
      // BlockHeight is no column it collects). nearcore's handle_query: by height, below GC's stop
      // height, GARBAGE_COLLECTED_BLOCK naming the block's hash; by hash the header is found, the
      // chunk extra is not, and with ContinuousEpochSync the answer is UNAVAILABLE_SHARD.
      t.ok(err instanceof HandlerError, `block ${h} by ${typeof blockId} is refused`);
      if (typeof blockId === 'number') {
        t.equal((err as HandlerError).cause, 'GARBAGE_COLLECTED_BLOCK', `block ${h} by height`);
        t.same((err as HandlerError).info, { block_height: h, block_hash: base58Encode(hashes.get(h)!) });
      } else {
        t.equal((err as HandlerError).cause, 'UNAVAILABLE_SHARD', `block ${h} by hash`);
        t.same((err as HandlerError).info, { requested_shard_id: 0 });
      }
    }
  }
  t.ok(
    views.viewAccount({ blockId: hashes.get(tail)! }, 'test.near'),
    'the tail block still answers by hash',
  );
  // GC keeps the genesis header, not the genesis state.
  const genesisHeight = chain.genesis.config.genesisHeight;
  for (const [ref, cause] of [
    [{ blockId: genesisHeight }, 'GARBAGE_COLLECTED_BLOCK'],
    [{ syncCheckpoint: 'genesis' as const }, 'UNAVAILABLE_SHARD'],
  ] as const) {
    const err = (() => {
      try {
        views.viewAccount(ref, 'test.near');
      } catch (e) {
        return e;
      }
    })();
    t.equal((err as HandlerError).cause, cause, `genesis (${JSON.stringify(ref)}) is collected`);
  }
  // Blocks made with no GC step after them: GC's stop height moves past the tail, and the heights
  // between are refused by height as nearcore refuses them, though their rows are still here; by
  // hash they answer.
  while (gcStopHeight(chain, 3) <= tail) await chain.produceBlock();
  const stop = gcStopHeight(chain, 3);
  t.equal(chain.chainStore.tail(), tail, 'GC has not moved');
  for (let h = tail; h < stop; h++) {
    t.throws(() => views.viewAccount({ blockId: h }, 'test.near'), { cause: 'GARBAGE_COLLECTED_BLOCK' });
    t.ok(
      views.viewAccount({ blockId: chain.chainStore.blockHashByHeight(h)! }, 'test.near'),
      `#${h} by hash`,
    );
  }
});

t.test(
  'every column has exactly one retention rule, and GC leaves no row of a collected block but its header and height',
  async (t) => {
    const known = [
      'block',
      'blockShard',
      'blockPrefix',
      'height',
      'outcomeId',
      'outcomeIdBlock',
      'chunkHash',
    ];
    for (const [name, col] of Object.entries(DBCol)) {
      const rule = col.gc;
      if (rule === 'keep') continue;
      if (rule === 'refcount') {
        t.ok(col.refcounted, `${name}: refcount retention only on a refcounted column`);
        continue;
      }
      t.ok(known.includes(rule.by), `${name}: retention by ${rule.by}`);
      t.notOk(col.refcounted, `${name}: a block-keyed column is not refcounted`);
    }

    const { chain, store } = await setup({ epochLength: 3, shards: 2 });
    const hashes: Uint8Array[] = [chain.head().hash];
    for (let i = 0; i < 15; i++) {
      const header = await chain.produceBlock();
      hashes.push(header.hash);
      // The no-op applier leaves outcomes out: give each block outcome-keyed rows, so every rule runs.
      const id = sha256(header.hash);
      const u = new StoreUpdate()
        .put(DBCol.OutcomeIds, blockShardKey(header.hash, 1), encodeIdList([id]))
        .put(DBCol.StateChanges, concatBytes(header.hash, utf8('k')), new Uint8Array([1]));
      for (const col of Object.values(DBCol)) {
        if (typeof col.gc !== 'object') continue;
        if (col.gc.by === 'outcomeId') u.put(col, id, new Uint8Array([1]));
        if (col.gc.by === 'outcomeIdBlock') u.put(col, concatBytes(id, header.hash), new Uint8Array([1]));
      }
      await store.commit(u);
    }
    while ((await gcStep(chain, { numEpochsToKeep: 3, blocksPerStep: 2 })) > 0) {}
    const tail = chain.chainStore.tail()!;
    t.ok(tail > 1, `tail moved to ${tail}`);
    const collected = hashes.slice(1, tail).map((h) => [h, sha256(h)] as const);
    const contains = (key: Uint8Array, part: Uint8Array) =>
      Buffer.from(key.buffer, key.byteOffset, key.byteLength).includes(part);
    for (const [name, col] of Object.entries(DBCol)) {
      if (typeof col.gc !== 'object' || col.gc.outlivesGc) continue;
      let left = 0;
      let kept = 0;
      for await (const [key] of store.iter(col)) {
        if (collected.some(([h, id]) => contains(key, h) || contains(key, id))) left++;
        else kept++;
      }
      t.equal(left, 0, `${name}: no row of a collected block is left (${kept} kept)`);
    }
    // What outlives GC: each collected height still names its block, whose header is kept.
    t.same(
      Object.entries(DBCol)
        .filter(([, col]) => typeof col.gc === 'object' && col.gc.outlivesGc)
        .map(([name]) => name),
      ['BlockHeader', 'BlockHeight'],
    );
    for (let h = 1; h < tail; h++) {
      const hash = chain.chainStore.blockHashByHeight(h);
      t.same(hash && toHex(hash), toHex(hashes[h]!), `height ${h} still names its block`);
      t.ok(store.get(DBCol.BlockHeader, hashes[h]!), `and its header is kept`);
      t.notOk(store.get(DBCol.Block, hashes[h]!), `not its block`);
    }
    t.ok(chain.chainStore.blockHashByHeight(0), 'genesis stays');
  },
);

t.test('query at a height with no block: below GC’s stop height collected, above it unknown', async (t) => {
  const { chain, views } = await setup({ epochLength: 5, shards: 1 });
  await chain.fastForward(12, 1_000_000_000n);
  const skipped: number[] = [];
  for (let h = 1; h <= chain.head().height; h++) if (!chain.chainStore.blockHashByHeight(h)) skipped.push(h);
  t.ok(skipped.length > 0, `the fast-forward skipped #${skipped.join(', #')}`);
  const refused = (h: number) => {
    try {
      views.viewAccount({ blockId: h }, 'test.near');
    } catch (e) {
      return e as HandlerError;
    }
    return null;
  };
  t.equal(refused(skipped[0]!)?.cause, 'UNKNOWN_BLOCK', 'above the stop height: never a block there');
  while (gcStopHeight(chain, 3) <= skipped.at(-1)!) await chain.produceBlock();
  // nearcore's handle_query refuses the height before any lookup, naming what the height index holds
  // there: nothing, the default hash.
  for (const h of skipped) {
    const err = refused(h);
    t.equal(err?.cause, 'GARBAGE_COLLECTED_BLOCK', `#${h}`);
    t.same(err?.info, { block_height: h, block_hash: '11111111111111111111111111111111' });
  }
});
