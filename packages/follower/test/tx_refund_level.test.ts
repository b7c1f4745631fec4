// A follower's transaction levels, when a receipt's last new receipt has not run yet: nearcore's
// get_tx_execution_status skips it only when it is a refund (its predecessor is `system`). The stream
// publishes a receipt with the shard's next chunk, so one the history does not hold yet is taken for
// the refund it nearly always is.
import { type HistoryReader, txStatusView } from '@nearlite/follower';
import { base58Decode, base58Encode } from '@nearlite/primitives';
import t from 'tap';

const id = (n: number) => base58Encode(new Uint8Array(32).fill(n));
const TX = id(1);
const FIRST = id(2);
const CALL = id(3);
const REFUND = id(4);

interface Setup {
  /** The new receipts of the transaction's receipt, in order. */
  readonly made: readonly string[];
  /** The receipts the history holds, by their predecessor. */
  readonly known: ReadonlyMap<string, string>;
  readonly ran?: readonly string[];
}

function historyOf(s: Setup): HistoryReader {
  const outcome = (of: string, made: readonly string[]) =>
    JSON.stringify({ id: of, outcome: { receipt_ids: made, status: { SuccessValue: '' } } });
  const outcomes = new Map([
    [TX, outcome(TX, [FIRST])],
    [FIRST, outcome(FIRST, s.made)],
    ...(s.ran ?? []).map((r) => [r, outcome(r, [])] as const),
  ]);
  const receipt = (r: string) =>
    s.known.has(r)
      ? JSON.stringify({ predecessor_id: s.known.get(r), receiver_id: 'a.near', receipt_id: r })
      : undefined;
  return {
    transaction: async () => JSON.stringify({ signer_id: 'a.near', receiver_id: 'b.near', hash: TX }),
    outcome: async (h: Uint8Array) => outcomes.get(base58Encode(h)),
    receipt: async (h: Uint8Array) => receipt(base58Encode(h)),
  } as unknown as HistoryReader;
}

const level = async (s: Setup) => (await txStatusView(historyOf(s), base58Decode(TX), false))!.level;

t.test('a last receipt the contract made is waited for', async (t) => {
  t.equal(await level({ made: [CALL], known: new Map([[CALL, 'b.near']]) }), 'INCLUDED_FINAL');
  t.equal(await level({ made: [CALL], known: new Map([[CALL, 'b.near']]), ran: [CALL] }), 'FINAL');
});

t.test('a last receipt that is a refund, or not published yet, is not waited for', async (t) => {
  t.equal(
    await level({ made: [CALL, REFUND], known: new Map([[REFUND, 'system']]), ran: [CALL] }),
    'EXECUTED',
  );
  t.equal(
    await level({ made: [CALL, REFUND], known: new Map(), ran: [CALL] }),
    'EXECUTED',
    'not yet published',
  );
  t.equal(
    await level({ made: [REFUND, CALL], known: new Map([[REFUND, 'system']]), ran: [CALL] }),
    'INCLUDED_FINAL',
    'a refund that is not the last is waited for',
  );
});
