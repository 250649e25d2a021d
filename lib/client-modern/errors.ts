/**
 * Typed errors of the modern era on the client: each says what the server did and what to do.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */

/** The server and this client have no protocol version in common. */
export class NoCommonVersionError extends Error {
  override readonly name = 'NoCommonVersionError';
  constructor(
    readonly serverSupported: readonly string[],
    readonly offered: readonly string[],
  ) {
    super(`The server supports ${serverSupported.join(', ') || 'no version it named'}; this client speaks ${offered.join(', ')}. Upgrade one side, or pin a version both speak.`);
  }
}

/** A result's `resultType` is neither absent, "complete" nor "input_required" (nor one an extension declared). */
export class MalformedResultTypeError extends Error {
  override readonly name = 'MalformedResultTypeError';
  constructor(
    readonly method: string,
    readonly resultType: unknown,
  ) {
    super(`The server answered ${method} with resultType ${JSON.stringify(resultType)?.slice(0, 60)}, which this client does not know; the result was not used.`);
  }
}

/** The server asked for input more times than the client allows for one request. */
export class InputRoundsExceededError extends Error {
  override readonly name = 'InputRoundsExceededError';
  constructor(
    readonly method: string,
    readonly rounds: number,
  ) {
    super(`The server asked for input ${rounds} times while serving ${method} and still was not done; the client stopped there (raise maxInputRounds if the server needs more).`);
  }
}

/** The server asked for an input the client has no handler for (or did not declare). */
export class UnsupportedInputRequestError extends Error {
  override readonly name = 'UnsupportedInputRequestError';
  constructor(
    readonly method: string,
    readonly key: string,
    readonly requested: string,
  ) {
    super(
      `While serving ${method}, the server asked for "${requested}" (input ${JSON.stringify(key)}), which this client does not handle: ` +
        'register onElicitation, onSampling or setRoots before connecting, or the server must not ask for it.',
    );
  }
}

/** An `input_required` result where it is not allowed, or without anything to answer. */
export class InvalidInputRequiredError extends Error {
  override readonly name = 'InvalidInputRequiredError';
  constructor(
    readonly method: string,
    problem: string,
  ) {
    super(`The server answered ${method} with an invalid input_required result: ${problem}`);
  }
}
