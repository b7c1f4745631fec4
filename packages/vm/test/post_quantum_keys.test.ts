// A contract's AddKey and DeleteKey take any key near-crypto's PublicKey decodes, an ML-DSA-65 one
// (borsh tag 2, 1,952 bytes) included; a trie handle (tag 3) is no key, so using one aborts with
// InvalidPublicKey as nearcore's PublicKeyBuffer does.
import t from 'tap';
import { call, contract, freshHash, MockExternal } from './helpers.js';

// 100 "bob.near"; the key is the call's input, copied to 4096.
const code = await contract(`
  (data (i32.const 100) "bob.near")
  (func $key (result i64)
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 4096))
    (call $register_len (i64.const 0)))
  (func (export "add") (local $p i64) (local $n i64)
    (local.set $n (call $key))
    (local.set $p (call $promise_batch_create (i64.const 8) (i64.const 100)))
    (call $promise_batch_action_add_key_with_full_access (local.get $p) (local.get $n) (i64.const 4096) (i64.const 0)))
  (func (export "delete") (local $p i64) (local $n i64)
    (local.set $n (call $key))
    (local.set $p (call $promise_batch_create (i64.const 8) (i64.const 100)))
    (call $promise_batch_action_delete_key (local.get $p) (local.get $n) (i64.const 4096)))
`);
const hash = freshHash();
const mlDsaKey = Uint8Array.from({ length: 1952 }, (_, i) => i % 251);

t.test('an ML-DSA-65 key is added and deleted by a contract', async (t) => {
  for (const method of ['add', 'delete']) {
    const ext = new MockExternal();
    const out = call({
      code,
      codeHash: hash,
      method,
      external: ext,
      context: { input: Uint8Array.of(2, ...mlDsaKey) },
    });
    t.equal(out.aborted, null, method);
    const action = ext.receipts[0]!.actions[0] as Record<string, { public_key: string }>;
    const recorded = method === 'add' ? action.AddKey! : action.DeleteKey!;
    t.equal(recorded.public_key, Buffer.from(mlDsaKey).toString('hex'), `${method}: the whole key`);
  }
});

t.test('a trie handle, a short key or an unknown tag is not a public key', async (t) => {
  for (const input of [
    Uint8Array.of(3, ...new Uint8Array(32)),
    Uint8Array.of(2, ...mlDsaKey.subarray(0, 100)),
    Uint8Array.of(4, ...new Uint8Array(32)),
  ]) {
    const out = call({ code, codeHash: hash, method: 'add', context: { input } });
    t.same(out.aborted, { HostError: 'InvalidPublicKey' }, `tag ${input[0]}, ${input.length} bytes`);
  }
});
