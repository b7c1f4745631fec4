// Start-up work deferred past the node's first answer: it runs once, after the first answered
// request's turn of the event loop, or after the fallback delay when no request comes; never after
// the node began to stop.
import t from 'tap';
import { WarmUp } from '../dist/warm_up.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves once `check` holds, polling each turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

t.test('the first answer runs the work after its own turn, once', async (t) => {
  let runs = 0;
  const w = new WarmUp(() => runs++, 60_000);
  t.equal(runs, 0, 'not at construction');
  w.answered();
  t.equal(runs, 0, 'not inside the answering turn (its reply is still being written)');
  await nextTurn();
  t.equal(runs, 1, 'right after it');
  w.answered();
  w.answered();
  await nextTurn();
  t.equal(runs, 1, 'later answers do not run it again');
});

t.test('with no request, the fallback delay runs it, once', async (t) => {
  let runs = 0;
  const w = new WarmUp(() => runs++, 10);
  await until(() => runs > 0);
  w.answered();
  await nextTurn();
  t.equal(runs, 1, 'an answer after the fallback does not run it again');
});

t.test('a node that stops first never runs it', async (t) => {
  let runs = 0;
  const early = new WarmUp(() => runs++, 10);
  early.cancel();
  early.answered();
  const late = new WarmUp(() => runs++, 10);
  late.answered();
  late.cancel(); // stopping between the answer and its next turn
  await new Promise((r) => setTimeout(r, 50));
  t.equal(runs, 0, 'neither the fallback nor a scheduled run');
});

t.test('the fallback timer does not keep the process alive', async (t) => {
  const w = new WarmUp(() => undefined, 60_000);
  const timer = (w as unknown as { timer: NodeJS.Timeout }).timer;
  t.equal(timer.hasRef(), false);
  w.cancel();
});
