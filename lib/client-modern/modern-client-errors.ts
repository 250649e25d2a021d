import { TransportError } from '../errors.js';

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
    super(
      resultType === 'task'
        ? `The server answered ${method} with a CreateTaskResult (resultType "task"), an invalid response: only tools/call runs as a task, and only when the tasks extension is declared. The result was not used.`
        : `The server answered ${method} with resultType ${JSON.stringify(resultType)?.slice(0, 60)}, which this client does not know; the result was not used.`,
    );
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

/**
 * The server's process ended while the client probed it with `server/discover`: it crashed, or it
 * is a legacy server that exits on any request before `initialize`. The message is the
 * transport's (exit code, last stderr lines) with what to do; connect again with `era: 'legacy'`
 * if the server is legacy (a host does so by itself).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#backward-compatibility
 */
export class ServerExitedOnProbeError extends TransportError {
  override readonly name: string = 'ServerExitedOnProbeError';
  constructor(override readonly cause: Error) {
    super(
      `${cause.message.replace(/\.?$/, '.')} It ended while probed with server/discover: if it is a legacy server that exits on ` +
        "requests before initialize, connect with era: 'legacy'.",
      (cause as { details?: Record<string, unknown> }).details,
    );
  }
}

/** The server speaks only session (legacy) revisions, and the client was told to speak 2026-07-28 only. */
export class LegacyServerError extends Error {
  override readonly name = 'LegacyServerError';
  constructor(readonly reason: string) {
    super(`The server speaks only revisions before 2026-07-28 (${reason}), and this client was created with era: 'modern'. Use era: 'auto' to talk to it.`);
  }
}
