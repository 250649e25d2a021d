/**
 * MCP message types for revisions 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25.
 *
 * One set of types covers all four revisions: what a later revision added is optional and
 * tagged `@since <revision>`; untagged means present since 2024-11-05. Types only, apart
 * from a few constant lists (`LOGGING_LEVELS`, `TASK_STATUSES`, `RELATED_TASK_META_KEY`).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export type * from './base.js';
export type * from './lifecycle.js';
export type * from './content.js';
export type * from './tools.js';
export type * from './resources.js';
export type * from './prompts.js';
export type * from './completion.js';
export type * from './sampling.js';
export type * from './elicitation.js';
export type * from './roots.js';
export type * from './messages.js';
export * from './logging.js';
export * from './tasks.js';
export * from './modern.js';
