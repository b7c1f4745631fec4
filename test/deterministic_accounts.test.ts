// NEP-616 deterministic accounts on a real 4-shard node: a real contract deployed globally, a
// DeterministicStateInit transaction (which near-api-js 7 cannot build, so it is encoded here)
// creating the account its StateInit names, with the contract's state taken from another account
// that set it through the contract; then the views a client reads, and the refusals.
import { createHash } from 'node:crypto';
import {
  type Action,
  base58Encode,
  deriveDeterministicAccountId,
  encodeSignedTransaction,
  encodeTransaction,
  parsePublicKey,
  type StateInit,
  sha256,
} from '@nearlite/primitives';
import { baseDecode, KeyPair, type KeyPairString } from 'near-api-js';
import t from 'tap';
import { deployedAccount, localChain } from './helpers/chain.js';
import { contract } from './helpers/contracts.js';

const NEAR = 10n ** 24n;

t.test(
  'a DeterministicStateInit creates the account its StateInit names, served like any other',
  async (t) => {
    const c = await localChain(t, { shards: 4 });
    const { node, provider, key } = c;
    const code = contract('main.wasm');
    const codeHash = new Uint8Array(createHash('sha256').update(code).digest());

    // The code, globally by hash; the contract's state for "foo", read from an account that set it.
    const alpha = await deployedAccount(c, 'alpha.test.near', code, 20n * NEAR);
    await alpha.deployGlobalContract(code, 'codeHash');
    await alpha.callFunction({
      contractId: 'alpha.test.near',
      methodName: 'setValue',
      args: { value: 'foo' },
    });
    const state = await provider.viewContractState({ contractId: 'alpha.test.near', prefix: '' });
    t.ok(state.values.length > 0);
    const data = state.values
      .map((v) => [Buffer.from(v.key, 'base64'), Buffer.from(v.value, 'base64')] as const)
      .sort(([a], [b]) => Buffer.compare(a, b))
      .map(([k, v]): [Uint8Array, Uint8Array] => [new Uint8Array(k), new Uint8Array(v)]);
    const init: StateInit = { code: { kind: 'CodeHash', hash: codeHash }, data };
    const id = deriveDeterministicAccountId(init);

    const keyPair = KeyPair.fromString(key.secret_key as KeyPairString);
    const publicKey = parsePublicKey(key.public_key);
    const nonce = async () =>
      BigInt((await provider.viewAccessKey({ accountId: 'test.near', publicKey: key.public_key })).nonce) +
      1n;
    const signed = async (receiverId: string, actions: Action[]) => {
      const blockHash = Uint8Array.from(
        baseDecode((await provider.viewBlock({ finality: 'final' })).header.hash),
      );
      const tx = { signerId: 'test.near', publicKey, nonce: await nonce(), receiverId, blockHash, actions };
      const signature = { keyType: 0 as const, data: keyPair.sign(sha256(encodeTransaction(tx))).signature };
      return Buffer.from(encodeSignedTransaction(tx, signature)).toString('base64');
    };
    const send = async (receiverId: string, actions: Action[]) =>
      node.rpc<{
        status: unknown;
        transaction: { actions: unknown[] };
        receipts_outcome: { outcome: { status: unknown } }[];
      }>('send_tx', {
        signed_tx_base64: await signed(receiverId, actions),
        wait_until: 'EXECUTED_OPTIMISTIC',
      });

    const deposit = NEAR;
    const { body } = await send(id, [{ type: 'DeterministicStateInit', ...init, deposit }]);
    t.same(body.result?.status, { SuccessValue: '' });
    t.same(body.result?.transaction.actions, [
      {
        DeterministicStateInit: {
          code: { hash: base58Encode(codeHash) },
          data: Object.fromEntries(state.values.map((v) => [v.key, v.value])),
          deposit: deposit.toString(),
        },
      },
    ]);
    const account = (
      await node.rpc<{ amount: string; storage_usage: number; global_contract_hash?: string }>('query', {
        request_type: 'view_account',
        finality: 'optimistic',
        account_id: id,
      })
    ).body.result!;
    const dataBytes = data.reduce((n, [k, v]) => n + k.length + v.length + 40, 0);
    t.equal(account.storage_usage, 100 + 32 + dataBytes);
    t.equal(account.global_contract_hash, base58Encode(codeHash));
    t.equal(account.amount, '0', 'a zero-balance account: the whole deposit came back');
    t.equal(await provider.callFunction({ contractId: id, method: 'getValue', args: {} }), 'foo');

    // Sent again: nothing changes, the deposit comes back again.
    const again = await send(id, [{ type: 'DeterministicStateInit', ...init, deposit }]);
    t.same(again.body.result?.status, { SuccessValue: '' });

    // A StateInit sent to an id it does not derive is refused before it is admitted.
    const other = `0s${'1'.repeat(40)}`;
    const refused = await send(other, [{ type: 'DeterministicStateInit', ...init, deposit }]);
    t.same(refused.body.error?.cause, { name: 'INVALID_TRANSACTION', info: {} });
    t.same((refused.body.error?.data as { TxExecutionError?: unknown })?.TxExecutionError, {
      InvalidTxError: {
        ActionsValidation: { InvalidDeterministicStateInitReceiver: { receiver_id: other, derived_id: id } },
      },
    });
    // A lone transfer to a deterministic id that does not exist creates it, with no key and no code.
    const fresh = `0s${'2'.repeat(40)}`;
    const transfer = await send(fresh, [{ type: 'Transfer', deposit: 1n }]);
    t.same(transfer.body.result?.status, { SuccessValue: '' });
    const uninit = (
      await node.rpc<{ amount: string; storage_usage: number; code_hash: string }>('query', {
        request_type: 'view_account',
        finality: 'optimistic',
        account_id: fresh,
      })
    ).body.result!;
    t.same(
      [uninit.amount, uninit.storage_usage, uninit.code_hash],
      ['1', 100, '11111111111111111111111111111111'],
    );
  },
);
