// Gas keys (GasKeys, protocol 85) on a real node: a key with a balance of its own that pays for its
// transactions' gas and keeps one nonce per index. Added, funded, used with a GasKeyNonce, refunded,
// withdrawn from and deleted, with nearcore's errors and views. The transactions are encoded here:
// near-api-js cannot build gas-key actions or TransactionV1.
import {
  type Action,
  base58Encode,
  encodeSignedTransaction,
  encodeTransaction,
  KeyType,
  type PublicKey,
  parsePublicKey,
  sha256,
} from '@nearlite/primitives';
import { baseDecode, KeyPair, type KeyPairString } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { rawRpc, startFollower, waitForHeight } from './helpers/node.js';

const NEAR = 10n ** 24n;

// nearcore's gas_key_storage_cost for an ed25519 GasKeyFullAccess key with N nonces: the key's trie
// id (33), its borsh (8 + 1 + 18) and the record overhead (40), then per nonce its trie id, the u16
// index, the u64 value and the record overhead.
const gasKeyStorage = (n: number) => 33 + 27 + 40 + n * (33 + 2 + 8 + 40);

interface TxResult {
  status: Record<string, unknown>;
  transaction: Record<string, unknown>;
  transaction_outcome: { id: string; block_hash: string; outcome: { tokens_burnt: string } };
  receipts_outcome: { outcome: { tokens_burnt: string; status: Record<string, unknown> } }[];
}

t.test(
  'a gas key pays its own gas, keeps a nonce per index, and is funded, drained and deleted',
  async (t) => {
    const c = await localChain(t);
    const { node, provider, key } = c;
    const rootPair = KeyPair.fromString(key.secret_key as KeyPairString);
    const rootKey = parsePublicKey(key.public_key);
    const gasPair = KeyPair.fromRandom('ed25519');
    const gasKeyText = gasPair.getPublicKey().toString();
    const gasKey = parsePublicKey(gasKeyText);

    const query = <T>(request: Record<string, unknown>) =>
      node.rpc<T>('query', { finality: 'optimistic', account_id: 'test.near', ...request });
    const nonces = async () =>
      (await query<{ nonces: number[] }>({ request_type: 'view_gas_key_nonces', public_key: gasKeyText }))
        .body;
    const account = async () =>
      (await provider.viewAccount({ accountId: 'test.near' })) as unknown as {
        amount: string;
        storage_usage: number;
      };
    const gasKeyView = async () =>
      (
        await query<{ nonce: number; permission: Record<string, { balance: string; num_nonces: number }> }>({
          request_type: 'view_access_key',
          public_key: gasKeyText,
        })
      ).body.result!;

    const send = async (
      signer: { publicKey: PublicKey; sign: (m: Uint8Array) => Uint8Array },
      receiverId: string,
      actions: Action[],
      nonce: { nonce: bigint; nonceIndex?: number },
    ) => {
      const blockHash = Uint8Array.from(
        baseDecode((await provider.viewBlock({ finality: 'final' })).header.hash),
      );
      const tx = {
        ...(nonce.nonceIndex !== undefined ? { version: 1 as const, nonceIndex: nonce.nonceIndex } : {}),
        signerId: 'test.near',
        publicKey: signer.publicKey,
        nonce: nonce.nonce,
        receiverId,
        blockHash,
        actions,
      };
      const signature = { keyType: KeyType.ED25519, data: signer.sign(sha256(encodeTransaction(tx))) };
      return node.rpc<TxResult>('send_tx', {
        signed_tx_base64: Buffer.from(encodeSignedTransaction(tx, signature)).toString('base64'),
        wait_until: 'FINAL',
      });
    };
    const root = { publicKey: rootKey, sign: (m: Uint8Array) => rootPair.sign(m).signature };
    const viaGasKey = { publicKey: gasKey, sign: (m: Uint8Array) => gasPair.sign(m).signature };
    const rootNonce = async () =>
      BigInt((await provider.viewAccessKey({ accountId: 'test.near', publicKey: key.public_key })).nonce) +
      1n;
    const byRoot = async (receiverId: string, actions: Action[]) =>
      send(root, receiverId, actions, { nonce: await rootNonce() });

    await c.root.createAccount({
      newAccountId: 'bob.test.near',
      publicKey: KeyPair.fromRandom('ed25519').getPublicKey(),
      nearToTransfer: NEAR,
    });

    // Added with three nonces: the key's own nonce is 0, each index starts where a new key's nonce does.
    const before = await account();
    const added = await byRoot('test.near', [
      {
        type: 'AddKey',
        publicKey: gasKey,
        accessKey: { nonce: 0n, permission: { kind: 'FullAccess', gasKey: { balance: 0n, numNonces: 3 } } },
      },
    ]);
    t.same(added.body.result?.status, { SuccessValue: '' });
    t.same(added.body.result?.transaction.actions, [
      {
        AddKey: {
          public_key: gasKeyText,
          access_key: { nonce: 0, permission: { GasKeyFullAccess: { balance: '0', num_nonces: 3 } } },
        },
      },
    ]);
    t.equal((await account()).storage_usage, before.storage_usage + gasKeyStorage(3));
    const view = await gasKeyView();
    t.same([view.nonce, view.permission], [0, { GasKeyFullAccess: { balance: '0', num_nonces: 3 } }]);
    const start = (await nonces()).result!.nonces;
    t.equal(start.length, 3);
    t.ok(
      start.every((n) => n === start[0] && n % 1_000_000 === 0),
      'every index starts at (height - 1) × 10^6',
    );
    const list = (
      await query<{ keys: { public_key: string }[] }>({ request_type: 'view_access_key_list' })
    ).body.result!.keys.map((k) => k.public_key);
    t.same(list.filter((k) => k === gasKeyText).length, 1, 'listed once, its nonces not as keys');
    // Written in the block of the transaction's receipt: the transaction's own or the next.
    const txHeight = (
      await node.rpc<{ header: { height: number } }>('block', {
        block_id: added.body.result!.transaction_outcome.block_hash,
      })
    ).body.result!.header.height;
    const kinds: string[] = [];
    for (const height of [txHeight, txHeight + 1]) {
      const changes = await node.rpc<{ changes: { type: string; change: { index?: number } }[] }>(
        'EXPERIMENTAL_changes',
        {
          changes_type: 'single_access_key_changes',
          keys: [{ account_id: 'test.near', public_key: gasKeyText }],
          block_id: height,
        },
      );
      kinds.push(...(changes.body.result?.changes ?? []).map((ch) => `${ch.type}${ch.change.index ?? ''}`));
    }
    t.same(kinds, [
      'access_key_update',
      'gas_key_nonce_update0',
      'gas_key_nonce_update1',
      'gas_key_nonce_update2',
    ]);
    // A follower answers from the stream's state changes what the node answers from its own.
    const follower = await startFollower(c.home, node.url);
    t.teardown(() => follower.stop());
    await waitForHeight(follower, txHeight + 1);
    const sameOnFollower = async (method: string, params: Record<string, unknown>, what: string) => {
      await waitForHeight(follower, params.block_id as number);
      const [mine, theirs] = await Promise.all([node, follower].map((n) => rawRpc(n.url, method, params)));
      t.equal(theirs!.body, mine!.body, `the follower's ${what} at #${params.block_id}`);
    };
    // The key's state views at the final head, on the node and on the follower.
    const sameKeyViews = async () => {
      const at = (await node.rpc<{ header: { height: number } }>('block', { finality: 'final' })).body.result!
        .header.height;
      const key = { account_id: 'test.near', public_key: gasKeyText };
      for (const request of [
        { request_type: 'view_gas_key_nonces', ...key },
        { request_type: 'view_access_key', ...key },
        { request_type: 'view_access_key_list', account_id: 'test.near' },
      ])
        await sameOnFollower('query', { ...request, block_id: at }, request.request_type);
    };
    for (const block_id of [txHeight, txHeight + 1]) {
      const key = { account_id: 'test.near', public_key: gasKeyText };
      await sameOnFollower(
        'EXPERIMENTAL_changes',
        { changes_type: 'single_access_key_changes', keys: [key], block_id },
        'single_access_key_changes',
      );
      await sameOnFollower(
        'EXPERIMENTAL_changes',
        { changes_type: 'all_access_key_changes', account_ids: ['test.near'], block_id },
        'all_access_key_changes',
      );
    }
    await sameKeyViews();

    // A plain nonce, and an empty balance, are refused.
    const plain = await send(viaGasKey, 'bob.test.near', [{ type: 'Transfer', deposit: 5n }], {
      nonce: BigInt(start[0]!) + 1n,
    });
    t.same(error(plain.body), { InvalidNonceIndex: { tx_nonce_index: null, num_nonces: 3 } });
    const unfunded = await send(viaGasKey, 'bob.test.near', [{ type: 'Transfer', deposit: 5n }], {
      nonce: BigInt(start[0]!) + 1n,
      nonceIndex: 0,
    });
    t.match(error(unfunded.body), { NotEnoughGasKeyBalance: { signer_id: 'test.near', balance: '0' } });
    const outOfRange = await send(viaGasKey, 'bob.test.near', [{ type: 'Transfer', deposit: 5n }], {
      nonce: BigInt(start[0]!) + 1n,
      nonceIndex: 3,
    });
    t.same(error(outOfRange.body), { InvalidNonceIndex: { tx_nonce_index: 3, num_nonces: 3 } });

    // Funded by a TransferToGasKey.
    const funded = await byRoot('test.near', [
      { type: 'TransferToGasKey', publicKey: gasKey, deposit: NEAR / 2n },
    ]);
    t.same(funded.body.result?.status, { SuccessValue: '' });
    t.same(funded.body.result?.transaction.actions, [
      { TransferToGasKey: { public_key: gasKeyText, deposit: (NEAR / 2n).toString() } },
    ]);
    t.equal((await gasKeyView()).permission.GasKeyFullAccess!.balance, (NEAR / 2n).toString());

    // Used with index 1: the account pays only the deposit; the key pays the gas and gets the refund.
    const amountBefore = BigInt((await account()).amount);
    const txNonce = BigInt(start[1]!) + 7n;
    const used = await send(viaGasKey, 'bob.test.near', [{ type: 'Transfer', deposit: 5n }], {
      nonce: txNonce,
      nonceIndex: 1,
    });
    t.same(used.body.result?.status, { SuccessValue: '' });
    t.equal(used.body.result?.transaction.nonce_index, 1);
    t.equal(BigInt((await account()).amount), amountBefore - 5n, 'the account paid the deposit alone');
    const burnt =
      BigInt(used.body.result!.transaction_outcome.outcome.tokens_burnt) +
      used.body.result!.receipts_outcome.reduce((s, r) => s + BigInt(r.outcome.tokens_burnt), 0n);
    t.equal(
      BigInt((await gasKeyView()).permission.GasKeyFullAccess!.balance),
      NEAR / 2n - burnt,
      'the key paid for the gas burnt, the rest refunded to it',
    );
    t.same((await nonces()).result!.nonces, [start[0], Number(txNonce), start[2]]);
    await sameKeyViews();
    const replay = await send(viaGasKey, 'bob.test.near', [{ type: 'Transfer', deposit: 5n }], {
      nonce: txNonce,
      nonceIndex: 1,
    });
    t.match(error(replay.body), { InvalidNonce: { ak_nonce: Number(txNonce) } });

    // Withdrawn from: the key's balance moves to the account.
    const keyBalance = BigInt((await gasKeyView()).permission.GasKeyFullAccess!.balance);
    const withdrawn = await byRoot('test.near', [
      { type: 'WithdrawFromGasKey', publicKey: gasKey, amount: 1000n },
    ]);
    t.same(withdrawn.body.result?.status, { SuccessValue: '' });
    t.equal(BigInt((await gasKeyView()).permission.GasKeyFullAccess!.balance), keyBalance - 1000n);
    const overdrawn = await byRoot('test.near', [
      { type: 'WithdrawFromGasKey', publicKey: gasKey, amount: NEAR },
    ]);
    t.same(overdrawn.body.result?.status, {
      Failure: {
        ActionError: {
          index: 0,
          kind: {
            InsufficientGasKeyBalance: {
              account_id: 'test.near',
              public_key: gasKeyText,
              balance: (keyBalance - 1000n).toString(),
              required: NEAR.toString(),
            },
          },
        },
      },
    });
    const notGasKey = await byRoot('test.near', [
      { type: 'TransferToGasKey', publicKey: rootKey, deposit: 1n },
    ]);
    t.same(actionErrorKind(notGasKey.body.result?.status), {
      GasKeyDoesNotExist: { account_id: 'test.near', public_key: key.public_key },
    });

    // The nonces method answers as query does; an ordinary key is no gas key.
    const method = await node.rpc<{ nonces: number[] }>('EXPERIMENTAL_view_gas_key_nonces', {
      finality: 'optimistic',
      account_id: 'test.near',
      public_key: gasKeyText,
    });
    t.same(method.body.result?.nonces, (await nonces()).result!.nonces);
    const ordinary = await query<unknown>({
      request_type: 'view_gas_key_nonces',
      public_key: key.public_key,
    });
    t.equal(ordinary.body.error?.cause?.name, 'UNKNOWN_GAS_KEY');
    t.equal(
      ordinary.body.error?.data,
      `Gas key for public key ${key.public_key} does not exist while viewing`,
    );

    // Deleted: what is left on it is burnt, its nonces go with it and its storage is freed.
    const left = BigInt((await gasKeyView()).permission.GasKeyFullAccess!.balance);
    const deleted = await byRoot('test.near', [{ type: 'DeleteKey', publicKey: gasKey }]);
    t.same(deleted.body.result?.status, { SuccessValue: '' });
    const receiptBurnt = BigInt(deleted.body.result!.receipts_outcome[0]!.outcome.tokens_burnt);
    t.ok(receiptBurnt > left, 'the receipt burnt the key’s balance on top of its gas');
    t.equal((await account()).storage_usage, before.storage_usage);
    t.equal((await nonces()).error?.cause?.name, 'UNKNOWN_GAS_KEY');
    await sameKeyViews();

    // A gas key holding more than 1 NEAR cannot be deleted.
    const rich = parsePublicKey(KeyPair.fromRandom('ed25519').getPublicKey().toString());
    await byRoot('test.near', [
      {
        type: 'AddKey',
        publicKey: rich,
        accessKey: { nonce: 0n, permission: { kind: 'FullAccess', gasKey: { balance: 0n, numNonces: 1 } } },
      },
      { type: 'TransferToGasKey', publicKey: rich, deposit: 2n * NEAR },
    ]);
    const refused = await byRoot('test.near', [{ type: 'DeleteKey', publicKey: rich }]);
    t.same(actionErrorKind(refused.body.result?.status), {
      GasKeyBalanceTooHigh: {
        account_id: 'test.near',
        public_key: `ed25519:${base58Encode(rich.data)}`,
        balance: (2n * NEAR).toString(),
      },
    });

    // AddKey's gas-key rules (validate_add_key_action).
    const invalid = async (numNonces: number, balance: bigint) =>
      error(
        (
          await byRoot('test.near', [
            {
              type: 'AddKey',
              publicKey: parsePublicKey(KeyPair.fromRandom('ed25519').getPublicKey().toString()),
              accessKey: { nonce: 0n, permission: { kind: 'FullAccess', gasKey: { balance, numNonces } } },
            },
          ])
        ).body,
      );
    t.same(await invalid(0, 0n), {
      ActionsValidation: { GasKeyInvalidNumNonces: { requested_nonces: 0, limit: 1024 } },
    });
    t.same(await invalid(1025, 0n), {
      ActionsValidation: { GasKeyInvalidNumNonces: { requested_nonces: 1025, limit: 1024 } },
    });
    t.same(await invalid(1, 1n), { ActionsValidation: { AddGasKeyWithNonZeroBalance: { balance: '1' } } });
  },
);

function error(body: { error?: { data?: unknown } }): unknown {
  return ((body.error?.data as { TxExecutionError?: { InvalidTxError?: unknown } } | undefined)
    ?.TxExecutionError?.InvalidTxError ?? body.error?.data) as unknown;
}

function actionErrorKind(status: unknown): unknown {
  return (status as { Failure?: { ActionError?: { kind?: unknown } } } | undefined)?.Failure?.ActionError
    ?.kind;
}
