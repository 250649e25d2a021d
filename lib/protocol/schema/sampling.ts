/**
 * Sampling: `sampling/createMessage`, server asks the client's LLM.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
 */
import type { Meta, Result, Role, TaskAugmentedRequestParams } from './base.js';
import type { SamplingMessageContentBlock } from './content.js';
import type { Tool } from './tools.js';

/**
 * One turn of the conversation to sample from. Blocks allowed per revision: see
 * `SamplingContentIn`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#messages
 */
export type SamplingMessage = {
  role: Role;
  /** One block, or (from 2025-11-25) an array of blocks. */
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  /** @since 2025-11-25 */
  _meta?: Meta;
};

/**
 * A model name hint, matched as a substring (or mapped to a similar model).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#model-hints
 */
export type ModelHint = {
  name?: string;
};

/**
 * Advisory model preferences; priorities are 0…1.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#model-preferences
 */
export type ModelPreferences = {
  /** Evaluated in order; the first match wins. */
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
};

/**
 * How the model may use the offered tools. Default `{ mode: "auto" }`.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#tool-choice-modes
 */
export type ToolChoice = {
  mode?: 'auto' | 'required' | 'none';
};

/**
 * Context from MCP servers to include. `thisServer` and `allServers` are soft-deprecated and,
 * from 2025-11-25, only for clients that declare `sampling.context`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#creating-messages
 */
export type IncludeContext = 'none' | 'thisServer' | 'allServers';

/**
 * Params of `sampling/createMessage`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#creating-messages
 */
export type CreateMessageRequestParams = TaskAugmentedRequestParams & {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  /** Default `"none"`. */
  includeContext?: IncludeContext;
  temperature?: number;
  /** Upper bound; the client may sample fewer. */
  maxTokens: number;
  stopSequences?: string[];
  /** Passed through to the LLM provider. */
  metadata?: object;
  /**
   * Tools the model may call; only for clients that declare `sampling.tools`.
   * @since 2025-11-25
   */
  tools?: Tool[];
  /**
   * Only for clients that declare `sampling.tools`.
   * @since 2025-11-25
   */
  toolChoice?: ToolChoice;
};

/**
 * The server asks the client to sample its LLM (with the user in the loop).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#creating-messages
 */
export type CreateMessageRequest = {
  method: 'sampling/createMessage';
  params: CreateMessageRequestParams;
};

/**
 * Why sampling stopped: the standard values, or a provider's own.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#creating-messages
 */
export type StopReason = 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | (string & {});

/**
 * Answer to `sampling/createMessage`: the sampled message and which model made it.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#creating-messages
 */
export type CreateMessageResult = Result &
  SamplingMessage & {
    model: string;
    /** The standard value `toolUse` is new in 2025-11-25. */
    stopReason?: StopReason;
  };
