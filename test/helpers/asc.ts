import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import asc from 'assemblyscript/asc';

/** Compiles one of test/contracts/*.ts with AssemblyScript 0.28 (MVP features, stub runtime). */
export async function compileContract(name: string): Promise<Uint8Array> {
  const source = readFileSync(join(import.meta.dirname, '..', 'contracts', `${name}.ts`), 'utf8');
  const result = await asc.compileString({ [`assembly/${name}.ts`]: source }, {
    optimizeLevel: 3,
    runtime: 'stub',
    noAssert: true,
    use: ['abort='],
    disable: ['bulk-memory', 'nontrapping-f2i'],
  } as never);
  if (!result.binary) throw new Error(`asc ${name}: ${result.stderr.toString()}`);
  return result.binary;
}
