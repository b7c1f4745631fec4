// How far along a transaction is, when a receipt's last new receipt has not run yet: nearcore's
// get_tx_execution_status (chain/client/src/view_client_actor.rs) skips that receipt only when it
// is a refund, one whose predecessor is `system`, and waits for any other, or for one it cannot read.
import {
  type ChainHandle,
  type DecodedOutcome,
  encodeStoredOutcome,
  type TxCodecs,
  txProgress,
} from '@nearlite/chain';
import {
  BorshWriter,
  type CryptoHash,
  concatBytes,
  type PublicKey,
  type Receipt,
  toHex,
  writeReceipt,
} from '@nearlite/primitives';
import { DBCol } from '@nearlite/store';
import t from 'tap';

const hash = (n: number): CryptoHash => new Uint8Array(32).fill(n);
const TX = hash(1);
const FIRST = hash(2);
const CALL = hash(3);
const REFUND = hash(4);
const TX_BLOCK = hash(10);
const RECEIPT_BLOCK = hash(11);
const HEIGHTS = new Map([
  [toHex(TX_BLOCK), 10],
  [toHex(RECEIPT_BLOCK), 11],
]);
const signerPublicKey: PublicKey = { keyType: 0, data: hash(7) } as unknown as PublicKey;

function receipt(id: CryptoHash, predecessorId: string): Uint8Array {
  const r: Receipt = {
    predecessorId,
    receiverId: 'alice.near',
    receiptId: id,
    receipt: {
      kind: 'Action',
      signerId: 'alice.near',
      signerPublicKey,
      gasPrice: 1_000_000_000n,
      outputDataReceivers: [],
      inputDataIds: [],
      actions: [{ kind: 'Transfer', deposit: 1n }],
    },
  } as unknown as Receipt;
  const w = new BorshWriter(256);
  writeReceipt(w, r);
  return w.toBytes();
}

interface Setup {
  /** The new receipts of the transaction's receipt, in order. */
  readonly made: readonly CryptoHash[];
  /** Which of them are stored, and by whom they were made. */
  readonly stored: ReadonlyMap<CryptoHash, string>;
  /** Which of them ran (their outcome is at RECEIPT_BLOCK too). */
  readonly ran?: readonly CryptoHash[];
  readonly finalHeight: number;
  /** Receipts the chain's recent blocks named refunds (ChainHandle.sentRefund). */
  readonly named?: readonly CryptoHash[];
}

/** A chain whose store holds the transaction, its receipt's outcome and whatever `s` says. */
function chainOf(s: Setup): { chain: ChainHandle; codecs: TxCodecs; reads: number[] } {
  const rows = new Map<string, Uint8Array>();
  const put = (col: { id: number }, key: Uint8Array, value: Uint8Array) =>
    rows.set(`${col.id}:${toHex(key)}`, value);
  // An outcome's bytes here are its new receipts' ids, one after another.
  const outcome = (id: CryptoHash, block: CryptoHash, made: readonly CryptoHash[]) =>
    put(
      DBCol.TransactionResultForBlock,
      concatBytes(id, block),
      encodeStoredOutcome({ outcomeBytes: concatBytes(...made), blockHash: block, shardId: 0, proof: [] }),
    );
  put(DBCol.TransactionBlock, TX, TX_BLOCK);
  outcome(TX, TX_BLOCK, [FIRST]);
  put(DBCol.ReceiptBlock, FIRST, RECEIPT_BLOCK);
  outcome(FIRST, RECEIPT_BLOCK, s.made);
  for (const id of s.ran ?? []) {
    put(DBCol.ReceiptBlock, id, RECEIPT_BLOCK);
    outcome(id, RECEIPT_BLOCK, []);
  }
  for (const [id, by] of s.stored) put(DBCol.Receipts, id, receipt(id, by));
  const finalHash = s.finalHeight >= 11 ? RECEIPT_BLOCK : s.finalHeight >= 10 ? TX_BLOCK : hash(9);
  const named = new Set((s.named ?? []).map(toHex));
  const reads: number[] = [];
  const chain = {
    store: {
      get: (col: { id: number }, key: Uint8Array) => {
        reads.push(col.id);
        return rows.get(`${col.id}:${toHex(key)}`);
      },
    },
    sentRefund: (hex: string) => named.has(hex),
    chainStore: {
      blockHeader: (h: CryptoHash) => {
        const height = HEIGHTS.get(toHex(h)) ?? (toHex(h) === toHex(hash(9)) ? 9 : undefined);
        return height === undefined ? undefined : { lite: { height } };
      },
    },
    headHeader: () => ({ rest: { lastFinalBlock: finalHash } }),
    genesis: { config: { genesisHeight: 0 } },
  } as unknown as ChainHandle;
  const codecs = {
    decodeOutcome(b: Uint8Array): DecodedOutcome {
      const receiptIds = [];
      for (let i = 0; i < b.length; i += 32) receiptIds.push(b.slice(i, i + 32));
      return { receiptIds, status: { kind: 'Unknown' }, viewJson: '{}' } as unknown as DecodedOutcome;
    },
  } as unknown as TxCodecs;
  return { chain, codecs, reads };
}

const level = (s: Setup) => {
  const { chain, codecs } = chainOf(s);
  return txProgress(chain, codecs, TX)!.level;
};

t.test('a last receipt made by the contract is waited for', async (t) => {
  const s = { made: [CALL], stored: new Map([[CALL, 'alice.near']]) };
  t.equal(level({ ...s, finalHeight: 9 }), 'INCLUDED', 'not EXECUTED_OPTIMISTIC while the call has not run');
  t.equal(level({ ...s, finalHeight: 11 }), 'INCLUDED_FINAL');
  t.equal(level({ ...s, ran: [CALL], finalHeight: 11 }), 'FINAL', 'once it ran, in a final block');
});

t.test('a last receipt that is a refund is not waited for', async (t) => {
  const s = { made: [CALL, REFUND], ran: [CALL], stored: new Map([[REFUND, 'system']]) };
  t.equal(level({ ...s, finalHeight: 9 }), 'EXECUTED_OPTIMISTIC');
  t.equal(level({ ...s, finalHeight: 11 }), 'EXECUTED', 'executed, not final: the refund has not run');
  t.equal(level({ ...s, made: [REFUND], ran: [], finalHeight: 11 }), 'EXECUTED', 'a refund alone');
});

t.test('only the last receipt may be skipped, and only when it is known to be a refund', async (t) => {
  t.equal(
    level({ made: [REFUND, CALL], ran: [CALL], stored: new Map([[REFUND, 'system']]), finalHeight: 11 }),
    'INCLUDED_FINAL',
    'a refund that is not the last is waited for',
  );
  t.equal(
    level({ made: [CALL, REFUND], ran: [CALL], stored: new Map(), finalHeight: 11 }),
    'INCLUDED_FINAL',
    'a last receipt the store does not hold is waited for',
  );
});

t.test('a refund a recent block named is skipped without reading its receipt', async (t) => {
  const s = { made: [CALL, REFUND], ran: [CALL], stored: new Map(), named: [REFUND], finalHeight: 9 };
  const { chain, codecs, reads } = chainOf(s);
  t.equal(txProgress(chain, codecs, TX)!.level, 'EXECUTED_OPTIMISTIC');
  t.notOk(reads.includes(DBCol.Receipts.id), 'the receipt row is not read');
  t.equal(
    level({ ...s, made: [REFUND, CALL], named: [REFUND], finalHeight: 11 }),
    'INCLUDED_FINAL',
    'a named refund that is not the last is still waited for',
  );
  t.equal(
    level({
      ...s,
      made: [CALL, REFUND],
      named: [CALL],
      stored: new Map([[REFUND, 'alice.near']]),
      finalHeight: 9,
    }),
    'INCLUDED',
    'a last receipt not named is read from the store, and waited for when it is not a refund',
  );
});
