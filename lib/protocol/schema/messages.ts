/**
 * Every MCP message by method: who sends what, and the params and result of each method.
 *
 * Message types here carry `method` and `params` only; the JSON-RPC envelope (`jsonrpc`,
 * `id`) belongs to `lib/jsonrpc`. Which side may send a method and which capability it
 * needs is `../methods.ts`; which revision has it is there too.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
import type { EmptyResult, NotificationParams, PaginatedRequestParams, RequestParams } from './base.js';
import type { CompleteRequest, CompleteRequestParams, CompleteResult } from './completion.js';
import type {
  ElicitationCompleteNotification,
  ElicitationCompleteNotificationParams,
  ElicitRequest,
  ElicitRequestParams,
  ElicitResult,
} from './elicitation.js';
import type {
  CancelledNotification,
  CancelledNotificationParams,
  InitializedNotification,
  InitializeRequest,
  InitializeRequestParams,
  InitializeResult,
  PingRequest,
  ProgressNotification,
  ProgressNotificationParams,
} from './lifecycle.js';
import type {
  LoggingMessageNotification,
  LoggingMessageNotificationParams,
  SetLevelRequest,
  SetLevelRequestParams,
} from './logging.js';
import type {
  GetPromptRequest,
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsRequest,
  ListPromptsResult,
  PromptListChangedNotification,
} from './prompts.js';
import type {
  ListResourcesRequest,
  ListResourcesResult,
  ListResourceTemplatesRequest,
  ListResourceTemplatesResult,
  ReadResourceRequest,
  ReadResourceRequestParams,
  ReadResourceResult,
  ResourceListChangedNotification,
  ResourceUpdatedNotification,
  ResourceUpdatedNotificationParams,
  SubscribeRequest,
  SubscribeRequestParams,
  UnsubscribeRequest,
  UnsubscribeRequestParams,
} from './resources.js';
import type { ListRootsRequest, ListRootsResult, RootsListChangedNotification } from './roots.js';
import type { CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult } from './sampling.js';
import type {
  CancelTaskRequest,
  CancelTaskResult,
  GetTaskPayloadRequest,
  GetTaskPayloadResult,
  GetTaskRequest,
  GetTaskResult,
  ListTasksRequest,
  ListTasksResult,
  TaskIdParams,
  TaskStatusNotification,
  TaskStatusNotificationParams,
} from './tasks.js';
import type {
  CallToolRequest,
  CallToolRequestParams,
  CallToolResult,
  ListToolsRequest,
  ListToolsResult,
  ToolListChangedNotification,
} from './tools.js';

/**
 * Requests a client sends.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type ClientRequest =
  | PingRequest
  | InitializeRequest
  | CompleteRequest
  | SetLevelRequest
  | GetPromptRequest
  | ListPromptsRequest
  | ListResourcesRequest
  | ListResourceTemplatesRequest
  | ReadResourceRequest
  | SubscribeRequest
  | UnsubscribeRequest
  | CallToolRequest
  | ListToolsRequest
  | GetTaskRequest
  | GetTaskPayloadRequest
  | ListTasksRequest
  | CancelTaskRequest;

/**
 * Notifications a client sends.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type ClientNotification =
  | CancelledNotification
  | ProgressNotification
  | InitializedNotification
  | RootsListChangedNotification
  | TaskStatusNotification;

/**
 * Results a client sends back.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type ClientResult =
  | EmptyResult
  | CreateMessageResult
  | ListRootsResult
  | ElicitResult
  | GetTaskResult
  | GetTaskPayloadResult
  | ListTasksResult
  | CancelTaskResult;

/**
 * Requests a server sends.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type ServerRequest =
  | PingRequest
  | CreateMessageRequest
  | ListRootsRequest
  | ElicitRequest
  | GetTaskRequest
  | GetTaskPayloadRequest
  | ListTasksRequest
  | CancelTaskRequest;

/**
 * Notifications a server sends.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type ServerNotification =
  | CancelledNotification
  | ProgressNotification
  | LoggingMessageNotification
  | ResourceUpdatedNotification
  | ResourceListChangedNotification
  | ToolListChangedNotification
  | PromptListChangedNotification
  | ElicitationCompleteNotification
  | TaskStatusNotification;

/**
 * Results a server sends back.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type ServerResult =
  | EmptyResult
  | InitializeResult
  | CompleteResult
  | GetPromptResult
  | ListPromptsResult
  | ListResourceTemplatesResult
  | ListResourcesResult
  | ReadResourceResult
  | CallToolResult
  | ListToolsResult
  | GetTaskResult
  | GetTaskPayloadResult
  | ListTasksResult
  | CancelTaskResult;

/**
 * Params and result of every request method. Requests run as tasks (params with `task`)
 * answer with `CreateTaskResult` instead of the result named here.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type RequestMap = {
  ping: { params: RequestParams | undefined; result: EmptyResult };
  initialize: { params: InitializeRequestParams; result: InitializeResult };
  'completion/complete': { params: CompleteRequestParams; result: CompleteResult };
  'logging/setLevel': { params: SetLevelRequestParams; result: EmptyResult };
  'prompts/list': { params: PaginatedRequestParams | undefined; result: ListPromptsResult };
  'prompts/get': { params: GetPromptRequestParams; result: GetPromptResult };
  'resources/list': { params: PaginatedRequestParams | undefined; result: ListResourcesResult };
  'resources/templates/list': {
    params: PaginatedRequestParams | undefined;
    result: ListResourceTemplatesResult;
  };
  'resources/read': { params: ReadResourceRequestParams; result: ReadResourceResult };
  'resources/subscribe': { params: SubscribeRequestParams; result: EmptyResult };
  'resources/unsubscribe': { params: UnsubscribeRequestParams; result: EmptyResult };
  'tools/list': { params: PaginatedRequestParams | undefined; result: ListToolsResult };
  'tools/call': { params: CallToolRequestParams; result: CallToolResult };
  'sampling/createMessage': { params: CreateMessageRequestParams; result: CreateMessageResult };
  'elicitation/create': { params: ElicitRequestParams; result: ElicitResult };
  'roots/list': { params: RequestParams | undefined; result: ListRootsResult };
  'tasks/get': { params: TaskIdParams; result: GetTaskResult };
  'tasks/result': { params: TaskIdParams; result: GetTaskPayloadResult };
  'tasks/list': { params: PaginatedRequestParams | undefined; result: ListTasksResult };
  'tasks/cancel': { params: TaskIdParams; result: CancelTaskResult };
};

/**
 * Params of every notification method (`undefined` where params may be omitted).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type NotificationMap = {
  'notifications/initialized': NotificationParams | undefined;
  'notifications/cancelled': CancelledNotificationParams;
  'notifications/progress': ProgressNotificationParams;
  'notifications/message': LoggingMessageNotificationParams;
  'notifications/resources/updated': ResourceUpdatedNotificationParams;
  'notifications/resources/list_changed': NotificationParams | undefined;
  'notifications/tools/list_changed': NotificationParams | undefined;
  'notifications/prompts/list_changed': NotificationParams | undefined;
  'notifications/roots/list_changed': NotificationParams | undefined;
  'notifications/elicitation/complete': ElicitationCompleteNotificationParams;
  'notifications/tasks/status': TaskStatusNotificationParams;
};

/**
 * A request method name.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type RequestMethod = keyof RequestMap;
/**
 * A notification method name.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type NotificationMethod = keyof NotificationMap;
/**
 * Any MCP method name.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type McpMethod = RequestMethod | NotificationMethod;

/**
 * Params of request method `M`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type ParamsOf<M extends RequestMethod> = RequestMap[M]['params'];
/**
 * Result of request method `M`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type ResultOf<M extends RequestMethod> = RequestMap[M]['result'];
/**
 * Params of notification method `M`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type NotificationParamsOf<M extends NotificationMethod> = NotificationMap[M];

/**
 * Any request, either direction.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type McpRequest = ClientRequest | ServerRequest;
/**
 * Any notification, either direction.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type McpNotification = ClientNotification | ServerNotification;
