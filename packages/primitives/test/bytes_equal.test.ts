import { bytesEqual, bytesEqualAt } from '@nearlite/primitives';
import t from 'tap';

t.test('bytesEqualAt compares in place, inside the bounds of the longer array', async (t) => {
  const row = Uint8Array.of(9, 1, 2, 3, 9);
  t.ok(bytesEqualAt(Uint8Array.of(1, 2, 3), row, 1));
  t.notOk(bytesEqualAt(Uint8Array.of(1, 2, 3), row, 0));
  t.notOk(bytesEqualAt(Uint8Array.of(3, 9, 0), row, 3), 'past the end is not a match');
  t.notOk(bytesEqualAt(Uint8Array.of(9), row, -1));
  t.ok(bytesEqualAt(new Uint8Array(0), row, 5), 'nothing matches at the end');
});

t.test('bytesEqual needs the same length', async (t) => {
  t.ok(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2)));
  t.notOk(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 3)));
  t.notOk(bytesEqual(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2)));
});
