// Money conservation: random transfers, account creations and deletions, key changes and failures run
// through applyChunk block after block (outgoing receipts fed back, some delayed by a small gas
// limit); after every block, balances + burnt + value carried by receipts in flight = the start.
import type { Action } from '@nearlite/primitives';
import t from 'tap';
import { type Key, keyFromSeed, NEAR, signTx, TestChain } from './helpers.js';
import { inFlight, rng } from './in_flight.js';

t.test('sum(balances + locked) + burnt + in flight is constant every block', async (t) => {
  const random = rng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const c = new TestChain();
  c.gasLimit = 2_000_000_000_000n; // small enough that busy blocks delay receipts
  const keys = new Map<string, Key>();
  const nonces = new Map<string, bigint>();
  for (let i = 0; i < 5; i++) {
    const key = keyFromSeed(10 + i);
    keys.set(`u${i}.near`, key);
    c.addAccount(`u${i}.near`, 50n * NEAR, key);
  }
  const initial = c.totalBalance();
  let seed = 100;
  let sawDelayed = false;
  let sawFailure = false;
  let created = 0;
  let deleted = 0;
  let existing = new Set([...keys.keys()]);

  for (let block = 0; block < 30; block++) {
    const txs: Uint8Array[] = [];
    const live = [...keys.keys()].filter((id) => c.account(id) && c.accessKey(id, keys.get(id)!.publicKey));
    for (let n = 0; n < 4 && live.length > 0; n++) {
      const signer = pick(live);
      const key = keys.get(signer)!;
      const nonce = (nonces.get(signer) ?? c.accessKey(signer, key.publicKey)!.nonce) + 1n;
      nonces.set(signer, nonce);
      const amount = BigInt(Math.floor(random() * 3 * 1e6)) * 10n ** 18n;
      const roll = random();
      let receiver = pick([...keys.keys(), 'ghost.near']);
      let actions: Action[];
      if (roll < 0.4) actions = [{ type: 'Transfer', deposit: amount }];
      else if (roll < 0.6) {
        const newKey = keyFromSeed(seed++ % 250);
        receiver = `s${seed}.${signer}`;
        keys.set(receiver, newKey);
        actions = [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit: amount },
          {
            type: 'AddKey',
            publicKey: newKey.publicKey,
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
        ];
      } else if (roll < 0.75) {
        receiver = signer;
        actions = [{ type: 'DeleteAccount', beneficiaryId: pick([...keys.keys(), 'ghost.near']) }];
      } else if (roll < 0.9) {
        receiver = signer;
        const extra = keyFromSeed(200 + Math.floor(random() * 5));
        actions = [
          random() < 0.5
            ? {
                type: 'AddKey',
                publicKey: extra.publicKey,
                accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
              }
            : { type: 'DeleteKey', publicKey: extra.publicKey },
          { type: 'Transfer', deposit: amount },
        ];
      } else {
        actions = [
          {
            type: 'FunctionCall',
            methodName: 'go',
            args: new Uint8Array(3),
            gas: 10n ** 13n,
            deposit: amount,
          },
        ];
      }
      txs.push(signTx(key, signer, receiver, nonce, actions).bytes);
    }
    const { res, outcomes } = c.block(txs);
    for (const [k] of nonces) if (!c.account(k)) nonces.delete(k);
    sawDelayed ||= res.delayedReceipts > 0;
    sawFailure ||= outcomes.some((o) => o.status.kind === 'Failure');
    const now = new Set([...keys.keys()].filter((id) => c.account(id)));
    for (const id of now) if (!existing.has(id)) created++;
    for (const id of existing) if (!now.has(id)) deleted++;
    existing = now;
    const total = c.totalBalance() + c.burnt + inFlight(c).value;
    if (total !== initial) {
      t.fail(`block ${block}: ${total} !== ${initial} (diff ${total - initial})`);
      return;
    }
  }
  c.settle(40);
  t.equal(c.pending.length, 0, 'everything settled');
  t.equal(c.totalBalance() + c.burnt, initial, 'settled balances + burnt = the start');
  t.ok(c.burnt > 0n, 'fees were burnt');
  t.ok(sawDelayed, 'the workload exercised the delayed queue');
  t.ok(sawFailure, 'the workload exercised failures and refunds');
  t.ok(created > 0 && deleted > 0, `accounts were created (${created}) and deleted (${deleted})`);
});
