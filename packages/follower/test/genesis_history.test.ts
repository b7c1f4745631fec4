// A follower's genesis state: a dumped state's receipts in flight are left out (no read method looks
// at them; the stream's state changes carry what becomes of them), the rest written as nearcore's
// applier writes it.
import { parseGenesis } from '@nearlite/chain';
import { type GenesisStateRow, type HistoryWriter, loadGenesisHistory } from '@nearlite/follower';
import { base58Encode } from '@nearlite/primitives';
import t from 'tap';
import { fixedLocalnetGenesis } from '../../../test/helpers/localnet_genesis.js';

/** Keeps what `writeGenesis` is given; the follower's stores are tested against real databases elsewhere. */
function capture(): { writer: HistoryWriter; rows: GenesisStateRow[][] } {
  const rows: GenesisStateRow[][] = [];
  let height: number | null = null;
  const writer = {
    cursor: () => null,
    genesisHeight: () => height,
    writeGenesis: async (h: number, r: readonly GenesisStateRow[]) => {
      height = h;
      rows.push([...r]);
    },
  } as unknown as HistoryWriter;
  return { writer, rows };
}

const USAGE = { numBytesAccount: 100n, numExtraBytesRecord: 40n };
const id = (fill: number) => base58Encode(new Uint8Array(32).fill(fill));

t.test('receipt records are left out of a follower’s genesis state', async (t) => {
  const raw = fixedLocalnetGenesis('test-chain-follow');
  const receipt = {
    predecessor_id: 'test.near',
    receiver_id: 'near',
    receipt_id: id(1),
    receipt: { Data: { data_id: id(2), data: null } },
  };
  const withReceipts = {
    ...raw,
    records: [
      ...(raw.records as unknown[]),
      { DelayedReceipt: receipt },
      { ReceivedData: { account_id: 'near', data_id: id(3), data: null } },
    ],
  };
  const plain = capture();
  await loadGenesisHistory(plain.writer, parseGenesis(raw), USAGE);
  const dumped = capture();
  await loadGenesisHistory(dumped.writer, parseGenesis(withReceipts), USAGE);
  t.equal(plain.rows.length, 1);
  t.ok(plain.rows[0]!.length > 0);
  t.same(dumped.rows, plain.rows, 'the same rows, the receipts’ left out');
});
