// Drives near-kit (installed from npm) against nearlite's near-sandbox launcher, as an application's
// tests would: its Sandbox starts the node through NEAR_SANDBOX_BIN_PATH, its client signs with
// ed25519, ML-DSA-65 and gas keys (and in strict nonce mode) and relays meta transactions of both
// versions, and the sandbox is patched, fast-forwarded,
// dumped, restarted from its dump and from its genesis, and stopped. Prints what it saw as JSON.
// Run: node driver.mjs <dir holding node_modules/near-kit> <contract.wasm>
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [installDir, wasmPath] = process.argv.slice(2);
const dist = join(installDir, 'node_modules', 'near-kit', 'dist');
const { Near, generateKey, MlDsa65KeyPair } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { Sandbox } = await import(pathToFileURL(join(dist, 'sandbox', 'index.js')).href);

const out = {};
const sandbox = await Sandbox.start();
try {
  const near = new Near({ network: sandbox });
  const root = sandbox.rootAccount.id;
  out.root = root;
  out.home = sandbox.homeDir;
  out.chainId = (await near.getStatus()).chain_id;
  const rpc = async (method, params) => {
    const res = await fetch(sandbox.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'k', method, params }),
    });
    return (await res.json()).result;
  };
  const height = async () => (await near.getStatus()).sync_info.latest_block_height;

  // An account with a key of its own, a contract called and viewed.
  const aliceKey = generateKey();
  const created = await near
    .transaction(root)
    .createAccount('alice.test.near')
    .transfer('alice.test.near', '10 NEAR')
    .addKey(aliceKey.publicKey.toString(), { type: 'fullAccess' })
    .send();
  out.created = created.status;
  out.aliceAmount = (
    await rpc('query', {
      request_type: 'view_account',
      account_id: 'alice.test.near',
      finality: 'optimistic',
    })
  ).amount;
  await near
    .transaction(root)
    .createAccount('hello.test.near')
    .transfer('hello.test.near', '10 NEAR')
    .deployContract('hello.test.near', new Uint8Array(readFileSync(wasmPath)))
    .send();
  // At INCLUDED nearcore answers once a chunk holds the transaction, before its block runs it:
  // `{"final_execution_status":"INCLUDED"}`, to which near-kit adds the transaction it sent.
  const included = await near
    .transaction(root)
    .transfer('alice.test.near', '1 NEAR')
    .send({ waitUntil: 'INCLUDED' });
  out.included = {
    status: included.final_execution_status,
    hash: included.transaction?.hash ?? null,
    outcome: 'transaction_outcome' in included,
  };
  out.called = (await near.call('hello.test.near', 'setValue', { value: 'hi' }, { signerId: root })).status;
  out.value = await near.view('hello.test.near', 'getValue', {}, { finality: 'optimistic' });
  out.state = (await near.viewState('hello.test.near', { finality: 'optimistic' })).values;

  // ML-DSA-65: added by the ed25519 key, then signing a transfer of its own.
  const pq = MlDsa65KeyPair.fromRandom();
  await near
    .transaction('alice.test.near')
    .signWith(aliceKey.secretKey)
    .addKey(pq.publicKey.toString(), { type: 'fullAccess' })
    .send();
  const pqSent = await near
    .transaction('alice.test.near')
    .signWith(pq.secretKey)
    .transfer(root, '1 NEAR')
    .send();
  out.pq = {
    status: pqSent.status,
    publicKey: pqSent.transaction.public_key,
    gasBurnt: String(pqSent.transaction_outcome.outcome.gas_burnt),
    listed: (await near.getAccessKeys('alice.test.near', { finality: 'optimistic' })).keys.map(
      (k) => k.public_key,
    ),
  };

  // Strict nonce mode (TransactionV1): the nonce is exactly the key's next one.
  const keyNonce = (
    await near.getAccessKey('alice.test.near', aliceKey.publicKey.toString(), { finality: 'optimistic' })
  ).nonce;
  const strict = await near
    .transaction('alice.test.near')
    .signWith(aliceKey.secretKey)
    .strictNonceMode()
    .transfer(root, '1 yocto')
    .send();
  out.strict = {
    status: strict.status,
    keyNonce,
    nonce: strict.transaction.nonce,
    mode: strict.transaction.nonce_mode,
  };

  // A gas key: added, funded, and paying for a transfer signed with its nonce index 1.
  const gasKey = generateKey();
  const gasKeyText = gasKey.publicKey.toString();
  await near
    .transaction('alice.test.near')
    .signWith(aliceKey.secretKey)
    .addKey(gasKeyText, { type: 'gasKeyFullAccess', numNonces: 3 })
    .send();
  await near
    .transaction('alice.test.near')
    .signWith(aliceKey.secretKey)
    .transferToGasKey(gasKeyText, '2 NEAR')
    .send();
  const viaGasKey = await near
    .transaction('alice.test.near')
    .signWith(gasKey.secretKey)
    .useGasKey(1)
    .transfer(root, '1 yocto')
    .send();
  const full = await near.getTransactionStatus(viaGasKey.transaction.hash, 'alice.test.near', 'FINAL');
  const burnt =
    BigInt(full.transaction_outcome.outcome.tokens_burnt) +
    full.receipts_outcome.reduce((s, r) => s + BigInt(r.outcome.tokens_burnt), 0n);
  const gasKeyBalance = async () =>
    (await near.getAccessKey('alice.test.near', gasKeyText, { finality: 'optimistic' })).permission
      .GasKeyFullAccess.balance;
  // The refund for the gas priced ahead reaches the key a block or two after FINAL.
  let balance = await gasKeyBalance();
  for (let i = 0; i < 50 && BigInt(balance) !== 2n * 10n ** 24n - burnt; i++) {
    await new Promise((r) => setTimeout(r, 100));
    balance = await gasKeyBalance();
  }
  out.gasKey = {
    status: viaGasKey.status,
    final: full.final_execution_status,
    nonceIndex: (
      await rpc('tx', {
        tx_hash: viaGasKey.transaction.hash,
        sender_account_id: 'alice.test.near',
        wait_until: 'NONE',
      })
    ).transaction.nonce_index,
    balance: String(balance),
    burnt: String(burnt),
  };

  // Reads through near-kit's own RPC client, each answer parsed by its zod schemas, and the errors
  // it maps from nearcore's shapes to its classes.
  const client = near.rpc;
  const failure = (p) =>
    p.then(
      () => null,
      (e) => e.constructor.name,
    );
  out.reads = {
    gasKeyNonces: (await client.getGasKeyNonces('alice.test.near', gasKeyText, { finality: 'optimistic' }))
      .nonces,
    receiptToTx: await client.receiptToTx(full.receipts_outcome[0].id),
    txHash: viaGasKey.transaction.hash,
    block: (await client.getBlock({ blockId: 1 })).header.height,
    gasPrice: (await client.getGasPrice()).gas_price,
    blockEffects: Array.isArray((await client.blockEffects({ finality: 'final' })).changes),
    genesisChainId: (await client.genesisConfig()).chain_id,
    maintenanceWindows: await client.maintenanceWindows(root),
    missingAccount: await failure(near.getAccount('nobody.test.near')),
    missingKey: await near.getAccessKey(root, generateKey().publicKey.toString()),
    noCode: await failure(near.view(root, 'anything', {})),
    tooPoor: await failure(near.transaction(root).transfer('alice.test.near', '100000000000 NEAR').send()),
  };

  // Meta transactions relayed by another account: a Delegate, a DelegateV2, and a DelegateV2 whose
  // nonce is the gas key's index 2.
  const relayerKey = generateKey();
  await near
    .transaction(root)
    .createAccount('relayer.test.near')
    .transfer('relayer.test.near', '10 NEAR')
    .addKey(relayerKey.publicKey.toString(), { type: 'fullAccess' })
    .send();
  const relay = async (signed, v2) => {
    const tx = near.transaction('relayer.test.near').signWith(relayerKey.secretKey);
    const o = await (v2 ? tx.signedDelegateActionV2(signed) : tx.signedDelegateAction(signed)).send();
    return {
      status: o.status,
      gasBurnt: String(o.transaction_outcome.outcome.gas_burnt),
      action: Object.keys(o.transaction.actions[0])[0],
      inner: o.receipts_outcome.map((r) => r.outcome.status),
    };
  };
  const inner = () =>
    near.transaction('alice.test.near').signWith(aliceKey.secretKey).transfer(root, '1 yocto');
  out.relayed = [
    await relay((await inner().delegate()).signedDelegateAction, false),
    await relay((await inner().delegateV2()).signedDelegateAction, true),
    await relay(
      (
        await near
          .transaction('alice.test.near')
          .signWith(gasKey.secretKey)
          .transfer(root, '1 yocto')
          .delegateV2({ nonceIndex: 2 })
      ).signedDelegateAction,
      true,
    ),
  ];

  // The sandbox's own methods.
  await sandbox.patchState([
    {
      Account: {
        account_id: 'bob.test.near',
        account: {
          amount: (10n ** 24n).toString(),
          locked: '0',
          code_hash: '11111111111111111111111111111111',
          storage_usage: 182,
        },
      },
    },
  ]);
  out.bob =
    (await rpc('query', {
      request_type: 'view_account',
      account_id: 'bob.test.near',
      finality: 'optimistic',
    })) ?? null;
  const before = await height();
  await sandbox.fastForward(50);
  out.fastForward = [before, await height()];

  // Dumped from the running node, restarted on a genesis holding the dump, then on the first genesis.
  const snapshot = await sandbox.dumpState();
  out.dumped = snapshot.records.map((r) => {
    const [kind, body] = Object.entries(r)[0];
    return `${kind} ${body.account_id}${kind === 'Data' ? ` ${Buffer.from(body.data_key, 'base64')}` : ''}`;
  });
  const heightBeforeRestart = await height();
  await sandbox.restart(snapshot);
  out.restarted = {
    height: await height(),
    heightBefore: heightBeforeRestart,
    value: await near.view('hello.test.near', 'getValue', {}, { finality: 'optimistic' }),
    bob: await rpc('query', {
      request_type: 'view_account',
      account_id: 'bob.test.near',
      finality: 'optimistic',
    }),
    aliceAmount: (
      await rpc('query', {
        request_type: 'view_account',
        account_id: 'alice.test.near',
        finality: 'optimistic',
      })
    ).amount,
    sent: (await near.transaction(root).transfer('alice.test.near', '1 NEAR').send()).status,
  };
  await sandbox.restart();
  out.reset = {
    hello: await near.accountExists('hello.test.near', { finality: 'optimistic' }),
    alice: await near.accountExists('alice.test.near', { finality: 'optimistic' }),
    sent: (
      await near
        .transaction(root)
        .createAccount('carol.test.near')
        .transfer('carol.test.near', '1 NEAR')
        .send()
    ).status,
  };
} finally {
  await sandbox.stop();
}
out.homeRemoved = !existsSync(out.home);
process.stdout.write(`${JSON.stringify(out)}\n`);
