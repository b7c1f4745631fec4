// Answers a running node must give exactly as nearcore does, each traced to nearcore's source (the
// paths below are in nearcore's repository).
import { createHash } from 'node:crypto';
import { actions as A, baseDecode, createTransaction, KeyPairSigner, type KeyPairString } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { waitForHeight } from './helpers/node.js';
import { postJson } from './helpers/post.js';
import { UNKNOWN_BLOCK_AS_DATA } from './helpers/rpc_errors.js';

interface Header {
  height: number;
  hash: string;
  epoch_id: string;
  next_epoch_id: string;
}

interface ValidatorsView {
  epoch_start_height: number;
  epoch_height: number;
  current_validators: {
    num_produced_chunks_per_shard: number[];
    shards_endorsed: number[];
    num_produced_endorsements_per_shard: number[];
  }[];
}

// Blocks slow enough that a transaction just sent is still in the pool when asked about.
const { node, key } = await localChain(t, { epochLength: 4, archive: true, blockTimeMs: 400 });
const header = async (blockId: number | string) =>
  (await node.rpc<{ header: Header }>('block', { block_id: blockId })).body.result!.header;

t.test('validators by block or epoch id follow GetValidatorInfo', async (t) => {
  const base = (await header(3)).height;
  await waitForHeight(node, base + 9);
  const headers: Header[] = [];
  for (let h = base; h <= base + 9; h++) headers.push(await header(h));
  const i = headers.findIndex((h, j) => j + 1 < headers.length && h.epoch_id !== headers[j + 1]!.epoch_id);
  const last = headers[i]!;
  const mid = headers[i + 1]!;

  // chain/client/src/view_client_actor.rs, Handler<GetValidatorInfo>: a block whose successor is in
  // the next epoch answers for its epoch, read from the ended epoch's summary (epoch-manager
  // get_validator_info, ValidatorInfoIdentifier::EpochId: per-shard counts zero, nothing endorsed).
  for (const params of [[last.height], { block_id: last.hash }, { epoch_id: last.epoch_id }]) {
    const v = (await node.rpc<ValidatorsView>('validators', params)).body.result!;
    t.equal(v.epoch_start_height, last.height - 3, `${JSON.stringify(params)}: the ended epoch`);
    t.same(v.current_validators[0]!.num_produced_chunks_per_shard, [0]);
    t.same(v.current_validators[0]!.shards_endorsed, []);
    t.same(v.current_validators[0]!.num_produced_endorsements_per_shard, []);
  }

  // Any other block: GetValidatorInfoError::ValidatorInfoUnavailable, whose RpcError data is the
  // string (chain/jsonrpc-primitives/src/types/validator.rs, From<RpcValidatorError>).
  const unavailable = await node.rpc('validators', { block_id: mid.height });
  t.equal(unavailable.status, 200);
  t.same(unavailable.body.error, {
    name: 'HANDLER_ERROR',
    cause: { name: 'VALIDATOR_INFO_UNAVAILABLE' },
    code: -32000,
    message: 'Server error',
    data: 'Validator info unavailable',
  });

  // An unknown block is DBNotFoundErr, which GetValidatorInfoError turns into UnknownEpoch
  // (chain/client-primitives/src/types.rs, From<near_chain_primitives::Error>).
  const unknownEpoch = {
    name: 'HANDLER_ERROR',
    cause: { name: 'UNKNOWN_EPOCH' },
    code: -32000,
    message: 'Server error',
    data: 'Unknown Epoch',
  };
  t.same((await node.rpc('validators', [1_000_000_000])).body.error, unknownEpoch);
  t.same(
    (await node.rpc('validators', { block_id: '11111111111111111111111111111112' })).body.error,
    unknownEpoch,
  );
  // The epoch after the head's has no start height stored yet: EpochOutOfBounds, UnknownEpoch.
  const head = (await node.rpc<{ header: Header }>('block', { finality: 'optimistic' })).body.result!.header;
  t.same((await node.rpc('validators', { epoch_id: head.next_epoch_id })).body.error, unknownEpoch);
  // The head's own epoch is answered as `latest`.
  const latest = (await node.rpc<ValidatorsView>('validators', { epoch_id: head.epoch_id })).body.result;
  t.ok(latest && latest.epoch_start_height <= head.height, 'the head’s epoch');
});

const UNKNOWN_HASH = '11111111111111111111111111111112';

t.test('changes and next_light_client_block: the cause itself as legacy data', async (t) => {
  const changes = { changes_type: 'account_changes', account_ids: ['test.near'], block_id: UNKNOWN_HASH };
  for (const [method, params] of [
    ['changes', changes],
    ['EXPERIMENTAL_changes', changes],
    ['block_effects', { block_id: UNKNOWN_HASH }],
    ['EXPERIMENTAL_changes_in_block', { block_id: UNKNOWN_HASH }],
    ['next_light_client_block', { last_block_hash: UNKNOWN_HASH }],
    ['next_light_client_block', [UNKNOWN_HASH]],
  ] as const) {
    const r = await node.rpc(method, params);
    t.equal(r.status, 200, method);
    t.same(r.body.error, UNKNOWN_BLOCK_AS_DATA, `${method} ${JSON.stringify(params)}`);
  }
});

t.test('UNKNOWN_BLOCK legacy texts name the store column nearcore read', async (t) => {
  const data = async (method: string, params: unknown) => (await node.rpc(method, params)).body.error?.data;
  // GetProtocolConfigError::UnknownBlock carries DBNotFoundErr's message, worded "Block Not Found: …"
  // (chain/jsonrpc-primitives/src/types/config.rs; core/store/src/adapter/chain_store.rs).
  t.equal(
    await data('EXPERIMENTAL_protocol_config', { block_id: 99999 }),
    'Block Not Found: BLOCK HEIGHT: 99999',
  );
  t.equal(
    await data('EXPERIMENTAL_protocol_config', { block_id: UNKNOWN_HASH }),
    `Block Not Found: BLOCK HEADER: ${UNKNOWN_HASH}`,
  );
  // `query` spells its own text, by hash without the cause (chain/jsonrpc/src/lib.rs, `query`).
  const query = { request_type: 'view_account', account_id: 'test.near' };
  t.equal(
    await data('query', { ...query, block_id: UNKNOWN_HASH }),
    `DB Not Found Error: BLOCK HEADER: ${UNKNOWN_HASH}`,
  );
  t.equal(
    await data('query', { ...query, block_id: 99999 }),
    'DB Not Found Error: BLOCK HEIGHT: 99999 \n Cause: Unknown',
  );
  // `block` and `chunk` read the whole block (ChainStoreAdapter::get_block: "BLOCK: <hash>"),
  // gas_price only its header (get_block_header: "BLOCK HEADER: <hash>").
  const block = `DB Not Found Error: BLOCK: ${UNKNOWN_HASH} \n Cause: Unknown`;
  t.equal(await data('block', { block_id: UNKNOWN_HASH }), block);
  t.equal(await data('block', [UNKNOWN_HASH]), block);
  t.equal(await data('chunk', { block_id: UNKNOWN_HASH, shard_id: 0 }), block);
  t.equal(
    await data('gas_price', [UNKNOWN_HASH]),
    `DB Not Found Error: BLOCK HEADER: ${UNKNOWN_HASH} \n Cause: Unknown`,
  );
  t.equal(
    await data('block', { block_id: 99999 }),
    'DB Not Found Error: BLOCK HEIGHT: 99999 \n Cause: Unknown',
  );
});

t.test('a height above 2^53 is a u64 no block has; a float is no height', async (t) => {
  // serde_json reads an integer up to u64::MAX as a u64 (de.rs parse_number), so nearcore looks the
  // height up and misses, and names it exactly; a float (`5.0`) is no variant of the untagged BlockId.
  const raw = async (method: string, params: string) => {
    const r = await postJson(node.url, `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`);
    return { status: r.status, text: r.text, body: JSON.parse(r.text) };
  };
  const big = '9007199254740993';
  const notFound = `DB Not Found Error: BLOCK HEIGHT: ${big} \n Cause: Unknown`;
  const block = await raw('block', `{"block_id":${big}}`);
  t.equal(block.status, 200, 'above the head: no 422');
  t.same(block.body.error, { ...UNKNOWN_BLOCK_AS_DATA, data: notFound }, 'block');
  t.equal(block.body.error.data, notFound);
  t.equal((await raw('gas_price', `[${big}]`)).body.error.data, notFound, 'gas_price');
  t.equal((await raw('chunk', `{"block_id":${big},"shard_id":0}`)).body.error.data, notFound, 'chunk');
  const query = await raw(
    'query',
    `{"request_type":"view_account","account_id":"test.near","block_id":${big}}`,
  );
  t.equal(query.body.error.cause.name, 'UNKNOWN_BLOCK');
  t.match(query.text, `"info":{"block_reference":{"block_id":${big}}}`, 'the reference, exactly');
  t.equal(query.body.error.data, notFound);
  // A shard id above 2^53 names no shard: INVALID_SHARD_ID, exactly.
  const shard = await raw('chunk', `{"block_id":1,"shard_id":${big}}`);
  t.match(shard.text, `"cause":{"name":"INVALID_SHARD_ID","info":{"shard_id":${big}}}`);
  t.equal(shard.body.error.data, `Shard id ${big} does not exist`);

  // Every method that takes a height answers one above 2^53 as any height it has no block at (the
  // texts above for 99999 are nearcore's), the number named exactly.
  const forms: [string, string][] = [
    ['block', '[H]'],
    ['chunk', '[[H,0]]'],
    ['gas_price', '{"block_id":H}'],
    ['validators', '[H]'],
    ['EXPERIMENTAL_validators_ordered', '[H]'],
    ['EXPERIMENTAL_protocol_config', '{"block_id":H}'],
    ['query', '{"request_type":"view_state","account_id":"test.near","prefix_base64":"","block_id":H}'],
    ['EXPERIMENTAL_view_account', '{"account_id":"test.near","block_id":H}'],
    ['changes', '{"changes_type":"account_changes","account_ids":["test.near"],"block_id":H}'],
    ['EXPERIMENTAL_changes_in_block', '{"block_id":H}'],
    ['block_effects', '{"block_id":H}'],
    ['EXPERIMENTAL_congestion_level', '{"block_id":H,"shard_id":0}'],
  ];
  for (const [method, params] of forms) {
    const unknown = await raw(method, params.replace('H', '99999'));
    const above = await raw(method, params.replace('H', big));
    t.equal(above.status, unknown.status, `${method} ${params}: status`);
    t.equal(above.text.replaceAll(big, 'H'), unknown.text.replaceAll('99999', 'H'), `${method} ${params}`);
  }

  for (const id of ['1.0', '1e0', '-0']) {
    const r = await raw('block', `{"block_id":${id}}`);
    t.equal(r.status, 400, `block_id ${id}`);
    t.equal(
      r.body.error.data,
      'Failed parsing args: data did not match any variant of untagged enum BlockId',
    );
  }
  t.equal((await raw('block', '{"block_id":1}')).body.result.header.height, 1, 'the integer is height 1');
});

t.test('a transaction that does not decode: one prefix, or SignedTransaction’s own words', async (t) => {
  // chain/jsonrpc/src/api/transactions.rs decode_signed_transaction: "Failed to decode transaction: "
  // and borsh's error; the object form goes through SignedTransaction's Deserialize
  // (core/primitives/src/transaction.rs), under serde's "Failed parsing args: ".
  // Both carry the borsh crate's message: three bytes end inside the signer id's length.
  const object = await node.rpc('send_tx', { signed_tx_base64: 'AAAA' });
  const borsh = 'Unexpected length of input';
  t.equal(
    object.body.error?.data,
    `Failed parsing args: the value could not decoded from borsh due to: ${borsh}`,
  );
  for (const method of ['send_tx', 'broadcast_tx_commit', 'broadcast_tx_async', 'tx']) {
    const r = await node.rpc(method, ['AAAA']);
    t.equal(r.status, 400, method);
    t.equal(r.body.error?.data, `Failed to decode transaction: ${borsh}`, `${method} ["AAAA"]`);
  }
  // A whole transaction with a byte after it: borsh's try_from_slice refuses what it did not read.
  const signer = KeyPairSigner.fromSecretKey(key.secret_key as KeyPairString);
  const final = (await node.rpc<{ header: Header }>('block', { finality: 'final' })).body.result!.header;
  const tx = createTransaction(
    'test.near',
    await signer.getPublicKey(),
    'test.near',
    1n,
    [],
    baseDecode(final.hash),
  );
  const whole = (await signer.signTransaction(tx)).signedTransaction.encode();
  const trailing = Buffer.from([...whole, 0]).toString('base64');
  const extra = await node.rpc('send_tx', [trailing]);
  t.equal(extra.body.error?.data, 'Failed to decode transaction: Not all bytes read');
  // near-crypto's Signature decoder refuses an ed25519 signature whose last byte has any of its top
  // three bits set (core/crypto/src/signature.rs), for every method, broadcast_tx_async too.
  const odd = Uint8Array.from(whole);
  odd[odd.length - 1]! |= 0b1110_0000;
  const oddB64 = Buffer.from(odd).toString('base64');
  for (const method of ['send_tx', 'broadcast_tx_commit', 'broadcast_tx_async']) {
    const r = await node.rpc(method, [oddB64]);
    t.equal(r.status, 400, `${method}: an odd signature`);
    t.equal(
      r.body.error?.data,
      'Failed to decode transaction: signature error',
      `${method}: an odd signature`,
    );
  }
  t.equal(
    (await node.rpc('send_tx', { signed_tx_base64: oddB64 })).body.error?.data,
    'Failed parsing args: the value could not decoded from borsh due to: signature error',
  );
  // An unknown key type, as near-crypto's KeyType::try_from words it, for the key and the signature.
  const keyAt = 4 + 'test.near'.length;
  const badKey = Uint8Array.from(whole);
  badKey[keyAt] = 7;
  const badSig = Uint8Array.from(whole);
  badSig[badSig.length - 65] = 7;
  for (const bytes of [badKey, badSig]) {
    const r = await node.rpc('send_tx', [Buffer.from(bytes).toString('base64')]);
    t.equal(r.body.error?.data, "Failed to decode transaction: unknown key type '7'");
  }
  const b64 = await node.rpc('send_tx', { signed_tx_base64: '!!!!' });
  t.equal(
    b64.body.error?.data,
    'Failed parsing args: the value could not decoded from base64 due to: Invalid symbol 33, offset 0.',
  );
});

t.test('tx status of a transaction not in a chunk: checked, and unknown at NONE', async (t) => {
  const signer = KeyPairSigner.fromSecretKey(key.secret_key as KeyPairString);
  const pk = await signer.getPublicKey();
  const signed = async (nonce: number, receiver: string) => {
    const final = (await node.rpc<{ header: Header }>('block', { finality: 'final' })).body.result!.header;
    const tx = createTransaction(
      'test.near',
      pk,
      receiver,
      BigInt(nonce),
      [A.transfer(1n)],
      baseDecode(final.hash),
    );
    return Buffer.from((await signer.signTransaction(tx)).signedTransaction.encode()).toString('base64');
  };
  const ak = await node.rpc<{ nonce: number }>('query', {
    request_type: 'view_access_key',
    account_id: 'test.near',
    public_key: pk.toString(),
    finality: 'optimistic',
  });
  let nonce = ak.body.result!.nonce + 1;
  const used = nonce++;
  const sent = await node.rpc('send_tx', { signed_tx_base64: await signed(used, 'test.near') });
  t.ok(sent.body.result, 'the first transaction with this nonce ran');

  // tx_status_fetch (chain/jsonrpc/src/lib.rs): a signed transaction the view client does not know
  // is checked with send_tx_internal(check_only) and an InvalidTx answered at once, whatever
  // wait_until; the error's data is the ServerError form (jsonrpc-primitives types/transactions.rs).
  const reused = await signed(used, 'test1.near');
  const invalid = {
    name: 'HANDLER_ERROR',
    cause: { name: 'INVALID_TRANSACTION', info: {} },
    code: -32000,
    message: 'Server error',
    data: { TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: used, ak_nonce: used } } } },
  };
  for (const [method, params] of [
    ['tx', { signed_tx_base64: reused }],
    ['tx', [reused]],
    ['EXPERIMENTAL_tx_status', { signed_tx_base64: reused, wait_until: 'NONE' }],
    ['EXPERIMENTAL_tx_status', { signed_tx_base64: reused, wait_until: 'FINAL' }],
  ] as const) {
    const r = await node.rpc(method, params);
    t.equal(r.status, 200, `${method}: not a timeout`);
    t.same(r.body.error, invalid, `${method} ${JSON.stringify(params).slice(0, 40)}`);
  }

  // A transaction still in the pool is MissingTransaction to the view client
  // (view_client_actor.rs get_tx_status): at NONE, UNKNOWN_TRANSACTION, by hash or signed.
  let pooled = 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    const b64 = await signed(nonce++, 'test.near');
    const hash = (await node.rpc<string>('broadcast_tx_async', [b64])).body.result!;
    for (const params of [
      { tx_hash: hash, sender_account_id: 'test.near', wait_until: 'NONE' },
      { signed_tx_base64: b64, wait_until: 'NONE' },
    ]) {
      const r = await node.rpc<{ transaction_outcome?: object; final_execution_status: string }>(
        'tx',
        params,
      );
      if (r.body.result) {
        t.ok(r.body.result.transaction_outcome, 'included already: its outcome');
        continue;
      }
      pooled++;
      t.same(r.body.error, {
        name: 'HANDLER_ERROR',
        cause: { name: 'UNKNOWN_TRANSACTION', info: { requested_transaction_hash: hash } },
        code: -32000,
        message: 'Server error',
        data: `Transaction ${hash} doesn't exist`,
      });
    }
  }
  t.ok(pooled > 0, 'asked while in the pool');
});

t.test('block, EXPERIMENTAL_protocol_config and validators read their reference enum whole', async (t) => {
  // nearcore parses BlockReference / EpochReference from the params themselves (chain/jsonrpc/src/
  // api/blocks.rs, config.rs, validator.rs): serde_json wants a map with exactly one key.
  const singleKey = 'Failed parsing args: invalid value: map, expected map with a single key';
  for (const [method, params] of [
    ['block', { finality: 'final', foo: 1 }],
    ['EXPERIMENTAL_protocol_config', { finality: 'final', block_id: 1 }],
    ['validators', { latest: null, block_id: 5 }],
  ] as const) {
    const r = await node.rpc(method, params);
    t.equal(r.status, 400, method);
    t.equal(r.body.error?.data, singleKey, `${method} ${JSON.stringify(params)}`);
  }
  // "latest" names EpochReference's unit variant.
  const latest = await node.rpc<ValidatorsView>('validators', 'latest');
  t.equal(latest.status, 200);
  t.ok(latest.body.result?.current_validators.length, 'validators "latest"');
  // query flattens BlockReference: the first of its keys in the document is used.
  const both = await node.rpc<{ block_height: number }>('query', {
    request_type: 'view_account',
    account_id: 'test.near',
    block_id: 1,
    finality: 'final',
  });
  t.equal(both.body.result?.block_height, 1, 'block_id, the first key, wins');
});

t.test('GET /openapi.json: the spec nearcore compiles in, with its content type', async (t) => {
  // chain/jsonrpc/src/lib.rs openapi_json_handler: include_bytes! of chain/jsonrpc/openapi/openapi.json,
  // "application/json; charset=utf-8". The digest is that file's at nearcore f0c7706f1 (v1.2.11).
  const res = await fetch(`${node.url}/openapi.json`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  const body = Buffer.from(await res.arrayBuffer());
  t.equal(
    createHash('sha256').update(body).digest('hex'),
    'a0b54f3df29156d91ee9d4b68325c8e5f98d09ee93d74ea1ee6af4c0bf9d84db',
    'nearcore’s bytes',
  );
  const spec = JSON.parse(body.toString('utf8')) as {
    info: { title: string };
    paths: Record<string, unknown>;
  };
  t.equal(spec.info.title, 'NEAR Protocol JSON RPC API');
  t.ok(spec.paths['/block'] && spec.paths['/query'], 'one path per method');
});

t.test('finality links follow last_final_block_for_height from the genesis on', async (t) => {
  // core/primitives/src/block_header.rs last_final_block_for_height and block.rs Block::produce: the
  // genesis names the zero hash as both, so the first block's last final block is the zero hash.
  const genesis = (
    await node.rpc<{ header: Header & { prev_hash: string } }>('block', { sync_checkpoint: 'genesis' })
  ).body.result!.header;
  const links = async (height: number) => {
    const h = (
      await node.rpc<{ header: { hash: string; last_final_block: string; last_ds_final_block: string } }>(
        'block',
        { block_id: height },
      )
    ).body.result!.header;
    return { hash: h.hash, final: h.last_final_block, dsFinal: h.last_ds_final_block };
  };
  const zero = '11111111111111111111111111111111';
  const [b0, b1, b2, b3] = [
    await links(genesis.height),
    await links(genesis.height + 1),
    await links(genesis.height + 2),
    await links(genesis.height + 3),
  ];
  t.same([b0.final, b0.dsFinal], [zero, zero], 'the genesis');
  t.same([b1.final, b1.dsFinal], [zero, b0.hash], 'the first block');
  t.same([b2.final, b2.dsFinal], [b0.hash, b1.hash]);
  t.same([b3.final, b3.dsFinal], [b1.hash, b2.hash]);
});
