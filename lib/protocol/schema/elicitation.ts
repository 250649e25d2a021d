/**
 * Elicitation: `elicitation/create` in form mode (2025-06-18) and URL mode (2025-11-25),
 * `notifications/elicitation/complete`, and the -32042 error's data.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
import type { NotificationParams, Result, TaskAugmentedRequestParams } from './base.js';

/**
 * A text field.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type StringSchema = {
  type: 'string';
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  /** Shown in the specification text's example; schema.ts does not list it. */
  pattern?: string;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  /** @since 2025-11-25 */
  default?: string;
};

/**
 * A number field; `integer` accepts whole numbers only.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type NumberSchema = {
  type: 'number' | 'integer';
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  /** @since 2025-11-25 */
  default?: number;
};

/**
 * A yes/no field.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type BooleanSchema = {
  type: 'boolean';
  title?: string;
  description?: string;
  default?: boolean;
};

/**
 * Pick one of plain values.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type UntitledSingleSelectEnumSchema = {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  /** @since 2025-11-25 */
  default?: string;
};

/**
 * A value with a display label.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type TitledEnumOption = {
  const: string;
  title: string;
};

/**
 * Pick one of labelled values.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type TitledSingleSelectEnumSchema = {
  type: 'string';
  title?: string;
  description?: string;
  oneOf: TitledEnumOption[];
  default?: string;
};

/**
 * Pick one.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;

/**
 * Pick several of plain values.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type UntitledMultiSelectEnumSchema = {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: {
    type: 'string';
    enum: string[];
  };
  default?: string[];
};

/**
 * Pick several of labelled values.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type TitledMultiSelectEnumSchema = {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: {
    anyOf: TitledEnumOption[];
  };
  default?: string[];
};

/**
 * Pick several.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;

/**
 * The 2025-06-18 enum: values plus non-standard `enumNames` labels.
 * @deprecated From 2025-11-25 use {@link TitledSingleSelectEnumSchema}.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type LegacyTitledEnumSchema = {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  enumNames?: string[];
  /** @since 2025-11-25 */
  default?: string;
};

/**
 * Any enum field. Only `LegacyTitledEnumSchema` (and its untitled form) exist in 2025-06-18.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;

/**
 * One field of a form: flat, primitive, no nesting.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/**
 * The restricted JSON Schema of a form: an object of primitive fields.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export type ElicitRequestedSchema = {
  /** @since 2025-11-25 */
  $schema?: string;
  type: 'object';
  properties: { [name: string]: PrimitiveSchemaDefinition };
  required?: string[];
};

/**
 * Params of a form-mode `elicitation/create`: the data passes through the client.
 * @since 2025-06-18
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#form-mode-elicitation-requests
 */
export type ElicitRequestFormParams = TaskAugmentedRequestParams & {
  /**
   * Absent means form (always absent before 2025-11-25).
   * @since 2025-11-25
   */
  mode?: 'form';
  /** Why the server asks. */
  message: string;
  requestedSchema: ElicitRequestedSchema;
};

/**
 * Params of a URL-mode `elicitation/create`: the user goes to a URL; the data never passes
 * through the client.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-mode-elicitation-requests
 */
export type ElicitRequestURLParams = TaskAugmentedRequestParams & {
  mode: 'url';
  /** Why the interaction is needed. */
  message: string;
  /** Unique per server; opaque to the client. */
  elicitationId: string;
  url: string;
};

/**
 * Params of `elicitation/create`, either mode.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#elicitation-requests
 */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

/**
 * The server asks the user, through the client, for information.
 * @since 2025-06-18
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#elicitation-requests
 */
export type ElicitRequest = {
  method: 'elicitation/create';
  params: ElicitRequestParams;
};

/**
 * What the user did.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#response-actions
 */
export type ElicitAction = 'accept' | 'decline' | 'cancel';

/**
 * Answer to `elicitation/create`.
 * @since 2025-06-18
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#response-actions
 */
export type ElicitResult = Result & {
  action: ElicitAction;
  /**
   * The form's values; only with `accept` in form mode. `string[]` values (multi-select)
   * are new in 2025-11-25.
   */
  content?: { [name: string]: string | number | boolean | string[] };
};

/**
 * Params of `notifications/elicitation/complete`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#completion-notifications-for-url-mode-elicitation
 */
export type ElicitationCompleteNotificationParams = NotificationParams & {
  elicitationId: string;
};

/**
 * Server to client: the out-of-band interaction of a URL-mode elicitation finished.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#completion-notifications-for-url-mode-elicitation
 */
export type ElicitationCompleteNotification = {
  method: 'notifications/elicitation/complete';
  params: ElicitationCompleteNotificationParams;
};

/**
 * The `data` of a `URLElicitationRequiredError` (code -32042, `ErrorCode.UrlElicitationRequired`):
 * the URL elicitations to complete before retrying.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-elicitation-required-error
 */
export type UrlElicitationRequiredErrorData = {
  elicitations: ElicitRequestURLParams[];
  [key: string]: unknown;
};
