// NEP-616 account ids, checked against an account that exists on mainnet: the ed25519 wallet of
// near/intents at 0scdb6cfeed476fc878af9d3246768cbe803714c87, whose code is the global contract
// deployed by 0sb0d7ef4f935c6ef78e08ad03569767aaec4223a3 and whose one data entry (the empty key)
// is the wallet's initial state (the known-answer vector nearcore keeps for it).
import { deriveDeterministicAccountId, type StateInit, stateInitDataBytes } from '@nearlite/primitives';
import t from 'tap';

const WALLET_STATE = Buffer.from(
  [
    '01',
    '00000000',
    '8565df94b8caab08f28cdd2ee014b800915741d4694fa840e50cca02ae5c6466',
    '100e0000',
    '0000000000000000',
    '00000000',
    '00000000',
    '00000000',
  ].join(''),
  'hex',
);

const wallet: StateInit = {
  code: { kind: 'AccountId', accountId: '0sb0d7ef4f935c6ef78e08ad03569767aaec4223a3' },
  data: [[new Uint8Array(0), new Uint8Array(WALLET_STATE)]],
};

t.test('the id derived from a StateInit is the one the mainnet account has', async (t) => {
  t.equal(WALLET_STATE.length, 61);
  t.equal(deriveDeterministicAccountId(wallet), '0scdb6cfeed476fc878af9d3246768cbe803714c87');
});

t.test('any change to the code or the data gives another id', async (t) => {
  const ids = new Set([
    deriveDeterministicAccountId(wallet),
    deriveDeterministicAccountId({ ...wallet, data: [] }),
    deriveDeterministicAccountId({ ...wallet, code: { kind: 'AccountId', accountId: 'wallet.near' } }),
    deriveDeterministicAccountId({ ...wallet, code: { kind: 'CodeHash', hash: new Uint8Array(32) } }),
    deriveDeterministicAccountId({ ...wallet, data: [[Uint8Array.of(0), new Uint8Array(WALLET_STATE)]] }),
  ]);
  t.equal(ids.size, 5);
  for (const id of ids) t.match(id, /^0s[0-9a-f]{40}$/);
});

t.test('the bytes a StateInit is charged for are its keys and values', async (t) => {
  t.equal(stateInitDataBytes(wallet), 61n);
  t.equal(
    stateInitDataBytes({ ...wallet, data: [[Uint8Array.of(1, 2, 3), new Uint8Array(100_000)]] }),
    100_003n,
  );
  t.equal(stateInitDataBytes({ ...wallet, data: [] }), 0n);
});
