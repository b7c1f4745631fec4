// runFunction: one contract call from code to VMOutcome, following nearcore's near_vm_runner order
// (empty method name, load + loading fee, method resolution, instantiate, start, method).
import { ContractCache } from './cache.js';
import { getOrCompile } from './compile.js';
import type { VMConfig } from './config.js';
import type { VMContext, VMOutcome } from './context.js';
import type { FunctionCallError, WasmTrap } from './errors.js';
import { HostError, VMRunnerError } from './errors.js';
import type { External } from './external.js';
import type { RuntimeFeesConfig } from './fees.js';
import { buildImports, type GasSync, offeredImportTable, withHostBinding } from './imports.js';
import { resetPoint, returnInstance, takeInstance } from './instance_pool.js';
import { cachedLinkError } from './link.js';
import { VMLogic } from './logic.js';
import { releaseMemory, takeMemory, zeroWrites } from './memory_pool.js';
import { NULL_CALL_STACK } from './prepare/instrument.js';
import { PAGE } from './prepare/memory_guard.js';
import {
  GAS_EXPORT,
  LOW_EXPORT,
  MIN_EXPORT,
  PAGES_EXPORT,
  STACK_EXPORT,
  START_EXPORT,
} from './prepare/prepare.js';
import { ProfileDataV3 } from './profile.js';
import { Memory } from './vmstate.js';

export interface RunFunctionArgs {
  /** The contract code, or a loader so cache hits never read it; null when the account has none. */
  readonly code: Uint8Array | null | (() => Uint8Array | null);
  readonly codeHash: Uint8Array;
  readonly methodName: string;
  readonly context: VMContext;
  readonly config: VMConfig;
  readonly fees: RuntimeFeesConfig;
  readonly external: External;
  readonly cache?: ContractCache;
}

const defaultCache = new ContractCache();

function nopOutcome(aborted: FunctionCallError): VMOutcome {
  return {
    balance: 0n,
    storage_usage: 0n,
    return_data: { kind: 'None' },
    burnt_gas: 0n,
    used_gas: 0n,
    compute_usage: 0n,
    subsidized_amount: 0n,
    logs: [],
    aborted,
    profile: new ProfileDataV3(),
  };
}

class WasmGas implements GasSync {
  global: WebAssembly.Global | null = null;
  private armed = 0n;
  constructor(private readonly logic: VMLogic) {}

  flush(): void {
    if (this.global === null) return;
    const left = this.global.value as bigint;
    const spent = this.armed - left;
    this.armed = left;
    if (spent !== 0n) this.logic.gas.burnGas(spent);
  }

  rearm(): void {
    if (this.global === null) return;
    const rem = this.logic.gas.remainingGas();
    this.armed = rem > 0n ? rem : 0n;
    this.global.value = this.armed;
  }
}

/** V8 reports traps only as messages; this is the one place that reads them. */
function trapKind(message: string): WasmTrap {
  if (message.includes('unreachable')) return 'Unreachable';
  if (message.includes('memory access out of bounds')) return 'MemoryOutOfBounds';
  if (/divide by zero|remainder by zero|integer overflow|unrepresentable/.test(message))
    return 'IllegalArithmetic';
  // Wasmtime's TableOutOfBounds (call_indirect or table.get past the table, an element segment that
  // does not fit, table.init past its segment) is MemoryOutOfBounds to nearcore, as is a data segment
  // that does not fit.
  if (
    /table index is out of bounds|data segment is out of bounds|element segment out of bounds/.test(message)
  )
    return 'MemoryOutOfBounds';
  if (message.includes('signature mismatch')) return 'IncorrectCallIndirectSignature';
  return 'GenericTrap';
}

function classify(e: unknown, gas: WasmGas, stack: WebAssembly.Global | null): FunctionCallError {
  if (e instanceof HostError) return { HostError: e.value };
  if (e instanceof VMRunnerError) throw e;
  if (e instanceof WebAssembly.RuntimeError) {
    try {
      gas.flush();
    } catch (h) {
      if (h instanceof HostError) return { HostError: h.value };
      throw h;
    }
    if (stack !== null && (stack.value as number) === NULL_CALL_STACK)
      return { WasmTrap: 'IndirectCallToNull' };
    // nearcore's instrumentation calls finite_wasm_stack_exhausted, which fails with
    // MemoryAccessViolation; Wasmtime's own stack (1 GiB) never overflows first.
    if (stack !== null && (stack.value as number) < 0) return { HostError: 'MemoryAccessViolation' };
    return { WasmTrap: trapKind(e.message) };
  }
  if (e instanceof RangeError && e.message.includes('call stack'))
    return { HostError: 'MemoryAccessViolation' };
  throw new VMRunnerError('ExternalError', `contract execution failed outside the VM: ${String(e)}`, {
    cause: e,
  });
}

export function runFunction(args: RunFunctionArgs): VMOutcome {
  const { config, context, methodName } = args;
  const logic = new VMLogic(args.external, context, config, args.fees);
  if (methodName === '') return logic.outcome({ MethodResolveError: 'MethodEmptyName' });
  const code = args.code;
  const loader = typeof code === 'function' ? code : () => code;
  const compiled = getOrCompile(args.cache ?? defaultCache, args.codeHash, config, loader);
  if (compiled === null) {
    return nopOutcome({ CompilationError: { CodeDoesNotExist: { account_id: context.current_account_id } } });
  }
  const payLoading = (): boolean => {
    try {
      logic.gas.payPer('contract_loading_bytes', BigInt(compiled.codeLength));
      logic.gas.payBase('contract_loading_base');
      return true;
    } catch (e) {
      if (e instanceof HostError) return false;
      throw e;
    }
  };
  // Before fix_contract_loading_cost the loading fee is charged only once the contract compiled, so a
  // contract that fails to compile answers its CompilationError whatever gas is left.
  if (config.fix_contract_loading_cost && !payLoading()) return logic.outcome({ HostError: 'GasExceeded' });
  if (!compiled.ok) return logic.outcome(compiled.error);
  if (!config.fix_contract_loading_cost && !payLoading()) return logic.outcome({ HostError: 'GasExceeded' });
  const unlinked = cachedLinkError(compiled, offeredImportTable(config));
  if (unlinked !== null) return logic.outcome({ LinkError: { msg: unlinked } });
  // Before fix_contract_loading_cost, failures to resolve the method discard everything (nop outcome).
  const fail = (err: FunctionCallError): VMOutcome =>
    config.fix_contract_loading_cost ? logic.outcome(err) : nopOutcome(err);
  const signatureOk = methodName.startsWith('\u0000') ? undefined : compiled.methods.get(methodName);
  if (signatureOk === undefined) return fail({ MethodResolveError: 'MethodNotFound' });
  if (!signatureOk) return fail({ MethodResolveError: 'MethodInvalidSignature' });

  const limits = config.limit_config;
  const initialBytes = limits.initial_memory_pages * PAGE;
  const gas = new WasmGas(logic);
  // A fresh memory of the initial size could not hold this data: instantiation fails as it would.
  if (compiled.dataEnd > initialBytes) {
    return logic.outcome(classify(new WebAssembly.RuntimeError('data segment is out of bounds'), gas, null));
  }
  let memory: WebAssembly.Memory;
  let instance: WebAssembly.Instance;
  // A kept instance of this module is exactly what instantiating it again would make.
  let pooled = takeInstance(compiled);
  if (pooled !== undefined) {
    ({ memory, instance } = pooled);
  } else {
    try {
      memory = takeMemory(limits.max_memory_pages);
    } catch (e) {
      throw new VMRunnerError('LoadingError', 'cannot allocate contract memory', { cause: e });
    }
    try {
      instance = new WebAssembly.Instance(compiled.module, { env: buildImports(memory) });
    } catch (e) {
      // The memory is not returned: a failed instantiation may have written part of the data.
      if (e instanceof WebAssembly.LinkError) return logic.outcome({ LinkError: { msg: e.message } });
      return logic.outcome(classify(e, gas, null));
    }
    pooled = resetPoint(compiled, instance, memory) ?? undefined;
  }
  const guestMemory = new Memory(memory, initialBytes);
  logic.memory = guestMemory;
  const exports = instance.exports;
  const pages = exports[PAGES_EXPORT] as WebAssembly.Global;
  guestMemory.bind(pages);
  gas.global = exports[GAS_EXPORT] as WebAssembly.Global;
  const stack = exports[STACK_EXPORT] as WebAssembly.Global;
  gas.rearm();
  try {
    withHostBinding(logic, gas, () => {
      if (compiled.hasStart) {
        (exports[START_EXPORT] as () => void)();
        stack.value = limits.max_stack_height;
      }
      (exports[methodName] as () => void)();
    });
    gas.flush();
  } catch (e) {
    return logic.outcome(classify(e, gas, stack));
  } finally {
    const low = Math.max(
      (exports[LOW_EXPORT] as WebAssembly.Global).value as number,
      guestMemory.hostLow,
      compiled.dataEnd,
    );
    if (pooled === undefined) {
      releaseMemory(memory, low, initialBytes, pages.value as number);
    } else {
      // Below the data's end the instance's image is copied back from the lowest write on.
      const min = Math.min((exports[MIN_EXPORT] as WebAssembly.Global).value as number, guestMemory.hostMin);
      zeroWrites(memory, compiled.dataEnd, low, initialBytes, pages.value as number);
      returnInstance(compiled, pooled, min);
    }
  }
  return logic.outcome(null);
}
