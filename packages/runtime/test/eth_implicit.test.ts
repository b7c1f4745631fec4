// ETH-implicit accounts ('0x' + 40 hex) at protocol 86, where eth_implicit_accounts is on (70.yaml):
// a receipt whose only action is a Transfer creates the account (runtime/runtime/src/actions.rs
// check_transfer_to_nonexisting_account, action_implicit_account_creation_transfer): the deposit,
// no key, the chain's ETH wallet as a global contract by hash, and storage num_bytes_account + 32.
// The hashes are near-wallet-contract's eth_wallet_global_contract_hash: mainnet and testnet from
// its test_eth_wallet_global_contract_hash_values, any other chain the hash of the embedded
// res/wallet_contract_localnet.wasm. Any other action alongside leaves AccountDoesNotExist.
import { type Account, accountContract, base58Encode } from '@nearlite/primitives';
import { Runtime } from '@nearlite/runtime';
import t from 'tap';
import { config, keyFromSeed, NEAR, signTx, TestChain } from './helpers.js';
import { SNAPSHOT } from './snapshot.js';

const alice = keyFromSeed(1);
const ETH = `0x${'ab'.repeat(20)}`;
const NUM_BYTES_ACCOUNT = BigInt(
  (SNAPSHOT.transaction_costs as unknown as { storage_usage_config: { num_bytes_account: number } })
    .storage_usage_config.num_bytes_account,
);

function chain(chainId = 'test'): TestChain {
  const c = new TestChain(new Runtime({ config, chainId, validators: new Map() }));
  c.addAccount('alice.near', 1000n * NEAR, alice);
  return c;
}

function wallet(a: Account | null): string | null {
  if (!a) return null;
  const contract = accountContract(a);
  return contract.kind === 'Global' ? base58Encode(contract.hash) : contract.kind;
}

t.test('a lone transfer creates an ETH-implicit account running the wallet global contract', async (t) => {
  const c = chain();
  const tx = signTx(alice, 'alice.near', ETH, 1n, [{ type: 'Transfer', deposit: NEAR }]);
  c.block([tx.bytes]);
  const [receipt] = c.settle();
  t.same(receipt?.status, { kind: 'SuccessValue', value: new Uint8Array(0) });
  const a = c.account(ETH);
  t.equal(a?.amount, NEAR);
  t.equal(a?.locked, 0n);
  t.equal(a?.storageUsage, NUM_BYTES_ACCOUNT + 32n);
  t.equal(wallet(a), 'FAq9tQRbwJPTV3PQLn2F7AUD3FW2Fw1V8ZeZuazfeu1v', "the localnet wallet's hash");
  t.equal(c.accessKey(ETH, alice.publicKey), null);
});

t.test('mainnet and testnet accounts run their own deployed wallets', async (t) => {
  for (const [chainId, hash] of [
    ['mainnet', '2zodJZK2e4nnv5AqwCRnenNSmkikXhEd7PPY6BmfTmW4'],
    ['mocknet', '2zodJZK2e4nnv5AqwCRnenNSmkikXhEd7PPY6BmfTmW4'],
    ['testnet', '3PpYvRxBfC5BkZxTw8ZFG3D52w1ZRhvDDWirKoxphMDn'],
  ] as const) {
    const c = chain(chainId);
    c.block([signTx(alice, 'alice.near', ETH, 1n, [{ type: 'Transfer', deposit: 0n }]).bytes]);
    c.settle();
    // nearcore's test_eth_implicit_account_creation: a zero transfer creates a zero-balance account.
    t.equal(c.account(ETH)?.amount, 0n, chainId);
    t.equal(wallet(c.account(ETH)), hash, chainId);
  }
});

t.test('a transfer with another action does not create it', async (t) => {
  const c = chain();
  const other = keyFromSeed(7);
  const tx = signTx(alice, 'alice.near', ETH, 1n, [
    { type: 'Transfer', deposit: NEAR },
    {
      type: 'AddKey',
      publicKey: other.publicKey,
      accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
    },
  ]);
  c.block([tx.bytes]);
  const [receipt] = c.settle();
  t.same(receipt?.status, {
    kind: 'Failure',
    error: { ActionError: { index: 0, kind: { AccountDoesNotExist: { account_id: ETH } } } },
  });
  t.equal(c.account(ETH), null);
});
