// ML-DSA-65 access keys (PostQuantumSignatures, protocol 85) on a real node: added, listed by their
// trie handle, used to sign transactions and meta transactions, priced with
// ml_dsa_65_verification_cost, refused where nearcore refuses them, and deleted. The transactions are
// encoded here from the bytes up; a second test does the same through near-api-js's own ML-DSA-65 key
// pairs, signer and account, as an application would.
import { createHash } from 'node:crypto';
import {
  type Action,
  base58Encode,
  type DelegateAction,
  delegateActionHash,
  encodeSignedTransaction,
  encodeTransaction,
  KeyType,
  type PublicKey,
  parsePublicKey,
  type Signature,
  sha256,
} from '@nearlite/primitives';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { Account, actions, baseDecode, KeyPair, type KeyPairString } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';

const NEAR = 10n ** 24n;

// nearcore's parameters at protocol 85+ (core/parameters/res/runtime_configs): the send fees of a
// receipt, a transfer and a delegate to another account, and what an ML-DSA-65 signature adds.
const ACTION_RECEIPT_SEND_NOT_SIR = 108_059_500_000n;
const TRANSFER_SEND_NOT_SIR = 115_123_062_500n;
const ML_DSA_65_VERIFICATION_COST = 100_000_000_000n;
// access_key_storage_usage: the record overhead, the key's trie id (33 bytes for an ML-DSA-65 key,
// by its hash) and the borsh access key (a nonce and the FullAccess tag).
const ML_DSA_65_FULL_ACCESS_KEY_STORAGE = 40 + 33 + 9;

interface Outcome {
  status: unknown;
  transaction: { public_key: string; signature: string };
  transaction_outcome: {
    id: string;
    block_hash: string;
    outcome: { gas_burnt: number; tokens_burnt: string };
  };
}

type Signer = { readonly publicKey: PublicKey; readonly sign: (message: Uint8Array) => Signature };

t.test(
  'an ML-DSA-65 key is added, listed by its handle, signs, pays for its check and is deleted',
  async (t) => {
    const c = await localChain(t);
    const { node, provider, key } = c;

    const rootPair = KeyPair.fromString(key.secret_key as KeyPairString);
    const ed: Signer = {
      publicKey: parsePublicKey(key.public_key),
      sign: (m) => ({ keyType: KeyType.ED25519, data: rootPair.sign(m).signature }),
    };
    const seed = new Uint8Array(32).fill(7);
    const pq = ml_dsa65.keygen(seed);
    const ml: Signer = {
      publicKey: { keyType: KeyType.MLDSA65, data: pq.publicKey },
      sign: (m) => ({ keyType: KeyType.MLDSA65, data: ml_dsa65.sign(m, pq.secretKey) }),
    };
    const mlText = `ml-dsa-65:${base58Encode(pq.publicKey)}`;
    // nearcore's MlDsa65PublicKey::to_public_key_handle, computed independently.
    const handle = `ml-dsa-65-hash:${base58Encode(
      createHash('sha3-256').update('near:ml-dsa-65-pubkey-hash:v1').update(pq.publicKey).digest(),
    )}`;

    const accessKey = async (signerId: string, publicKey: string) =>
      node.rpc<{ nonce: number; permission: unknown }>('query', {
        request_type: 'view_access_key',
        finality: 'optimistic',
        account_id: signerId,
        public_key: publicKey,
      });
    const encode = async (
      signerId: string,
      signer: Signer,
      receiverId: string,
      actions: Action[],
      tamper = false,
    ): Promise<string> => {
      const keyText =
        signer.publicKey.keyType === KeyType.MLDSA65
          ? mlText
          : `ed25519:${base58Encode(signer.publicKey.data)}`;
      const nonce = BigInt((await accessKey(signerId, keyText)).body.result!.nonce) + 1n;
      const blockHash = Uint8Array.from(
        baseDecode((await provider.viewBlock({ finality: 'final' })).header.hash),
      );
      const tx = { signerId, publicKey: signer.publicKey, nonce, receiverId, blockHash, actions };
      const signature = signer.sign(sha256(encodeTransaction(tx)));
      if (tamper) signature.data[10]! ^= 1;
      return Buffer.from(encodeSignedTransaction(tx, signature)).toString('base64');
    };
    const send = async (
      signerId: string,
      signer: Signer,
      receiverId: string,
      actions: Action[],
      tamper = false,
    ) =>
      node.rpc<Outcome>('send_tx', {
        signed_tx_base64: await encode(signerId, signer, receiverId, actions, tamper),
        wait_until: 'EXECUTED_OPTIMISTIC',
      });
    const storageUsage = async () => (await provider.viewAccount({ accountId: 'test.near' })).storage_usage;
    const keyList = async () =>
      (
        await node.rpc<{ keys: { public_key: string; access_key: { permission: unknown } }[] }>('query', {
          request_type: 'view_access_key_list',
          finality: 'optimistic',
          account_id: 'test.near',
        })
      ).body.result!.keys;

    await c.root.createAccount({
      newAccountId: 'bob.test.near',
      publicKey: KeyPair.fromRandom('ed25519').getPublicKey(),
      nearToTransfer: 5n * NEAR,
    });

    // Added by the ed25519 key: it costs the storage of an ed25519 key, not of 1,952 bytes.
    const before = await storageUsage();
    const added = await send('test.near', ed, 'test.near', [
      {
        type: 'AddKey',
        publicKey: ml.publicKey,
        accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
      },
    ]);
    t.same(added.body.result?.status, { SuccessValue: '' });
    t.equal(await storageUsage(), before + ML_DSA_65_FULL_ACCESS_KEY_STORAGE);

    // Listed under its handle; viewed by the full key, which the handle does not stand in for.
    const listed = (await keyList()).find((k) => k.public_key.startsWith('ml-dsa-65'));
    t.equal(listed?.public_key, handle);
    t.equal(listed?.access_key.permission, 'FullAccess');
    const viewed = await accessKey('test.near', mlText);
    t.equal(viewed.body.result?.permission, 'FullAccess');
    const byHandle = await accessKey('test.near', handle);
    t.match(byHandle.body.error?.data, /unknown key type 'ml-dsa-65-hash'/);
    const changes = await node.rpc<{ changes: { change: { public_key: string } }[] }>(
      'EXPERIMENTAL_changes',
      {
        changes_type: 'single_access_key_changes',
        keys: [{ account_id: 'test.near', public_key: mlText }],
        block_id: added.body.result!.transaction_outcome.block_hash,
      },
    );
    // The key was written in the block after the transaction's, where its receipt ran.
    const addBlock = await node.rpc<{ header: { height: number } }>('block', {
      block_id: added.body.result!.transaction_outcome.block_hash,
    });
    const next = await node.rpc<{ changes: { type: string; change: { public_key: string } }[] }>(
      'EXPERIMENTAL_changes',
      {
        changes_type: 'single_access_key_changes',
        keys: [{ account_id: 'test.near', public_key: mlText }],
        block_id: addBlock.body.result!.header.height + 1,
      },
    );
    const written = [...(changes.body.result?.changes ?? []), ...(next.body.result?.changes ?? [])];
    t.same(
      written.map((ch) => ch.change.public_key),
      [handle],
      'the change names the key by its handle',
    );

    // A transfer signed with it: what an ed25519 transfer burns, and the ML-DSA-65 check on top.
    const classic = await send('test.near', ed, 'bob.test.near', [{ type: 'Transfer', deposit: 1n }]);
    const signed = await send('test.near', ml, 'bob.test.near', [{ type: 'Transfer', deposit: 1n }]);
    t.same(signed.body.result?.status, { SuccessValue: '' });
    const classicGas = BigInt(classic.body.result!.transaction_outcome.outcome.gas_burnt);
    const pqOutcome = signed.body.result!.transaction_outcome.outcome;
    t.equal(classicGas, ACTION_RECEIPT_SEND_NOT_SIR + TRANSFER_SEND_NOT_SIR);
    t.equal(BigInt(pqOutcome.gas_burnt), classicGas + ML_DSA_65_VERIFICATION_COST);
    const gasPrice = BigInt(
      (
        await node.rpc<{ header: { gas_price: string } }>('block', {
          block_id: signed.body.result!.transaction_outcome.block_hash,
        })
      ).body.result!.header.gas_price,
    );
    t.equal(BigInt(pqOutcome.tokens_burnt), BigInt(pqOutcome.gas_burnt) * gasPrice);
    t.equal(signed.body.result?.transaction.public_key, mlText);
    t.match(signed.body.result?.transaction.signature, /^ml-dsa-65:[1-9A-HJ-NP-Za-km-z]{4000,}$/);
    const status = await node.rpc<Outcome>('tx', {
      tx_hash: signed.body.result!.transaction_outcome.id,
      sender_account_id: 'test.near',
    });
    t.equal(status.body.result?.transaction.public_key, mlText, 'tx status answers it too');

    // A changed signature is refused before admission, and the key's nonce stays.
    const nonceBefore = (await accessKey('test.near', mlText)).body.result!.nonce;
    const forged = await send('test.near', ml, 'bob.test.near', [{ type: 'Transfer', deposit: 1n }], true);
    t.same(forged.body.error?.cause, { name: 'INVALID_TRANSACTION', info: {} });
    t.same((forged.body.error?.data as { TxExecutionError?: unknown } | undefined)?.TxExecutionError, {
      InvalidTxError: 'InvalidSignature',
    });
    t.equal((await accessKey('test.near', mlText)).body.result!.nonce, nonceBefore);

    // An ML-DSA-65 key cannot stake (near-crypto's is_valid_staking_key).
    const stake = await send('test.near', ed, 'test.near', [
      { type: 'Stake', stake: NEAR, publicKey: ml.publicKey },
    ]);
    t.same((stake.body.error?.data as { TxExecutionError?: unknown } | undefined)?.TxExecutionError, {
      InvalidTxError: { ActionsValidation: { UnsuitableStakingKey: { public_key: mlText } } },
    });

    // A meta transaction whose inner signer is the ML-DSA-65 key: the relayer's conversion burns the
    // check on top of what an ed25519-signed one burns.
    const relayed = async (inner: Signer, innerKey: string, relayerId: string) => {
      const height = (await provider.viewBlock({ finality: 'final' })).header.height;
      const delegateAction: DelegateAction = {
        senderId: 'test.near',
        receiverId: 'bob.test.near',
        actions: [{ type: 'Transfer', deposit: 1n }],
        nonce: BigInt((await accessKey('test.near', innerKey)).body.result!.nonce) + 1n,
        maxBlockHeight: BigInt(height + 100),
        publicKey: inner.publicKey,
      };
      const signature = inner.sign(delegateActionHash(delegateAction));
      const bobKey = KeyPair.fromRandom('ed25519');
      await c.root.createAccount({
        newAccountId: relayerId,
        publicKey: bobKey.getPublicKey(),
        nearToTransfer: NEAR,
      });
      const relayer: Signer = {
        publicKey: parsePublicKey(bobKey.getPublicKey().toString()),
        sign: (m) => ({ keyType: KeyType.ED25519, data: bobKey.sign(m).signature }),
      };
      return send(relayerId, relayer, 'test.near', [{ type: 'Delegate', delegateAction, signature }]);
    };
    const edRelayed = await relayed(ed, key.public_key, 'relayer1.test.near');
    const pqRelayed = await relayed(ml, mlText, 'relayer2.test.near');
    t.same(pqRelayed.body.result?.status, { SuccessValue: '' });
    t.equal(
      BigInt(pqRelayed.body.result!.transaction_outcome.outcome.gas_burnt),
      BigInt(edRelayed.body.result!.transaction_outcome.outcome.gas_burnt) + ML_DSA_65_VERIFICATION_COST,
    );

    // Deleted by its full key: the storage it took is freed and the list no longer has it.
    const deleted = await send('test.near', ed, 'test.near', [
      { type: 'DeleteKey', publicKey: ml.publicKey },
    ]);
    t.same(deleted.body.result?.status, { SuccessValue: '' });
    t.equal(await storageUsage(), before);
    t.notOk((await keyList()).some((k) => k.public_key === handle));
    // nearcore answers an absent key of view_access_key as a result holding the error text.
    const gone = await node.rpc<{ error: string }>('query', {
      request_type: 'view_access_key',
      finality: 'optimistic',
      account_id: 'test.near',
      public_key: mlText,
    });
    t.equal(gone.body.result?.error, `access key ${mlText} does not exist while viewing`);
  },
);

t.test(
  "near-api-js's own ML-DSA-65 key pair is added, viewed, signs a transfer and a meta transaction, and deletes itself",
  async (t) => {
    const c = await localChain(t);
    const { provider, root } = c;
    const pq = KeyPair.fromRandom('ml-dsa-65');
    const mlText = pq.getPublicKey().toString();
    t.match(mlText, /^ml-dsa-65:/);
    const handle = `ml-dsa-65-hash:${base58Encode(
      createHash('sha3-256').update('near:ml-dsa-65-pubkey-hash:v1').update(pq.getPublicKey().data).digest(),
    )}`;
    const storageUsage = async () => (await provider.viewAccount({ accountId: 'test.near' })).storage_usage;
    const relayerKey = KeyPair.fromRandom('ed25519');
    await root.createAccount({
      newAccountId: 'relayer.test.near',
      publicKey: relayerKey.getPublicKey(),
      nearToTransfer: 5n * NEAR,
    });
    const relayer = new Account('relayer.test.near', provider, relayerKey.toString() as KeyPairString);

    const before = await storageUsage();
    const added = await root.addFullAccessKey(pq.getPublicKey());
    t.same(added.status, { SuccessValue: '' });
    t.equal(await storageUsage(), before + ML_DSA_65_FULL_ACCESS_KEY_STORAGE);
    // The client asks for the key by its full text; the list names it by its handle.
    t.equal((await root.getAccessKey(pq.getPublicKey())).permission, 'FullAccess');
    const listed = (await root.getAccessKeyList()).keys.map((k) => String(k.public_key));
    t.ok(listed.includes(handle), 'listed by its handle');

    // The account signs with the ML-DSA-65 key: the client reads its nonce, signs the hash, sends it.
    const pqAccount = new Account('test.near', provider, pq.toString() as KeyPairString);
    const sent = await pqAccount.transfer({ receiverId: 'relayer.test.near', amount: 1n });
    t.same(sent.status, { SuccessValue: '' });
    t.equal(sent.transaction.public_key, mlText);
    t.match(sent.transaction.signature, /^ml-dsa-65:/);
    t.equal(
      BigInt(sent.transaction_outcome.outcome.gas_burnt),
      ACTION_RECEIPT_SEND_NOT_SIR + TRANSFER_SEND_NOT_SIR + ML_DSA_65_VERIFICATION_COST,
    );

    // The same transfer as a meta transaction, signed once by the ed25519 key and once by the
    // ML-DSA-65 key and relayed by another account: the second burns the check on top.
    const relay = async (sender: Account) => {
      const { signedDelegate } = await sender.createSignedMetaTransaction({
        receiverId: 'relayer.test.near',
        actions: [actions.transfer(1n)],
      });
      return relayer.signAndSendTransaction({
        receiverId: 'test.near',
        actions: [actions.signedDelegate(signedDelegate)],
      });
    };
    const edRelayed = await relay(root);
    const pqRelayed = await relay(pqAccount);
    t.same(pqRelayed.status, { SuccessValue: '' });
    t.equal(
      BigInt(pqRelayed.transaction_outcome.outcome.gas_burnt),
      BigInt(edRelayed.transaction_outcome.outcome.gas_burnt) + ML_DSA_65_VERIFICATION_COST,
    );

    // The key deletes itself: its storage is freed and the node no longer knows it.
    const deleted = await pqAccount.deleteKey(pq.getPublicKey());
    t.same(deleted.status, { SuccessValue: '' });
    t.equal(await storageUsage(), before);
    const after = (await root.getAccessKeyList()).keys.map((k) => String(k.public_key));
    t.notOk(after.includes(handle));
    // The client reads the key before it signs, and the node no longer has it.
    const refused = await pqAccount.transfer({ receiverId: 'relayer.test.near', amount: 1n }).catch((e) => e);
    t.equal((refused as Error).name, 'AccessKeyNotFoundActionError');
  },
);
