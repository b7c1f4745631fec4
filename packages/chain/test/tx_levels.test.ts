// Which execution statuses satisfy a `wait_until`: a status satisfies every level it implies.

import { levelImplies, txWaitTimeout } from '@nearlite/chain';
import { TX_EXECUTION_STATUSES, type TxExecutionStatus } from '@nearlite/primitives';
import t from 'tap';

const LEVELS = TX_EXECUTION_STATUSES;

t.test('the statuses each wait_until accepts, as nearcore documents them', async (t) => {
  const accepts: Record<TxExecutionStatus, readonly TxExecutionStatus[]> = {
    NONE: LEVELS,
    INCLUDED: ['INCLUDED', 'EXECUTED_OPTIMISTIC', 'INCLUDED_FINAL', 'EXECUTED', 'FINAL'],
    EXECUTED_OPTIMISTIC: ['EXECUTED_OPTIMISTIC', 'EXECUTED', 'FINAL'],
    INCLUDED_FINAL: ['INCLUDED_FINAL', 'EXECUTED', 'FINAL'],
    EXECUTED: ['EXECUTED', 'FINAL'],
    FINAL: ['FINAL'],
  };
  for (const wanted of LEVELS)
    t.same(
      LEVELS.filter((level) => levelImplies(level, wanted)),
      accepts[wanted],
      `wait_until ${wanted}`,
    );
});

t.test('a wait that runs out is TIMEOUT_ERROR with nearcore’s text', async (t) => {
  const e = txWaitTimeout();
  t.equal(e.cause, 'TIMEOUT_ERROR');
  t.equal(e.data, 'Timeout');
});
