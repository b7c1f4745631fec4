// ChainReader, the read-only view of a stopped node's home that the README offers tool authors:
// each of its lookups checked against what the client sent and what the node answered while it ran.
import { copyFileSync, cpSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { ChainReader } from '@nearlite/chain';
import { base58Decode, base58Encode, decodeReceipt, toHex } from '@nearlite/primitives';
import { decodeOutcome } from '@nearlite/runtime';
import { DB_VERSION, DBCol, readMetadata, Store, StoreUpdate, writeMetadata } from '@nearlite/store';
import { actions as A } from 'near-api-js';
import t from 'tap';
import { initHome, readKeyFile, refused, startNode, waitForHeight } from './helpers/node.js';
import { signFromValidator } from './helpers/signed_tx.js';
import { tempDir } from './helpers/tmp.js';

interface Outcome {
  id: string;
  block_hash: string;
  outcome: { receipt_ids: string[] };
}

t.test(
  'a stopped home read back: blocks, chunks, a transaction, its receipt, outcomes and changes',
  async (t) => {
    const home = tempDir(t);
    initHome(home);
    const key = readKeyFile(home);
    const node = await startNode(home, ['--block-time', '60']);
    await waitForHeight(node, 3);
    const amount = 123_456_789n;
    const tx = await signFromValidator(node, key, 'near', [A.transfer(amount)]);
    const sent = await node.rpc<{ transaction_outcome: Outcome; receipts_outcome: Outcome[] }>('send_tx', {
      signed_tx_base64: tx.base64,
      wait_until: 'FINAL',
    });
    const { transaction_outcome: txOutcome, receipts_outcome: receiptOutcomes } = sent.body.result!;
    const txBlock = await node.rpc<{ header: { height: number; hash: string } }>('block', {
      block_id: txOutcome.block_hash,
    });
    const receiptOutcome = receiptOutcomes[0]!;
    await node.stop();

    const reader = await ChainReader.open(home);
    t.teardown(() => reader.close());
    const txHash = base58Decode(txOutcome.id);
    const signed = Buffer.from(tx.base64, 'base64');

    const stored = reader.transaction(txHash);
    t.ok(Buffer.from(stored!.bytes).equals(signed), 'the transaction is the bytes the client signed');
    t.equal(base58Encode(stored!.blockHash!), txOutcome.block_hash, 'in the block its outcome names');

    const header = reader.blockByHash(base58Decode(txOutcome.block_hash));
    t.equal(header?.lite.height, txBlock.body.result!.header.height);
    t.equal(base58Encode(reader.blockByHeight(header!.lite.height)!.hash), txOutcome.block_hash);

    // The chunk that included it: the transaction's block at shard 0, the only shard.
    const chunk = reader.chunk(header!.lite.height, 0);
    t.ok(
      chunk?.transactions.some((b) => Buffer.from(b).equals(signed)),
      'its chunk holds the transaction',
    );

    const outcome = reader.outcome(txHash);
    t.equal(base58Encode(outcome!.blockHash), txOutcome.block_hash);
    t.same(
      decodeOutcome(outcome!.outcomeBytes).receiptIds.map((id) => base58Encode(id)),
      txOutcome.outcome.receipt_ids,
      'the outcome the node answered',
    );

    const receiptId = base58Decode(receiptOutcome.id);
    const receipt = decodeReceipt(reader.receipt(receiptId)!);
    t.equal(receipt.predecessorId, 'test.near');
    t.equal(receipt.receiverId, 'near');
    t.same(
      receipt.receipt.kind === 'Action' ? receipt.receipt.actions : null,
      [{ type: 'Transfer', deposit: amount }],
      'the receipt carries the transfer that was sent',
    );
    t.equal(base58Encode(reader.outcome(receiptId)!.blockHash), receiptOutcome.block_hash);

    // The files where a config.json would move them: names relative to the home, as config.json's.
    renameSync(join(home, 'data'), join(home, 'db'));
    renameSync(join(home, 'genesis.json'), join(home, 'g.json'));
    const moved = await ChainReader.open(home, { dataDir: 'db', genesisFile: 'g.json' });
    t.equal(moved.head().height, reader.head().height, 'relative names are the home’s files');
    await moved.close();
    renameSync(join(home, 'db'), join(home, 'data'));
    renameSync(join(home, 'g.json'), join(home, 'genesis.json'));

    // The block that ran the receipt changed the receiver's account, for that receipt.
    const changes = await reader.stateChanges(base58Decode(receiptOutcome.block_hash));
    const near = changes.find((c) => c.key.col === 'account' && c.key.accountId === 'near');
    t.ok(near, 'the receiver’s account changed there');
    t.ok(
      near!.changes.some(
        (c) => c.cause.type === 'receipt_processing' && toHex(c.cause.receiptHash) === toHex(receiptId),
      ),
      'by the receipt',
    );
  },
);

function writeMetadataUpdate(): StoreUpdate {
  const u = new StoreUpdate();
  writeMetadata(u, { version: DB_VERSION, kind: 'gc' });
  return u;
}

t.test(
  'what a reader refuses: another genesis, another version, no chain, writes and bad arguments',
  async (t) => {
    const home = tempDir(t);
    initHome(home);
    const node = await startNode(home, ['--block-time', '60']);
    await waitForHeight(node, 3);
    await node.stop();

    const reader = await ChainReader.open(home);
    const head = reader.head();
    await t.rejects(
      reader.store.commit(new StoreUpdate().put(DBCol.BlockMisc, Uint8Array.of(1), Uint8Array.of(1))),
      {
        name: 'StoreError',
        code: 'READ_ONLY',
      },
    );
    t.throws(() => reader.blockByHash('8s41rye686T2ronWmFE38ji19vgeb6uPxjYMPt8y8pSV' as never), {
      name: 'TypeError',
      message: /32-byte hash/,
    });
    t.throws(() => reader.transaction(new Uint8Array(31)), TypeError);
    await t.rejects(reader.stateChanges(new Uint8Array(0)), TypeError, 'not a prefix of every key');
    await t.rejects(
      reader.stateChanges(new Uint8Array(32)),
      { name: 'RangeError', message: /^no block with hash 1{32}$/ },
      "a hash that is no block's: not a block that changed nothing",
    );
    t.throws(() => reader.blockByHeight(-1), RangeError);
    // From JavaScript, a string where a number goes is named as one.
    t.throws(() => reader.blockByHeight('10' as never), {
      name: 'TypeError',
      message: 'a block height is a number, got string "10"',
    });
    t.throws(() => reader.chunk(1, '0' as never), { name: 'TypeError', message: /shard id is a number/ });
    t.throws(() => reader.shardState(9), {
      name: 'RangeError',
      message: /shard 9 is not one of the chain's/,
    });
    t.throws(() => reader.chunk(1.5, 0), RangeError);
    t.throws(() => reader.chunk(head.height, 7), { name: 'RangeError', message: /shard 7/ });
    t.throws(() => reader.account('BAD ID'), { name: 'InvalidAccountIdError' });
    t.throws(() => reader.account(5 as never), {
      name: 'TypeError',
      message: 'an account id is a string, got number 5',
    });
    // A text prefix would be taken for bytes no key starts with, and answer "no state".
    t.throws(() => [...reader.contractState('test.near', 'k' as never)], {
      name: 'TypeError',
      message: /^a key prefix is a Uint8Array .*got string "k"$/,
    });
    await reader.close();

    // A store made from another genesis is not read against this one.
    const other = tempDir(t);
    initHome(other, ['--chain-id', 'other-chain']);
    const swapped = tempDir(t);
    cpSync(home, swapped, { recursive: true });
    copyFileSync(join(other, 'genesis.json'), join(swapped, 'genesis.json'));
    await t.rejects(ChainReader.open(swapped), { name: 'GenesisMismatchError' });

    // Versions this nearlite does not read, newer or older.
    for (const [version, text] of [
      [DB_VERSION + 1, /newer than this node supports/],
      [0, /which no nearlite wrote/],
    ] as const) {
      const copy = tempDir(t);
      cpSync(home, copy, { recursive: true });
      const store = await Store.open(join(copy, 'data'));
      const u = new StoreUpdate();
      writeMetadata(u, { version, kind: 'gc' });
      await store.commit(u);
      await store.close();
      await t.rejects(
        ChainReader.open(copy),
        { name: 'StoreError', code: 'VERSION', message: text },
        `version ${version}`,
      );
      // Nor does repair, which would take rows it cannot read for damage and drop them.
      refused(t, ['repair', '--home', copy], text, `repair of version ${version}`);
    }

    // A database with no chain a node made (as a follower's history, or anything else).
    const bare = tempDir(t);
    copyFileSync(join(home, 'genesis.json'), join(bare, 'genesis.json'));
    await (await Store.open(join(bare, 'data'))).close();
    await t.rejects(ChainReader.open(bare), { name: 'StoreError', code: 'KIND', message: /HistoryStore/ });
    // Nor one that records a node's metadata but holds no head, as a follower's history does.
    const store = await Store.open(join(bare, 'data'));
    await store.commit(writeMetadataUpdate());
    await store.close();
    await t.rejects(ChainReader.open(bare), { name: 'StoreError', code: 'KIND', message: /HistoryStore/ });

    // The refused write left the store as it was: the node starts on it and goes on from its head.
    const again = await startNode(home, ['--block-time', '60']);
    t.teardown(() => again.stop());
    await waitForHeight(again, head.height + 1);
  },
);

t.test(
  "a node records this database version once its start's checks pass; a refused start leaves it",
  async (t) => {
    const home = tempDir(t);
    initHome(home);
    const first = await startNode(home, ['--block-time', '60']);
    await waitForHeight(first, 2);
    await first.stop();
    const version = async (set?: number, kind: 'gc' | 'archival' = 'gc') => {
      const store = await Store.open(join(home, 'data'));
      if (set !== undefined) {
        const u = new StoreUpdate();
        writeMetadata(u, { version: set, kind });
        await store.commit(u);
      }
      const v = readMetadata(store)?.version;
      await store.close();
      return v;
    };
    // A store as the previous version left it, recorded archival: a start that would collect it is refused.
    t.equal(await version(1, 'archival'), 1);
    refused(
      t,
      ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'],
      /an archival store/,
      'a start of the other kind',
    );
    t.equal(await version(), 1, 'the refused start left the older version, for the older node to go on with');
    await version(1, 'gc');
    const again = await startNode(home, ['--block-time', '60']);
    t.teardown(() => again.stop());
    await waitForHeight(again, 4);
    await again.stop();
    t.equal(await version(), DB_VERSION, 'the start that went on recorded this version');
  },
);
