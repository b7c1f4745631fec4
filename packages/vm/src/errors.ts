// nearcore's FunctionCallError family as plain values in serde's externally-tagged JSON shape, so the
// runtime can store them in outcomes and RPC can print them unchanged. Contract faults are values
// (`VMOutcome.aborted`); node faults are thrown as `VMRunnerError`.

export type PrepareError =
  | 'Serialization'
  | 'Deserialization'
  | 'InternalMemoryDeclared'
  | 'GasInstrumentation'
  | 'StackHeightInstrumentation'
  | 'Instantiate'
  | 'Memory'
  | 'TooManyFunctions'
  | 'TooManyLocals'
  | 'TooManyTables'
  | 'TooManyTableElements'
  | 'FunctionBodyTooLarge'
  | 'InstrumentedCodeTooLarge'
  | 'TooManyBlocksPerFunction'
  | 'TooManyBlocksPerContract'
  | 'TooManyTypes'
  | 'TooManyParamsPerContract'
  | 'TooManyParamsPerFunction'
  | 'OperandStackTooLarge';

export type CompilationError =
  | { CodeDoesNotExist: { account_id: string } }
  | { PrepareError: PrepareError }
  | { WasmerCompileError: { msg: string } };

export type MethodResolveError = 'MethodEmptyName' | 'MethodNotFound' | 'MethodInvalidSignature';

export type WasmTrap =
  | 'Unreachable'
  | 'IncorrectCallIndirectSignature'
  | 'MemoryOutOfBounds'
  | 'CallIndirectOOB'
  | 'IllegalArithmetic'
  | 'MisalignedAtomicAccess'
  | 'IndirectCallToNull'
  | 'StackOverflow'
  | 'GenericTrap';

export type HostErrorValue =
  | 'BadUTF16'
  | 'BadUTF8'
  | 'GasExceeded'
  | 'GasLimitExceeded'
  | 'BalanceExceeded'
  | 'EmptyMethodName'
  | 'IntegerOverflow'
  | 'CannotAppendActionToJointPromise'
  | 'CannotReturnJointPromise'
  | 'MemoryAccessViolation'
  | 'InvalidAccountId'
  | 'InvalidMethodName'
  | 'InvalidPublicKey'
  | 'DataIdMalformed'
  | 'YieldIdMalformed'
  | 'ContractCodeHashMalformed'
  | 'DataEntryAlreadyExists'
  | 'CannotSetRefundToOnJointPromise'
  | { GuestPanic: { panic_msg: string } }
  | { InvalidPromiseIndex: { promise_idx: bigint } }
  | { InvalidPromiseResultIndex: { result_idx: bigint } }
  | { InvalidRegisterId: { register_id: bigint } }
  | { InvalidReceiptIndex: { receipt_index: bigint } }
  | { InvalidActionIndex: { receipt_index: bigint; action_index: bigint } }
  | { InvalidIteratorIndex: { iterator_index: bigint } }
  | { ProhibitedInView: { method_name: string } }
  | { NumberOfLogsExceeded: { limit: bigint } }
  | { KeyLengthExceeded: { length: bigint; limit: bigint } }
  | { ValueLengthExceeded: { length: bigint; limit: bigint } }
  | { TotalLogLengthExceeded: { length: bigint; limit: bigint } }
  | { NumberPromisesExceeded: { number_of_promises: bigint; limit: bigint } }
  | { NumberInputDataDependenciesExceeded: { number_of_input_data_dependencies: bigint; limit: bigint } }
  | { ReturnedValueLengthExceeded: { length: bigint; limit: bigint } }
  | { ContractSizeExceeded: { size: bigint; limit: bigint } }
  | { Deprecated: { method_name: string } }
  | { ECRecoverError: { msg: string } }
  | { AltBn128InvalidInput: { msg: string } }
  | { Ed25519VerifyInvalidInput: { msg: string } }
  | { P256VerifyInvalidInput: { msg: string } }
  | { BLS12381InvalidInput: { msg: string } }
  | { YieldPayloadLength: { length: bigint; limit: bigint } }
  | { RecordedStorageExceeded: { limit: bigint } };

export type FunctionCallError =
  | { CompilationError: CompilationError }
  | { LinkError: { msg: string } }
  | { MethodResolveError: MethodResolveError }
  | { WasmTrap: WasmTrap }
  | { HostError: HostErrorValue };

/** Thrown inside host functions; the runner turns it into `{HostError: value}`. */
export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(readonly value: HostErrorValue) {
    super(typeof value === 'string' ? value : Object.keys(value)[0]);
  }
}

export const VMRunnerErrorCode = {
  InconsistentStateError: 'InconsistentStateError',
  ExternalError: 'ExternalError',
  WasmUnknownError: 'WasmUnknownError',
  LoadingError: 'LoadingError',
} as const;
export type VMRunnerErrorCode = (typeof VMRunnerErrorCode)[keyof typeof VMRunnerErrorCode];

/** A node fault (nearcore's VMRunnerError): never a contract's doing, so it is thrown, not recorded. */
export class VMRunnerError extends Error {
  override readonly name = 'VMRunnerError';
  constructor(
    readonly code: VMRunnerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const TRAP_TEXT: Record<WasmTrap, string> = {
  Unreachable: 'An `unreachable` opcode was executed.',
  IncorrectCallIndirectSignature: 'Call indirect incorrect signature trap.',
  MemoryOutOfBounds: 'Memory out of bounds trap.',
  CallIndirectOOB: 'Call indirect out of bounds trap.',
  IllegalArithmetic: 'An arithmetic exception, e.g. divided by zero.',
  MisalignedAtomicAccess: 'Misaligned atomic access trap.',
  IndirectCallToNull: 'Indirect call to null.',
  StackOverflow: 'Stack overflow.',
  GenericTrap: 'Generic trap.',
};

const PREPARE_TEXT: Record<PrepareError, string> = {
  Serialization: 'Error happened while serializing the module.',
  Deserialization: 'Error happened while deserializing the module.',
  InternalMemoryDeclared: 'Internal memory declaration has been found in the module.',
  GasInstrumentation: 'Gas instrumentation failed.',
  StackHeightInstrumentation: 'Stack instrumentation failed.',
  Instantiate: 'Error happened during instantiation.',
  Memory: 'Error creating memory.',
  TooManyFunctions: 'Too many functions in contract.',
  TooManyLocals: 'Too many locals declared in the contract.',
  TooManyTables: 'Too many tables declared in the contract.',
  TooManyTableElements: 'Too many table elements declared in the contract.',
  FunctionBodyTooLarge: 'A function body in the contract exceeds the size limit.',
  InstrumentedCodeTooLarge: 'The instrumented code exceeds the size limit.',
  TooManyBlocksPerFunction: 'Too many basic blocks in a function.',
  TooManyBlocksPerContract: 'Too many basic blocks in a contract.',
  TooManyTypes: 'Too many type-section entries declared in the contract.',
  TooManyParamsPerContract: 'Too many function parameters in the contract',
  TooManyParamsPerFunction: 'Too many parameters in a single function',
  OperandStackTooLarge: 'A function uses too much operand stack.',
};

const SIMPLE_HOST_TEXT: Record<Extract<HostErrorValue, string>, string> = {
  BadUTF8: 'String encoding is bad UTF-8 sequence.',
  BadUTF16: 'String encoding is bad UTF-16 sequence.',
  GasExceeded: 'Exceeded the prepaid gas.',
  GasLimitExceeded: 'Exceeded the maximum amount of gas allowed to burn per contract.',
  BalanceExceeded: 'Exceeded the account balance.',
  EmptyMethodName: 'Tried to call an empty method name.',
  IntegerOverflow: 'Integer overflow.',
  CannotAppendActionToJointPromise: 'Actions can only be appended to non-joint promise.',
  CannotReturnJointPromise: 'Returning joint promise is currently prohibited.',
  MemoryAccessViolation: 'Accessed memory outside the bounds.',
  InvalidAccountId: 'VM Logic returned an invalid account id',
  InvalidMethodName: 'VM Logic returned an invalid method name',
  InvalidPublicKey: 'VM Logic provided an invalid public key',
  DataIdMalformed: 'yield resumption token is malformed',
  YieldIdMalformed: 'yield id is malformed',
  ContractCodeHashMalformed: 'contract code hash is malformed',
  DataEntryAlreadyExists: 'the state init already has a data entry under this key',
  CannotSetRefundToOnJointPromise: 'refund_to can only be set on non-joint promise.',
};

/** nearcore's `Display for HostError`. */
export function hostErrorMessage(e: HostErrorValue): string {
  if (typeof e === 'string') return SIMPLE_HOST_TEXT[e];
  if ('GuestPanic' in e) return `Smart contract panicked: ${e.GuestPanic.panic_msg}`;
  if ('InvalidPromiseIndex' in e)
    return `${e.InvalidPromiseIndex.promise_idx} does not correspond to existing promises`;
  if ('InvalidPromiseResultIndex' in e)
    return `Accessed invalid promise result index: ${e.InvalidPromiseResultIndex.result_idx}`;
  if ('InvalidRegisterId' in e) return `Accessed invalid register id: ${e.InvalidRegisterId.register_id}`;
  if ('InvalidReceiptIndex' in e)
    return `VM Logic returned an invalid receipt index: ${e.InvalidReceiptIndex.receipt_index}`;
  if ('InvalidActionIndex' in e) {
    const x = e.InvalidActionIndex;
    return `action ${x.action_index} of receipt ${x.receipt_index} is not a state init`;
  }
  if ('InvalidIteratorIndex' in e)
    return `Iterator index ${e.InvalidIteratorIndex.iterator_index} does not exist`;
  if ('ProhibitedInView' in e) return `${e.ProhibitedInView.method_name} is not allowed in view calls`;
  if ('NumberOfLogsExceeded' in e)
    return `The number of logs will exceed the limit ${e.NumberOfLogsExceeded.limit}`;
  if ('KeyLengthExceeded' in e)
    return `The length of a storage key ${e.KeyLengthExceeded.length} exceeds the limit ${e.KeyLengthExceeded.limit}`;
  if ('ValueLengthExceeded' in e)
    return `The length of a storage value ${e.ValueLengthExceeded.length} exceeds the limit ${e.ValueLengthExceeded.limit}`;
  if ('TotalLogLengthExceeded' in e)
    return `The length of a log message ${e.TotalLogLengthExceeded.length} exceeds the limit ${e.TotalLogLengthExceeded.limit}`;
  if ('NumberPromisesExceeded' in e)
    return `The number of promises within a FunctionCall ${e.NumberPromisesExceeded.number_of_promises} exceeds the limit ${e.NumberPromisesExceeded.limit}`;
  if ('NumberInputDataDependenciesExceeded' in e) {
    const x = e.NumberInputDataDependenciesExceeded;
    return `The number of input data dependencies ${x.number_of_input_data_dependencies} exceeds the limit ${x.limit}`;
  }
  if ('ReturnedValueLengthExceeded' in e)
    return `The length of a returned value ${e.ReturnedValueLengthExceeded.length} exceeds the limit ${e.ReturnedValueLengthExceeded.limit}`;
  if ('ContractSizeExceeded' in e)
    return `The size of a contract code in DeployContract action ${e.ContractSizeExceeded.size} exceeds the limit ${e.ContractSizeExceeded.limit}`;
  if ('Deprecated' in e) return `Attempted to call deprecated host function ${e.Deprecated.method_name}`;
  if ('ECRecoverError' in e) return `ECDSA recover error: ${e.ECRecoverError.msg}`;
  if ('AltBn128InvalidInput' in e) return `AltBn128 invalid input: ${e.AltBn128InvalidInput.msg}`;
  if ('Ed25519VerifyInvalidInput' in e)
    return `ED25519 signature verification error: ${e.Ed25519VerifyInvalidInput.msg}`;
  if ('P256VerifyInvalidInput' in e)
    return `P256 signature verification error: ${e.P256VerifyInvalidInput.msg}`;
  if ('BLS12381InvalidInput' in e) return `BLS12-381 invalid input: ${e.BLS12381InvalidInput.msg}`;
  if ('RecordedStorageExceeded' in e)
    return `Size of the recorded trie storage proof has exceeded the allowed limit (${byteSize(e.RecordedStorageExceeded.limit)})`;
  return `Yield resume payload is ${e.YieldPayloadLength.length} bytes which exceeds the ${e.YieldPayloadLength.limit} byte limit`;
}

/**
 * How the bytesize crate (1.x) that nearcore's errors use displays a size: decimal units with one
 * decimal place ("4.0 MB"), plain bytes below 1000. Its exponent divides by ln 1024, not ln 1000, so
 * 1 MiB shows as "1048.6 KB": kept, as nearcore prints it.
 */
export function byteSize(bytes: bigint): string {
  if (bytes < 1000n) return `${bytes} B`;
  const size = Number(bytes);
  const exp = Math.max(1, Math.trunc(Math.log(size) / 6.931471806));
  return `${(size / 1000 ** exp).toFixed(1)} ${'KMGTPE'[exp - 1]}B`;
}

/** nearcore's `Display for FunctionCallError` (what ends up in `ExecutionError` strings). */
export function functionCallErrorMessage(e: FunctionCallError): string {
  if ('HostError' in e) return hostErrorMessage(e.HostError);
  if ('WasmTrap' in e) return `WebAssembly trap: ${TRAP_TEXT[e.WasmTrap]}`;
  if ('MethodResolveError' in e) return e.MethodResolveError;
  if ('LinkError' in e) return e.LinkError.msg;
  const c = e.CompilationError;
  if ('CodeDoesNotExist' in c)
    return `cannot find contract code for account ${c.CodeDoesNotExist.account_id}`;
  if ('PrepareError' in c) return `PrepareError: ${PREPARE_TEXT[c.PrepareError]}`;
  return `Wasmer compilation error: ${c.WasmerCompileError.msg}`;
}
