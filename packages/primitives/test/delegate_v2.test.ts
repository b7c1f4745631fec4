// DelegateV2 (NEP-611, protocol 85) as nearcore lays it out (core/primitives/src/action/delegate.rs):
// Action tag 14, the VersionedDelegateActionPayload (tag 0, V2: sender, receiver, actions, a
// TransactionNonce, max_block_height, public key), then the signature, which covers
// sha256(u32 2^30 + 611 ‖ the payload). The bytes below are written by hand from that layout.
import { createHash } from 'node:crypto';
import {
  actionView,
  BorshReader,
  BorshWriter,
  base58Encode,
  type DelegateAction,
  delegateActionV2Hash,
  KeyType,
  readAction,
  writeAction,
} from '@nearlite/primitives';
import t from 'tap';

const le = (n: bigint, bytes: number) =>
  Array.from({ length: bytes }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
const str = (s: string) => [...le(BigInt(s.length), 4), ...Buffer.from(s)];
const key = Uint8Array.from({ length: 32 }, (_, i) => i);

const d: DelegateAction = {
  senderId: 'a.near',
  receiverId: 'b.near',
  actions: [{ type: 'Transfer', deposit: 7n }],
  nonce: 5n,
  maxBlockHeight: 100n,
  publicKey: { keyType: KeyType.ED25519, data: key },
  nonceIndex: 1,
};
const payload = [
  0, // V2
  ...str('a.near'),
  ...str('b.near'),
  ...le(1n, 4),
  3, // Transfer
  ...le(7n, 16),
  1, // GasKeyNonce
  ...le(5n, 8),
  ...le(1n, 2),
  ...le(100n, 8),
  0,
  ...key,
];

t.test('the action is tag 14, its payload versioned, its nonce a TransactionNonce', async (t) => {
  const signature = { keyType: KeyType.ED25519, data: new Uint8Array(64).fill(9) };
  const w = new BorshWriter();
  writeAction(w, { type: 'DelegateV2', delegateAction: d, signature });
  const bytes = w.toBytes();
  t.same([...bytes], [14, ...payload, 0, ...signature.data]);
  t.same(readAction(new BorshReader(bytes)), { type: 'DelegateV2', delegateAction: d, signature });
  const prefix = le(2n ** 30n + 611n, 4);
  t.same(
    delegateActionV2Hash(d),
    new Uint8Array(
      createHash('sha256')
        .update(Uint8Array.from([...prefix, ...payload]))
        .digest(),
    ),
    'signed over the NEP-461 prefix 2^30 + 611 and the versioned payload',
  );
  t.same(actionView({ type: 'DelegateV2', delegateAction: d, signature }), {
    DelegateV2: {
      delegate_action: {
        V2: {
          sender_id: 'a.near',
          receiver_id: 'b.near',
          actions: [{ Transfer: { deposit: '7' } }],
          nonce: { GasKeyNonce: { nonce: 5, nonce_index: 1 } },
          max_block_height: 100,
          public_key: `ed25519:${base58Encode(key)}`,
        },
      },
      signature: `ed25519:${base58Encode(signature.data)}`,
    },
  });
});

t.test('a delegate inside a delegate, and an unknown payload version, do not decode', async (t) => {
  const signature = { keyType: KeyType.ED25519, data: new Uint8Array(64) };
  const w = new BorshWriter();
  writeAction(w, {
    type: 'DelegateV2',
    delegateAction: { ...d, actions: [{ type: 'DelegateV2', delegateAction: d, signature }] },
    signature,
  });
  t.throws(() => readAction(new BorshReader(w.toBytes())), /^DelegateAction mustn't contain a nested one$/);
  t.throws(
    () => readAction(new BorshReader(Uint8Array.from([14, 1, ...payload.slice(1)]))),
    /unknown delegate action version 1/,
  );
});
