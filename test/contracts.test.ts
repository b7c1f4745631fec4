// Real NEAR contracts from npm packages, deployed and called through near-api-js 7.
import { Account, KeyPair, KeyPairSigner, type KeyPairString } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { contract } from './helpers/contracts.js';

const NEAR = 10n ** 24n;
const TGAS = 10n ** 12n;

t.test('real contracts', async (t) => {
  const { key, node, provider, root } = await localChain(t, { shards: 2, sandbox: true });
  let lastDeploy: Awaited<ReturnType<Account['deployContract']>> | undefined;
  const deploy = async (id: string, code: Uint8Array, balance = 50n * NEAR) => {
    const kp = KeyPair.fromRandom('ed25519');
    await root.createAccount({ newAccountId: id, publicKey: kp.getPublicKey(), nearToTransfer: balance });
    const acc = new Account(id, provider, new KeyPairSigner(kp));
    lastDeploy = await acc.deployContract(code);
    return acc;
  };

  await t.test('near-hello (AssemblyScript)', async (t) => {
    const hello = await deploy('hello.test.near', contract('main.wasm'));
    const code = await node.rpc<{ changes: { type: string; change: { code_base64: string } }[] }>(
      'EXPERIMENTAL_changes',
      {
        changes_type: 'contract_code_changes',
        account_ids: ['hello.test.near'],
        block_id: lastDeploy!.receipts_outcome[0]!.block_hash,
      },
    );
    t.equal(
      code.body.result?.changes[0]?.type,
      'contract_code_update',
      'the deploy is a contract_code_update',
    );
    t.equal(
      code.body.result?.changes[0]?.change.code_base64,
      Buffer.from(contract('main.wasm')).toString('base64'),
    );
    t.equal(
      await provider.callFunction({ contractId: 'hello.test.near', method: 'hello', args: { name: 'trex' } }),
      'hello trex',
    );
    await root.callFunction({
      contractId: 'hello.test.near',
      methodName: 'setValue',
      args: { value: 'foo' },
    });
    t.equal(
      await provider.callFunction({ contractId: 'hello.test.near', method: 'getValue', args: {} }),
      'foo',
    );
    const logs = await root.callFunctionRaw({
      contractId: 'hello.test.near',
      methodName: 'generateLogs',
      args: {},
    });
    t.same(logs.receipts_outcome[0]?.outcome.logs, ['log1', 'log2']);
    const failed = await root
      .callFunctionRaw({ contractId: 'hello.test.near', methodName: 'triggerAssert', args: {} })
      .catch((e: Error) => e);
    t.match(String((failed as Error).message), /expected to fail/);
    const rec = await provider.callFunction({
      contractId: 'hello.test.near',
      method: 'recurse',
      args: { n: 10 },
    });
    t.equal(rec, 10);
    const view = await provider.viewContractState({ contractId: 'hello.test.near', prefix: '' });
    t.ok(view.values.length > 0, 'state grew');
    void hello;
  });

  await t.test(
    'near-sdk-simulator avlTreeContract (start function reads storage) and sentences (promises)',
    async (t) => {
      await deploy('avl.test.near', contract('avlTreeContract.wasm'));
      for (const [key, value] of [
        [5, 50],
        [3, 30],
        [9, 90],
        [1, 10],
      ]) {
        await root.callFunction({
          contractId: 'avl.test.near',
          methodName: 'insert',
          args: { key, value },
          gas: 100n * TGAS,
        });
      }
      t.equal(
        await provider.callFunction({ contractId: 'avl.test.near', method: 'getSome', args: { key: 9 } }),
        90,
      );
      t.equal(await provider.callFunction({ contractId: 'avl.test.near', method: 'size', args: {} }), 4);
      t.same(
        await provider.callFunction({ contractId: 'avl.test.near', method: 'keys', args: {} }),
        [1, 3, 5, 9],
      );
      t.equal(
        await provider.callFunction({ contractId: 'avl.test.near', method: 'isBalanced', args: {} }),
        true,
      );

      // sentences calls words.examples, a top-level-family account patched in as near-workspaces would.
      const words = contract('words.wasm');
      const { createHash } = await import('node:crypto');
      const { baseEncode } = await import('near-api-js');
      const codeHash = baseEncode(createHash('sha256').update(words).digest());
      const patch = await node.rpc('sandbox_patch_state', {
        records: [
          {
            Account: {
              account_id: 'words.examples',
              account: {
                amount: (10n * NEAR).toString(),
                locked: '0',
                code_hash: codeHash,
                storage_usage: 100 + words.length,
              },
            },
          },
          { Contract: { account_id: 'words.examples', code: Buffer.from(words).toString('base64') } },
        ],
      });
      t.same(patch.body.result, {});
      await deploy('sentences.test.near', contract('sentences.wasm'));
      const one = await root.callFunction({
        contractId: 'sentences.test.near',
        methodName: 'reverseWordOne',
        args: {},
        gas: 100n * TGAS,
      });
      t.same(one, { text: 'elpmas' }, 'a promise result returned through promise_return');
      const three = await root.callFunction({
        contractId: 'sentences.test.near',
        methodName: 'reverseWordThree',
        args: {},
        gas: 100n * TGAS,
      });
      t.equal(three, true, 'the callback saw the promise result');

      // The account patched to say it has no contract (near-workspaces' updateAccount writes the
      // all-zero code hash): its code row stays, and nothing runs it or serves it, as on nearcore.
      const noCode = await node.rpc('sandbox_patch_state', {
        records: [
          {
            Account: {
              account_id: 'words.examples',
              account: {
                amount: (20n * NEAR).toString(),
                locked: '0',
                code_hash: '11111111111111111111111111111111',
                storage_usage: 100,
              },
            },
          },
        ],
      });
      t.same(noCode.body.result, {});
      const view = await node.rpc<{ error: string }>('query', {
        request_type: 'call_function',
        account_id: 'words.examples',
        method_name: 'examples',
        args_base64: '',
        finality: 'optimistic',
      });
      t.equal(
        view.body.result?.error,
        'wasm execution failed with error: CompilationError(CodeDoesNotExist { account_id: "words.examples" })',
      );
      const code = await node.rpc('query', {
        request_type: 'view_code',
        account_id: 'words.examples',
        finality: 'optimistic',
      });
      t.equal(code.body.error?.cause.name, 'NO_CONTRACT_CODE');
      // near-api-js reads the outcome's CompilationError(CodeDoesNotExist) and throws this.
      await t.rejects(
        root.callFunctionRaw({
          contractId: 'words.examples',
          methodName: 'examples',
          args: {},
          gas: 30n * TGAS,
        }),
        /Contract code for contract ID words\.examples does not exist/,
        'a call fails with CodeDoesNotExist',
      );
    },
  );

  await t.test('linkdrop (Rust): create_account through a promise batch and a callback', async (t) => {
    const registrar = new Account('near', provider, key.secret_key as KeyPairString);
    await registrar.deployContract(contract('testnet-linkdrop.wasm'));
    const bobKey = KeyPair.fromRandom('ed25519');
    // near-api-js sends create_account to the top-level account for a `x.near` id that is not ours.
    await root.createAccount({
      newAccountId: 'bob.near',
      publicKey: bobKey.getPublicKey(),
      nearToTransfer: 2n * NEAR,
    });
    const bob = await provider.viewAccount({ accountId: 'bob.near' });
    t.equal(bob.amount, 2n * NEAR);
    const bobAccessKey = await provider.viewAccessKey({
      accountId: 'bob.near',
      publicKey: bobKey.getPublicKey().toString(),
    });
    t.equal(bobAccessKey.permission, 'FullAccess');
  });

  await t.test('NEP-21 fungible token (Rust)', async (t) => {
    await deploy('ft.test.near', contract('fungible_token.wasm'));
    await root.callFunction({
      contractId: 'ft.test.near',
      methodName: 'new',
      args: { owner_id: 'test.near', total_supply: '1000' },
      gas: 100n * TGAS,
    });
    t.equal(
      await provider.callFunction({ contractId: 'ft.test.near', method: 'get_total_supply', args: {} }),
      '1000',
    );
    await root.callFunction({
      contractId: 'ft.test.near',
      methodName: 'transfer',
      args: { new_owner_id: 'bob.test.near', amount: '10' },
      gas: 100n * TGAS,
      deposit: NEAR / 10n,
    });
    t.equal(
      await provider.callFunction({
        contractId: 'ft.test.near',
        method: 'get_balance',
        args: { owner_id: 'bob.test.near' },
      }),
      '10',
    );
    t.equal(
      await provider.callFunction({
        contractId: 'ft.test.near',
        method: 'get_balance',
        args: { owner_id: 'test.near' },
      }),
      '990',
    );
    const again = await root
      .callFunction({
        contractId: 'ft.test.near',
        methodName: 'new',
        args: { owner_id: 'test.near', total_supply: '1' },
        gas: 100n * TGAS,
      })
      .catch((e: Error) => e);
    t.match(String((again as Error).message), /Already initialized/);
  });
});
