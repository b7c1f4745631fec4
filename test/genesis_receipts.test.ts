// Receipts in flight as genesis records (nearcore's PostponedReceipt, ReceivedData and DelayedReceipt,
// the records its state dump writes): a node started from them runs the delayed queue in its first
// block, executes a postponed receipt once its missing input arrives, keeps the other waiting, starts
// from the queue's congestion; and its own dump writes what still waits as the same records.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base58Encode } from '@nearlite/primitives';
import t from 'tap';
import { cli, initHome, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const NEAR = 10n ** 24n;
const id = (fill: number) => base58Encode(new Uint8Array(32).fill(fill));
type Rec = Record<string, Record<string, unknown>>;

function transfer(receiptId: number, inputs: number[], deposit: bigint, kind = 'Action') {
  return {
    predecessor_id: 'test.near',
    receiver_id: 'near',
    receipt_id: id(receiptId),
    receipt: {
      [kind]: {
        signer_id: 'test.near',
        signer_public_key: `ed25519:${id(9)}`,
        gas_price: '100000000',
        output_data_receivers: [],
        input_data_ids: inputs.map(id),
        actions: [{ Transfer: { deposit: deposit.toString() } }],
      },
    },
  };
}

// Runs once d1 (a ReceivedData record) and d2 (a delayed data receipt) are both there.
const READY = transfer(11, [1, 2], 2n * NEAR);
// Waits for d3, which nothing delivers.
const WAITING = transfer(12, [3], 3n * NEAR);
// A pending yield: no dump writes it back.
const YIELDED = transfer(13, [4], 4n * NEAR, 'PromiseYield');
const DELAYED_TRANSFER = transfer(14, [], NEAR);
const DELAYED_DATA = {
  predecessor_id: 'test.near',
  receiver_id: 'near',
  receipt_id: id(15),
  receipt: { Data: { data_id: id(2), data: 'aGk=' } },
};
const RECORDS: Rec[] = [
  { PostponedReceipt: READY },
  { PostponedReceipt: WAITING },
  { PostponedReceipt: YIELDED },
  { ReceivedData: { account_id: 'near', data_id: id(1), data: 'AQ==' } },
  { DelayedReceipt: DELAYED_TRANSFER },
  { DelayedReceipt: DELAYED_DATA },
];

function homeWith(t: Tap.Test, records: Rec[]): { home: string; genesis: Record<string, unknown> } {
  const home = tempDir(t);
  initHome(home);
  const genesis = JSON.parse(readFileSync(join(home, 'genesis.json'), 'utf8')) as Record<string, unknown>;
  genesis.records = [...(genesis.records as Rec[]), ...records];
  writeFileSync(join(home, 'genesis.json'), JSON.stringify(genesis));
  return { home, genesis };
}

t.test(
  'a genesis with receipts in flight runs them as nearcore would, and dumps what still waits',
  async (t) => {
    const { home, genesis } = homeWith(t, RECORDS);
    const height = genesis.genesis_height as number;
    const initial = BigInt(
      (
        (genesis.records as Rec[]).find((r) => r.Account?.account_id === 'near')!.Account!.account as {
          amount: string;
        }
      ).amount,
    );
    const node = await startNode(home, ['--block-time', '50', '--sandbox']);
    t.teardown(() => node.stop());
    await waitForHeight(node, height + 4);

    // The genesis chunk starts from the delayed queue (nearcore's bootstrap_congestion_info): the
    // transfer's congestion gas (parameters.yaml: action_transfer execution 115,123,062,500 and
    // action_receipt_creation execution 108,059,500,000; a data receipt counts none) and both receipts'
    // borsh bytes: the transfer 145 (ids 13 + 8 + 32, tag 1, signer 13, key 33, gas price 16, three
    // vector lengths 12, Transfer 17), the data receipt 93 (ids 53, tag 1, data id 32, Some 1, "hi" 6).
    const chunk = await node.rpc<{ header: { congestion_info: unknown } }>('chunk', {
      block_id: height,
      shard_id: 0,
    });
    t.same(chunk.body.result?.header.congestion_info, {
      delayed_receipts_gas: String(115_123_062_500 + 108_059_500_000),
      buffered_receipts_gas: '0',
      receipt_bytes: 145 + 93,
      allowed_shard: 0,
    });

    // The delayed transfer ran, and so did the postponed one its delayed data receipt completed.
    const account = await node.rpc<{ amount: string }>('query', {
      request_type: 'view_account',
      account_id: 'near',
      finality: 'final',
    });
    t.equal(
      BigInt(account.body.result!.amount),
      initial + NEAR + 2n * NEAR,
      'near got 1 + 2 NEAR, not the 3 waiting',
    );

    // The dump of the running node: what still waits, as the records it came from.
    const r = cli(['--home', home, 'view-state', 'dump-state']);
    t.equal(r.status, 0, r.stderr);
    t.match(
      r.stderr,
      /^1 pending yields \(PromiseYield receipts\) have no genesis record and were left out$/m,
    );
    const dumped = JSON.parse(readFileSync(join(home, 'output.json'), 'utf8')) as { records: Rec[] } & Record<
      string,
      unknown
    >;
    const inFlight = dumped.records.filter((x) => x.PostponedReceipt || x.DelayedReceipt || x.ReceivedData);
    t.same(inFlight, [{ PostponedReceipt: WAITING }], 'the waiting receipt, byte for byte the record it was');

    // A node from that dump holds it still: its own dump writes it again.
    const next = homeWith(t, []);
    writeFileSync(join(next.home, 'genesis.json'), JSON.stringify(dumped));
    writeFileSync(join(next.home, 'validator_key.json'), readFileSync(join(home, 'validator_key.json')));
    const again = await startNode(next.home, ['--block-time', '50', '--sandbox']);
    t.teardown(() => again.stop());
    await waitForHeight(again, (dumped.genesis_height as number) + 2);
    const r2 = cli(['--home', next.home, 'view-state', 'dump-state']);
    t.equal(r2.status, 0, r2.stderr);
    const redumped = JSON.parse(readFileSync(join(next.home, 'output.json'), 'utf8')) as { records: Rec[] };
    t.same(
      redumped.records.filter((x) => x.PostponedReceipt || x.DelayedReceipt || x.ReceivedData),
      [{ PostponedReceipt: WAITING }],
    );
  },
);

t.test('a genesis receipt nearcore refuses stops the node at start with the record named', async (t) => {
  const { home } = homeWith(t, [
    { ReceivedData: { account_id: 'near', data_id: id(1), data: null } },
    { PostponedReceipt: transfer(20, [1], NEAR) },
  ]);
  const r = cli(['run', '--home', home, '--rpc-addr', '127.0.0.1:0']);
  t.not(r.status, 0);
  t.match(r.stderr, /records\[\d+\]\.PostponedReceipt: postponed receipt \w+ has all its input data/);
  const bad = homeWith(t, [{ DelayedReceipt: { ...transfer(21, [], NEAR), receipt_id: 'nope' } }]);
  const r2 = cli(['run', '--home', bad.home, '--rpc-addr', '127.0.0.1:0']);
  t.not(r2.status, 0);
  t.match(r2.stderr, /records\[\d+\]\.DelayedReceipt\.receipt_id: expected a hash of 32 bytes, got 3/);
});
