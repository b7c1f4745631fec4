// The transaction codecs decode a send_tx's bytes once for admission, verification and the answer,
// and never serve one transaction's decode for other bytes.
import { type ChainHandle, runtimeTxCodecs } from '@nearlite/chain';
import { encodeSignedTransaction, KeyType, type Transaction } from '@nearlite/primitives';
import type { RuntimeConfig } from '@nearlite/runtime';
import t from 'tap';

const tx: Transaction = {
  signerId: 'alice.test.near',
  publicKey: { keyType: KeyType.ED25519, data: new Uint8Array(32).fill(1) },
  nonce: 7n,
  receiverId: 'bob.test.near',
  blockHash: new Uint8Array(32).fill(2),
  actions: [{ type: 'Transfer', deposit: 10n ** 24n }],
};
const signature = { keyType: KeyType.ED25519, data: new Uint8Array(64).fill(3) };

// Decoding and views touch neither the chain nor the runtime's config.
const codecs = () => runtimeTxCodecs({} as ChainHandle, {} as RuntimeConfig);

t.test('the same bytes are decoded once; a copy of them on its own', async (t) => {
  const c = codecs();
  const bytes = encodeSignedTransaction(tx, signature);
  const first = c.decodeTransaction(bytes);
  const again = c.decodeTransaction(bytes);
  t.equal(again.hash, first.hash, 'the same decode: the very hash it computed');
  t.equal(first.signerId, 'alice.test.near');
  const copy = bytes.slice();
  const other = c.decodeTransaction(copy);
  t.not(other.hash, first.hash, 'other bytes are decoded for themselves');
  t.same(other.hash, first.hash, 'to the same transaction');
  t.same(c.transactionView(bytes), c.transactionView(copy), 'views agree');
});

t.test('bytes that do not decode fail every time', async (t) => {
  const c = codecs();
  const bad = Uint8Array.of(1, 2, 3);
  t.throws(() => c.decodeTransaction(bad));
  t.throws(() => c.decodeTransaction(bad), 'nothing was kept for them');
  t.throws(() => c.transactionView(bad));
});
