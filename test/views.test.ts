// View calls run off the RPC loop: a runaway view ends at the view gas limit with nearcore's legacy
// error, and other requests are answered while it runs.
import { Account, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import wabt from 'wabt';
import { localChain } from './helpers/chain.js';

t.test('a runaway view does not hold up other requests', async (t) => {
  const w = await wabt();
  const code = w
    .parseWat(
      'spin.wat',
      '(module (import "env" "storage_write" (func (param i64 i64 i64 i64 i64) (result i64))) (func (export "spin") (loop $l (br $l))) (func (export "write") (drop (call 0 (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 0)))))',
    )
    .toBinary({}).buffer;
  const { node, provider, root } = await localChain(t);
  const kp = KeyPair.fromRandom('ed25519');
  await root.createAccount({
    newAccountId: 'spin.test.near',
    publicKey: kp.getPublicKey(),
    nearToTransfer: 10n ** 25n,
  });
  await new Account('spin.test.near', provider, new KeyPairSigner(kp)).deployContract(code);

  const order: string[] = [];
  const view = node
    .rpc<{ error: string }>('query', {
      request_type: 'call_function',
      account_id: 'spin.test.near',
      method_name: 'spin',
      args_base64: '',
      finality: 'optimistic',
    })
    .then((r) => {
      order.push('view');
      return r;
    });
  const others = Promise.all([node.rpc('status', []), node.rpc('block', { finality: 'optimistic' })]).then(
    () => order.push('others'),
  );
  const [spun] = await Promise.all([view, others]);
  t.same(order, ['others', 'view'], 'status and block were answered while the contract was spinning');
  t.equal(spun.body.result?.error, 'wasm execution failed with error: HostError(GasLimitExceeded)');
  const write = await node.rpc<{ error: string }>('query', {
    request_type: 'call_function',
    account_id: 'spin.test.near',
    method_name: 'write',
    args_base64: '',
    finality: 'optimistic',
  });
  t.equal(
    write.body.result?.error,
    'wasm execution failed with error: HostError(ProhibitedInView { method_name: "storage_write" })',
  );
  const missing = await node.rpc<{ error: string }>('query', {
    request_type: 'call_function',
    account_id: 'spin.test.near',
    method_name: 'nope',
    args_base64: '',
    finality: 'optimistic',
  });
  t.equal(missing.body.result?.error, 'wasm execution failed with error: MethodResolveError(MethodNotFound)');
  const noCode = await node.rpc<{ error: string }>('query', {
    request_type: 'call_function',
    account_id: 'test.near',
    method_name: 'x',
    args_base64: '',
    finality: 'optimistic',
  });
  t.equal(
    noCode.body.result?.error,
    'wasm execution failed with error: CompilationError(CodeDoesNotExist { account_id: "test.near" })',
  );
});
