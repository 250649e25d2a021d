/**
 * The client features: typed errors, pagination, output-schema validation, live lists,
 * sampling checks, roots validation, form schemas and the elicitation runtime.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client
 */
export * from './client-feature-errors.js';
export * from './list-pages.js';
export * from './output-schema.js';
export * from './live-list.js';
export * from './sampling.js';
export * from './roots.js';
export * from './form-schema.js';
export * from './elicitation.js';
export * from './tool-approval.js';
export * from './tool-audit.js';
export * from './completer.js';
export * from './model-preferences.js';
export * from './elicitation-text.js';
export * from './task-journal.js';
export * from './task-watch.js';
export { ClientSkills, LoadedSkill, SkillVerificationError, SkillsNotSupportedError, type SkillFile, type LoadSkillOptions, type SkillVerificationReason, type SkillsRequester } from './client-skills.js';
export { SKILLS_EXTENSION, type Skill, type SkillResource } from '../protocol/skills-extension.js';
